/**
 * The newsletter form (spec point 5): an email must be non-empty and contain "@"; on success it is
 * stored locally and the field cleared. The API answers 202 (a confirmation mail is on its way);
 * the spec's success toast stays as written. Errors show the server's message in an 'Error' toast.
 */
import { STORAGE_KEYS, writeStored } from '../../lib/browser/storage-keys.ts';
import { ensureToastRegion, toast } from '../../lib/browser/toast.ts';
import { failureText, fieldMessage, subscribe } from '../../lib/browser/form-api.ts';
import { setBusy } from './busy.ts';

const INVALID_EMAIL = 'Please enter a valid email address';
const SUCCESS_TEXT = 'Thank you for subscribing to our newsletter.';

/** The spec's rule: non-empty and contains an @. */
export function isNewsletterEmail(value: string): boolean {
  return value.trim() !== '' && value.includes('@');
}

/** The form's toasts replace each other: repeated errors never pile up over the form. */
const TOAST_KEY = 'newsletter';
const fail = (description: string) => toast({ title: 'Error', description, variant: 'destructive', key: TOAST_KEY });

async function submit(form: HTMLFormElement): Promise<void> {
  const input = form.elements.namedItem('email') as HTMLInputElement;
  const honeypot = form.elements.namedItem('website') as HTMLInputElement | null;
  const email = input.value.trim();
  if (!isNewsletterEmail(email)) {
    fail(INVALID_EMAIL);
    input.focus();
    return;
  }
  setBusy(form, true);
  try {
    const result = await subscribe({ email, source: location.pathname, website: honeypot?.value ?? '' });
    if (result.ok) {
      writeStored(STORAGE_KEYS.userEmail, email);
      input.value = '';
      toast({ title: 'Success!', description: SUCCESS_TEXT, key: TOAST_KEY });
    } else {
      const invalid = result.kind === 'error' && result.status === 422 && fieldMessage(result, 'email');
      fail(invalid ? INVALID_EMAIL : failureText(result));
    }
  } finally {
    setBusy(form, false);
  }
}

/** Wires every newsletter form on the page. */
export function initNewsletterForms(): void {
  ensureToastRegion();
  for (const form of document.querySelectorAll<HTMLFormElement>('form[data-newsletter]')) {
    form.addEventListener('submit', (e) => {
      e.preventDefault();
      if (form.getAttribute('aria-busy') !== 'true') void submit(form);
    });
  }
}
