/**
 * A page that changed the member's profile on the server (a payment, a cancellation) says so with
 * this event; the auth client, when a page has loaded it, reads the profile again. Pages that do
 * not load the auth client (the confirmation page) can announce without importing it.
 */
export const PROFILE_CHANGED_EVENT = 'beacon:profile-changed';

/** Tells a loaded auth client that the member's profile changed on the server. */
export function announceProfileChange(): void {
  window.dispatchEvent(new Event(PROFILE_CHANGED_EVENT));
}
