import { describe, expect, it } from 'vitest';
import { contactPayload, validateContact, type ContactInput } from './contact-validation.ts';

const valid: ContactInput = {
  name: 'Dana Whitfield',
  email: 'dana@harborbakery.com',
  subject: 'SEO for our bakery',
  message: 'We would like help with local search.',
};

describe('contact form validation', () => {
  it('accepts a complete message', () => {
    expect(validateContact(valid)).toEqual({});
  });

  it('requires every field, ignoring surrounding spaces', () => {
    expect(validateContact({ name: ' ', email: '', subject: '\n', message: '' })).toEqual({
      name: 'Please enter your name.',
      email: 'Please enter your email address.',
      subject: 'Please enter a subject.',
      message: 'Please enter a message.',
    });
  });

  it('rejects malformed email addresses', () => {
    for (const email of ['dana', 'dana@', '@bakery.com', 'dana@bakery', 'dana smith@bakery.com']) {
      expect(validateContact({ ...valid, email }).email, email).toBe('Please enter a valid email address.');
    }
  });

  it('enforces the length limits: name 100, subject 150, message 5000', () => {
    expect(validateContact({ ...valid, name: 'n'.repeat(100) }).name).toBeUndefined();
    expect(validateContact({ ...valid, name: 'n'.repeat(101) }).name).toBe('Name must be 100 characters or fewer.');
    expect(validateContact({ ...valid, subject: 's'.repeat(151) }).subject).toBe('Subject must be 150 characters or fewer.');
    expect(validateContact({ ...valid, message: 'm'.repeat(5000) }).message).toBeUndefined();
    expect(validateContact({ ...valid, message: 'm'.repeat(5001) }).message).toBe('Message must be 5000 characters or fewer.');
  });

  it('sends trimmed values with the honeypot', () => {
    expect(contactPayload({ ...valid, name: '  Dana  ' }, '')).toEqual({ ...valid, name: 'Dana', website: '' });
  });
});
