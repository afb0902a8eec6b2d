/**
 * The account page's loud notice when payments run in test mode (the embedded test provider, or a
 * Stripe test key): no real card is charged, so plans and purchases here are for trying the site.
 * `usePaymentMode` asks the public `GET /api/payments/mode` once per page; the account page waits for
 * its answer before it draws itself, so the notice never pushes the page down after the fact.
 */
import { useEffect, useState } from 'react';
import { fetchPaymentMode, type PaymentMode } from '../../lib/browser/payments/client.ts';

/** The payment mode (`known` when the page's server said it): undefined while it loads, null when it could not be read (no notice then). */
export function usePaymentMode(known?: PaymentMode): PaymentMode | null | undefined {
  const [mode, setMode] = useState<PaymentMode | null | undefined>(known);

  useEffect(() => {
    if (known) return;
    const controller = new AbortController();
    void fetchPaymentMode(controller.signal).then((found) => {
      if (!controller.signal.aborted) setMode(found);
    });
    return () => controller.abort();
  }, [known]);
  return mode;
}

export function TestModeNotice({ mode }: { mode: PaymentMode | null | undefined }) {
  if (mode !== 'test') return null;
  return (
    <div
      role="note"
      aria-label="Test mode"
      data-testid="test-mode-notice"
      className="rounded-2xl border-2 border-amber-400 bg-amber-100 px-6 py-4 text-amber-950"
    >
      <p className="font-bold uppercase tracking-wide">Test mode</p>
      <p className="mt-1 text-sm">
        Payments on this site run in test mode: no real card is charged and no real money moves. Plans and purchases here are for trying the
        site only.
      </p>
    </div>
  );
}
