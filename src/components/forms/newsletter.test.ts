import { describe, expect, it } from 'vitest';
import { isNewsletterEmail } from './newsletter.ts';

describe('newsletter email rule', () => {
  it('needs a non-empty value containing "@" (spec point 5)', () => {
    expect(isNewsletterEmail('owner@harborbakery.com')).toBe(true);
    expect(isNewsletterEmail('')).toBe(false);
    expect(isNewsletterEmail('   ')).toBe(false);
    expect(isNewsletterEmail('owner.harborbakery.com')).toBe(false);
  });
});
