/**
 * Takes the browser to a created checkout: a redirect to the provider's page, or Stripe's embedded
 * Checkout in a dialog on this page when the server is configured for it. Stripe.js is imported only
 * then (its own chunk), so no page loads it up front and the embedded test provider never does.
 */
import type { CheckoutSession } from './client.ts';

/** The spec's text when checkout cannot start (point 8). */
export const CHECKOUT_FAILED = 'Failed to initiate checkout. Please try again.';

/** 'left' once the browser is on its way to the provider's page; 'closed' when the member closed the embedded checkout. */
export async function goToCheckout(session: CheckoutSession): Promise<'left' | 'closed'> {
  if ('url' in session) {
    window.location.assign(session.url);
    return 'left';
  }
  const { openEmbeddedCheckout } = await import('./stripe-checkout.ts');
  await openEmbeddedCheckout(session);
  return 'closed';
}
