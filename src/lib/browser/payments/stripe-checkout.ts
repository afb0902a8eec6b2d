/**
 * Stripe's embedded Checkout in a modal dialog (only when the server answers a client secret, which
 * it does only with STRIPE_CHECKOUT_UI=embedded). Stripe.js loads from js.stripe.com, which the
 * build then allows in script-src. After payment Stripe sends the page to the session's return URL,
 * the confirmation page; closing the dialog ends this checkout and resolves.
 */
import { loadStripe } from '@stripe/stripe-js/pure';

export async function openEmbeddedCheckout({
  clientSecret,
  publishableKey,
}: {
  clientSecret: string;
  publishableKey: string;
}): Promise<void> {
  const stripe = await loadStripe(publishableKey);
  if (!stripe) throw new Error('Stripe.js could not be loaded.');
  const checkout = await stripe.createEmbeddedCheckoutPage({ clientSecret });

  const dialog = document.createElement('dialog');
  dialog.setAttribute('aria-label', 'Checkout');
  dialog.className = 'w-full max-w-xl rounded-xl bg-white p-0 shadow-xl backdrop:bg-slate-900/60';
  const close = document.createElement('button');
  close.type = 'button';
  close.textContent = 'Close';
  close.className = 'm-3 rounded-md px-3 py-1.5 text-sm font-medium text-slate-700 hover:bg-slate-100';
  const mount = document.createElement('div');
  mount.className = 'min-h-96 px-2 pb-4';
  dialog.append(close, mount);
  document.body.append(dialog);
  checkout.mount(mount);
  dialog.showModal();

  await new Promise<void>((resolve) => {
    close.addEventListener('click', () => dialog.close());
    dialog.addEventListener('close', () => resolve(), { once: true });
  });
  checkout.destroy();
  dialog.remove();
}
