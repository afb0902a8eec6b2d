/**
 * Contact form behaviour. Checks run in the browser first; the API is the authority. A 422 puts
 * each field's first message beside it (aria-invalid, aria-describedby); 429 and other failures
 * show the server's message above the form. What was typed is never cleared on an error.
 */
import { failureText, fieldMessage, sendContact } from '../../lib/browser/form-api.ts';
import { setBusy } from './busy.ts';
import { CONTACT_FIELDS, contactPayload, validateContact, type ContactErrors, type ContactInput } from './contact-validation.ts';

function control(form: HTMLFormElement, field: string): HTMLInputElement | HTMLTextAreaElement {
  return form.elements.namedItem(field) as HTMLInputElement | HTMLTextAreaElement;
}

function showErrors(form: HTMLFormElement, errors: ContactErrors): void {
  for (const field of CONTACT_FIELDS) {
    const input = control(form, field);
    const slot = form.querySelector<HTMLElement>(`[data-error-for="${field}"]`)!;
    const message = errors[field];
    slot.textContent = message ?? '';
    slot.hidden = !message;
    if (message) {
      input.setAttribute('aria-invalid', 'true');
      input.setAttribute('aria-describedby', slot.id);
    } else {
      input.removeAttribute('aria-invalid');
      input.removeAttribute('aria-describedby');
    }
  }
  const first = CONTACT_FIELDS.find((f) => errors[f]);
  if (first) control(form, first).focus();
}

function formError(form: HTMLFormElement, message: string): void {
  form.querySelector<HTMLElement>('[data-form-error]')!.textContent = message;
}

function values(form: HTMLFormElement): ContactInput {
  return Object.fromEntries(CONTACT_FIELDS.map((f) => [f, control(form, f).value])) as ContactInput;
}

async function submit(root: HTMLElement, form: HTMLFormElement): Promise<void> {
  formError(form, '');
  const input = values(form);
  const errors = validateContact(input);
  showErrors(form, errors);
  if (Object.keys(errors).length > 0) return;

  setBusy(form, true);
  const website = (form.elements.namedItem('website') as HTMLInputElement | null)?.value ?? '';
  const result = await sendContact(contactPayload(input, website));
  setBusy(form, false);
  if (result.ok) {
    const success = root.querySelector<HTMLElement>('[data-contact-success]')!;
    success.querySelector('[data-success-text]')!.textContent =
      `Thanks, ${input.name.trim()}! Your message is on its way. We reply within 24 hours.`;
    form.hidden = true;
    success.hidden = false;
    success.focus();
    return;
  }
  const serverErrors: ContactErrors = {};
  for (const f of CONTACT_FIELDS) {
    const message = fieldMessage(result, f);
    if (message) serverErrors[f] = message;
  }
  if (result.kind === 'error' && result.status === 422 && Object.keys(serverErrors).length > 0) showErrors(form, serverErrors);
  else formError(form, failureText(result));
}

export function initContactForm(): void {
  const root = document.querySelector<HTMLElement>('[data-contact]');
  const form = root?.querySelector<HTMLFormElement>('form[data-contact-form]');
  if (!root || !form) return;
  form.addEventListener('submit', (e) => {
    e.preventDefault();
    if (form.getAttribute('aria-busy') !== 'true') void submit(root, form);
  });
  // A corrected field loses its error as soon as it is valid again.
  form.addEventListener('input', (e) => {
    const field = (e.target as HTMLElement).getAttribute('name') as (typeof CONTACT_FIELDS)[number] | null;
    if (!field || !CONTACT_FIELDS.includes(field) || control(form, field).getAttribute('aria-invalid') !== 'true') return;
    if (!validateContact(values(form))[field]) {
      const slot = form.querySelector<HTMLElement>(`[data-error-for="${field}"]`)!;
      slot.hidden = true;
      control(form, field).removeAttribute('aria-invalid');
      control(form, field).removeAttribute('aria-describedby');
    }
  });
  root.querySelector('[data-contact-again]')?.addEventListener('click', () => {
    form.reset();
    root.querySelector<HTMLElement>('[data-contact-success]')!.hidden = true;
    form.hidden = false;
    control(form, 'name').focus();
  });
}
