/**
 * The account page's purchases (beyond the spec: one-time purchases of priced market items and
 * courses): each title links to its item, with the amount and the date. Hidden when there are none,
 * and while they load or if they cannot be read (the items stay open on their own pages).
 */
import { startTransition, useEffect, useState } from 'react';
import { fetchPurchases, purchasePath, type Purchase } from '../../lib/browser/payments/client.ts';
import { formatCents, formatPaymentDate } from '#shared/payments/display.ts';

export function PurchasesCard({ className }: { className: string }) {
  const [purchases, setPurchases] = useState<Purchase[]>([]);

  useEffect(() => {
    const controller = new AbortController();
    fetchPurchases(controller.signal)
      .then((result) => {
        if (result.ok) startTransition(() => setPurchases(result.data.purchases));
      })
      .catch(() => undefined); // aborted
    return () => controller.abort();
  }, []);

  if (purchases.length === 0) return null;
  return (
    <section aria-labelledby="purchases-heading" className={className}>
      <h2 id="purchases-heading" className="text-lg font-semibold text-slate-900">
        Purchases
      </h2>
      <ul className="mt-4 divide-y divide-slate-100">
        {purchases.map((p) => (
          <li key={`${p.type}:${p.slug}`} className="flex flex-wrap items-baseline justify-between gap-x-4 gap-y-1 py-3">
            <a href={purchasePath(p.type, p.slug)} className="font-semibold text-brand-700 hover:underline">
              {p.title}
            </a>
            <span className="text-sm text-slate-600">
              {formatCents(p.amount)} · <time dateTime={p.purchasedAt}>{formatPaymentDate(p.purchasedAt)}</time>
            </span>
          </li>
        ))}
      </ul>
    </section>
  );
}
