/**
 * The account page's gifts (issue 34): the memberships the member gave, each with its recipient and
 * where it stands (waiting for payment, to be sent on a date, sent and not yet redeemed, redeemed,
 * expired), with its link while it can still be redeemed. Hidden when there are none (and while they
 * load), like the purchases card below it.
 */
import { startTransition, useEffect, useState } from 'react';
import { formatCents, formatPaymentDate } from '#shared/payments/display.ts';
import { giftName, type GiftLevel, type GiftMonths } from '#shared/payments/gifts.ts';
import { api, call, type ApiData } from '../../lib/browser/api.ts';

type Gift = ApiData<typeof api.myGifts.index.$get>[number];

function stateOf(g: Gift): string {
  if (g.state === 'awaiting_payment') return 'Waiting for payment';
  if (g.state === 'scheduled') return `To be sent on ${formatPaymentDate(g.deliverAt)}`;
  if (g.state === 'delivered') return `Sent on ${formatPaymentDate(g.deliverAt)}, not yet redeemed`;
  if (g.state === 'redeemed') return `Redeemed on ${formatPaymentDate(g.redeemedAt!)}`;
  return 'Expired without being redeemed';
}

export function GiftsCard({ className }: { className: string }) {
  const [gifts, setGifts] = useState<Gift[]>([]);

  useEffect(() => {
    const controller = new AbortController();
    call((o) => api.myGifts.index.$get({}, o), { signal: controller.signal })
      .then((result) => {
        if (result.ok) startTransition(() => setGifts(result.data));
      })
      .catch(() => undefined); // aborted
    return () => controller.abort();
  }, []);

  if (gifts.length === 0) return null;
  return (
    <section aria-labelledby="gifts-heading" className={className}>
      <h2 id="gifts-heading" className="text-lg font-semibold text-slate-900">
        Gifts you gave
      </h2>
      <ul className="mt-4 divide-y divide-slate-100">
        {gifts.map((g) => (
          <li key={g.id} className="py-3 text-sm">
            <p className="font-semibold text-slate-900">
              {giftName(g.accessLevel as GiftLevel, g.months as GiftMonths)} for {g.recipientEmail} · {formatCents(g.amount)}
            </p>
            <p className="text-slate-600" data-testid="gift-state">
              {stateOf(g)}
              {g.redeemUrl && (
                <>
                  {' · '}
                  <a href={g.redeemUrl} className="font-semibold text-brand-700 hover:underline">
                    Redeem link
                  </a>
                </>
              )}
            </p>
          </li>
        ))}
      </ul>
    </section>
  );
}
