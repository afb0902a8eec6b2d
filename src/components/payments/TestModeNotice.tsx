/**
 * The account page's loud notice when payments run in test mode (the embedded test provider, or a
 * Stripe test key): no real card is charged, so plans and purchases here are for trying the site.
 * Asks the public `GET /api/payments/mode` once per page; shows nothing in live mode or while it loads.
 */
import { useEffect, useState } from 'react';
import { fetchPaymentMode, type PaymentMode } from '../../lib/browser/payments/client.ts';

export function TestModeNotice() {
  const [mode, setMode] = useState<PaymentMode | null>(null);

  useEffect(() => {
    const controller = new AbortController();
    void fetchPaymentMode(controller.signal).then((found) => {
      if (!controller.signal.aborted) setMode(found);
    });
    return () => controller.abort();
  }, []);

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
