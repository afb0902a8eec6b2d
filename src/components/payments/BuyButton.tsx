/**
 * Buying a priced market item or course outright (beyond the spec's plans, the same checkout
 * states as the pricing page): 'Buy for $X', then 'Processing...' with the button disabled, then the
 * provider's page; on failure back to idle with 'Failed to initiate checkout. Please try again.' in
 * a red box above the button. Visitors who are not signed in go through /signin and come back here.
 */
import { useEffect, useState, type ReactNode } from 'react';
import { formatDollars } from '#shared/pricing.ts';
import { CHECKOUT_FAILED, goToCheckout } from '../../lib/browser/payments/checkout.ts';
import { startItemCheckout, type PurchasableType } from '../../lib/browser/payments/client.ts';
import { signInHref } from '../content/gated/GateCard.tsx';

export interface BuyButtonProps {
  type: PurchasableType;
  slug: string;
  /** Dollars. */
  price: number;
  signedIn: boolean;
}

export function BuyButton({ type, slug, price, signedIn }: BuyButtonProps) {
  const [processing, setProcessing] = useState(false);
  const [failure, setFailure] = useState<{ detail?: string } | null>(null);

  // Back from the provider's page through the browser's history: the page may come back as it was left.
  useEffect(() => {
    const reset = (event: PageTransitionEvent) => {
      if (event.persisted) setProcessing(false);
    };
    window.addEventListener('pageshow', reset);
    return () => window.removeEventListener('pageshow', reset);
  }, []);

  async function buy() {
    if (!signedIn) return window.location.assign(signInHref());
    setProcessing(true);
    setFailure(null);
    const result = await startItemCheckout({ type, slug });
    if (result.ok) {
      // Stays 'Processing...' while the page changes; back to idle if an embedded checkout is closed.
      const outcome = await goToCheckout(result.data).catch(() => 'failed' as const);
      if (outcome === 'left') return;
      setProcessing(false);
      if (outcome === 'failed') setFailure({});
      return;
    }
    if (result.kind === 'signed-out') return window.location.assign(signInHref());
    setProcessing(false);
    setFailure(result.kind === 'error' && result.status === 409 ? { detail: result.message } : {});
  }

  return (
    <div className="flex flex-col items-start gap-3">
      <div aria-live="assertive" className="empty:hidden">
        {failure && (
          <div className="rounded-lg border border-red-200 bg-red-50 px-4 py-3 text-sm text-red-800">
            <p className="font-semibold">{CHECKOUT_FAILED}</p>
            {failure.detail && <p className="mt-1">{failure.detail}</p>}
          </div>
        )}
      </div>
      <button
        type="button"
        onClick={() => void buy()}
        disabled={processing}
        className="min-h-11 rounded-lg bg-brand-600 px-5 py-2.5 text-sm font-semibold text-white hover:bg-brand-700 disabled:cursor-wait disabled:opacity-60"
      >
        {processing ? 'Processing...' : `Buy for ${formatDollars(price)}`}
      </button>
      {!signedIn && <p className="text-sm text-slate-600">You will sign in or create an account first.</p>}
    </div>
  );
}

/** What a priced item shows to someone it does not open for: the level's gate (unless no plan includes it) and the Buy button. */
export function PurchaseOffer({ gate, ...buy }: BuyButtonProps & { gate: ReactNode }) {
  return (
    <div className="flex flex-col gap-4" data-testid="purchase-offer">
      {gate}
      <div className="rounded-2xl border border-slate-200 bg-white p-6 shadow-sm">
        <h2 className="text-lg font-semibold text-ink">
          {gate ? 'Or buy it on its own' : buy.type === 'course' ? 'Buy this course' : 'Buy this item'}
        </h2>
        <p className="mt-1 text-slate-600">A one-time payment of {formatDollars(buy.price)}. It stays open to you whatever your plan.</p>
        <div className="mt-4">
          <BuyButton {...buy} />
        </div>
      </div>
    </div>
  );
}
