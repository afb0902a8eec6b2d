/** The site's shell forms' busy state while they send (contact, newsletter sign-up). */

/** Shows or clears the busy state of a submit button (disabled, spinner visible, aria-busy). */
export function setBusy(form: HTMLFormElement, busy: boolean): void {
  const button = form.querySelector<HTMLButtonElement>('button[type="submit"]');
  if (button) button.disabled = busy;
  form.setAttribute('aria-busy', String(busy));
  form.querySelector<HTMLElement>('[data-spinner]')?.toggleAttribute('hidden', !busy);
}
