/**
 * Browser-side checks of the contact form, mirroring the API's limits so most mistakes are caught
 * before sending. The server stays the authority: its 422 field messages replace these.
 */
export const CONTACT_FIELDS = ['name', 'email', 'subject', 'message'] as const;
export type ContactField = (typeof CONTACT_FIELDS)[number];
export type ContactInput = Record<ContactField, string>;
export type ContactErrors = Partial<Record<ContactField, string>>;

export const CONTACT_LIMITS: Record<ContactField, number> = { name: 100, email: 254, subject: 150, message: 5000 };

const REQUIRED: Record<ContactField, string> = {
  name: 'Please enter your name.',
  email: 'Please enter your email address.',
  subject: 'Please enter a subject.',
  message: 'Please enter a message.',
};
const LABELS: Record<ContactField, string> = { name: 'Name', email: 'Email', subject: 'Subject', message: 'Message' };

/** One "@", something before it, and a dotted domain after it, with no spaces. */
const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** Messages for the fields that fail, keyed by field; empty when the input can be sent. */
export function validateContact(input: ContactInput): ContactErrors {
  const errors: ContactErrors = {};
  for (const field of CONTACT_FIELDS) {
    const value = input[field].trim();
    if (!value) errors[field] = REQUIRED[field];
    else if (value.length > CONTACT_LIMITS[field]) errors[field] = `${LABELS[field]} must be ${CONTACT_LIMITS[field]} characters or fewer.`;
    else if (field === 'email' && !EMAIL_PATTERN.test(value)) errors.email = 'Please enter a valid email address.';
  }
  return errors;
}

/** The trimmed values that are sent. */
export function contactPayload(input: ContactInput, website: string) {
  return {
    name: input.name.trim(),
    email: input.email.trim(),
    subject: input.subject.trim(),
    message: input.message.trim(),
    website,
  };
}
