/**
 * The cancel confirmation's retention offer (issue 34): when the member opens it and staff have an
 * open retention offer for their plan that they have not used, a box says what staying costs
 * ("50% off your first payment: $5.00/month instead of $9.99") with a button that takes it. Nothing
 * shows while it loads, without an offer, or when it cannot be read: the confirmation stays as it is.
 */
import { useEffect, useState } from 'react';
import { formatCents } from '#shared/payments/display.ts';
import { acceptRetentionOffer, fetchRetentionOffer, type Subscription } from '../../lib/browser/payments/client.ts';

type Offer = NonNullable<Awaited<ReturnType<typeof loadOffer>>>;
const loadOffer = async (subscriptionId: string, signal: AbortSignal) => {
  const result = await fetchRetentionOffer(subscriptionId, signal);
  return result.ok ? result.data.offer : null;
};

const BUTTON = 'min-h-11 rounded-lg px-5 py-2.5 text-sm font-semibold disabled:opacity-60';

export function RetentionOffer({
  subscriptionId,
  open,
  onAccepted,
}: {
  subscriptionId: string;
  open: boolean;
  onAccepted: (s: Subscription) => void;
}) {
  const [offer, setOffer] = useState<Offer | null>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState(false);

  useEffect(() => {
    if (!open) return;
    const controller = new AbortController();
    loadOffer(subscriptionId, controller.signal)
      .then(setOffer)
      .catch(() => undefined); // aborted
    return () => controller.abort();
  }, [open, subscriptionId]);

  if (!offer) return null;
  const per = offer.interval === 'year' ? 'year' : 'month';

  async function accept(code: string) {
    setBusy(true);
    setError(false);
    const result = await acceptRetentionOffer(subscriptionId, code);
    setBusy(false);
    if (!result.ok) return setError(true);
    onAccepted(result.data.subscription);
  }

  return (
    <div className="mt-4 rounded-lg border border-emerald-200 bg-emerald-50 p-4 text-sm text-emerald-950" data-testid="retention-offer">
      <p className="font-semibold">Before you go: {offer.terms}.</p>
      <p className="mt-1">
        Stay for {formatCents(offer.discounted)}/{per} instead of {formatCents(offer.amount)}.
      </p>
      {error && (
        <p role="alert" className="mt-2 text-red-800">
          This offer could not be applied. You can still keep or cancel your plan.
        </p>
      )}
      <button
        type="button"
        onClick={() => void accept(offer.code)}
        disabled={busy}
        className={`${BUTTON} mt-3 bg-emerald-700 text-white hover:bg-emerald-800`}
      >
        {busy ? 'Applying…' : 'Stay with this offer'}
      </button>
    </div>
  );
}
