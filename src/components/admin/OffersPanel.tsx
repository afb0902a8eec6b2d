/**
 * The Offers tab (issue 34, admins only): every offer with its terms, kind, plans, redemptions and
 * the revenue it brought, archived with one button; a form for a new one (code, percent or amount
 * off, once / N months / forever, sign-up or retention, plans, maximum, expiry); and each plan's free
 * trial days. The server checks every field again.
 */
import { useCallback, useEffect, useState } from 'react';
import { formatCents, formatPaymentDate } from '#shared/payments/display.ts';
import { api, call, publicApi, type ApiData } from '../../lib/browser/api.ts';
import { toast } from '../../lib/browser/toast.ts';
import { INPUT_CLASS } from '../forms/TextField.tsx';
import { BUTTON, failed, LABEL, NewOffer, PLAN_LABEL, PLANS } from './NewOffer.tsx';

type Offer = ApiData<typeof api.offers.index.$get>[number];

function Trials() {
  const [trials, setTrials] = useState<Record<string, number> | null>(null);
  useEffect(() => {
    void publicApi.payments.trials
      .$get({})
      .then((r) => (r.ok ? r.json() : null))
      .then((body) => setTrials(body?.trials ?? {}))
      .catch(() => setTrials({}));
  }, []);
  async function save(priceId: string, days: number) {
    const result = await call((o) => api.offers.trials[':priceId'].$put({ param: { priceId }, json: { days } }, o));
    if (!result.ok) return failed(result);
    setTrials(result.data);
    toast({
      title: 'Trial saved',
      description: `${PLAN_LABEL[priceId as (typeof PLANS)[number]]}: ${days ? `${days} days` : 'no trial'}.`,
    });
  }
  if (!trials) return null;
  return (
    <section aria-labelledby="trials-heading" className="rounded-2xl bg-white p-5 shadow-sm ring-1 ring-slate-200">
      <h3 id="trials-heading" className="font-semibold text-slate-900">
        Free trials
      </h3>
      <p className="mt-1 text-sm text-slate-600">
        Days before the first charge, for a member&apos;s first subscription ever. A sign-up offer replaces the trial.
      </p>
      <ul className="mt-3 grid gap-3 sm:grid-cols-4">
        {PLANS.map((p) => (
          <li key={p}>
            <label className={LABEL}>
              {PLAN_LABEL[p]} (days)
              <input
                type="number"
                min={0}
                max={90}
                defaultValue={trials[p] ?? 0}
                className={INPUT_CLASS}
                onBlur={(e) => {
                  const days = Number(e.target.value);
                  if (days !== (trials[p] ?? 0)) void save(p, days);
                }}
              />
            </label>
          </li>
        ))}
      </ul>
    </section>
  );
}

export function OffersPanel() {
  const [offers, setOffers] = useState<Offer[] | null>(null);
  const [round, setRound] = useState(0);
  const reload = useCallback(() => setRound((n) => n + 1), []);

  useEffect(() => {
    const controller = new AbortController();
    call((o) => api.offers.index.$get({}, o), { signal: controller.signal })
      .then((result) => result.ok && setOffers(result.data))
      .catch(() => undefined); // aborted
    return () => controller.abort();
  }, [round]);

  async function archive(offer: Offer) {
    const result = await call((o) => api.offers[':id'].$delete({ param: { id: offer.id } }, o));
    if (!result.ok) return failed(result);
    toast({ title: 'Offer archived', description: `${offer.code} takes no new redemptions.` });
    reload();
  }

  return (
    <div className="space-y-6">
      <NewOffer onMade={reload} />
      <Trials />
      {offers === null ? (
        <p role="status" className="text-slate-600">
          Loading offers...
        </p>
      ) : offers.length === 0 ? (
        <p className="text-slate-600">No offers yet.</p>
      ) : (
        <ul aria-label="Offers" className="space-y-3">
          {offers.map((o) => (
            <li key={o.id} aria-label={o.code} className="rounded-2xl bg-white p-5 shadow-sm ring-1 ring-slate-200">
              <div className="flex flex-wrap items-baseline justify-between gap-2">
                <p className="font-semibold text-slate-900">
                  {o.code} · {o.kind === 'signup' ? 'Sign-up' : 'Retention'} · {o.terms}
                </p>
                {!o.archived && (
                  <button
                    type="button"
                    onClick={() => void archive(o)}
                    className={`${BUTTON} text-red-700 ring-1 ring-red-200 hover:bg-red-50`}
                  >
                    Archive
                  </button>
                )}
              </div>
              <p className="mt-1 text-sm text-slate-600" data-testid="offer-stats">
                {o.redeemed} redeemed{o.maxRedemptions ? ` of ${o.maxRedemptions}` : ''} · {formatCents(o.revenue)} revenue ·{' '}
                {o.archived ? 'archived' : o.open ? 'open' : 'closed'}
                {o.expiresAt ? ` · ends ${formatPaymentDate(o.expiresAt)}` : ''}
                {o.priceIds ? ` · ${o.priceIds.map((p) => PLAN_LABEL[p as (typeof PLANS)[number]] ?? p).join(', ')}` : ' · every plan'}
              </p>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
