/**
 * The Offers tab (issue 34, admins only): every offer with its terms, kind, plans, redemptions and
 * the revenue it brought, archived with one button; a form for a new one (code, percent or amount
 * off, once / N months / forever, sign-up or retention, plans, maximum, expiry); and each plan's free
 * trial days. The server checks every field again.
 */
import { useCallback, useEffect, useId, useState, type FormEvent } from 'react';
import { formatCents, formatPaymentDate } from '#shared/payments/display.ts';
import { OFFER_DURATIONS, type OfferDuration, type OfferKind } from '#shared/payments/offers.ts';
import { api, call, publicApi, type ApiData } from '../../lib/browser/api.ts';
import { toast } from '../../lib/browser/toast.ts';
import { INPUT_CLASS } from '../forms/TextField.tsx';

type Offer = ApiData<typeof api.offers.index.$get>[number];
const PLANS = ['price_subscriber_monthly', 'price_subscriber_yearly', 'price_premium_monthly', 'price_premium_yearly'] as const;
const PLAN_LABEL: Record<(typeof PLANS)[number], string> = {
  price_subscriber_monthly: 'Subscriber monthly',
  price_subscriber_yearly: 'Subscriber yearly',
  price_premium_monthly: 'Premium monthly',
  price_premium_yearly: 'Premium yearly',
};
const BUTTON = 'min-h-9 rounded-lg px-3 py-1.5 text-sm font-semibold disabled:opacity-60';
const LABEL = 'block text-xs font-medium text-slate-600';

const failed = (result: { kind: string; message?: string }) =>
  toast({
    title: 'Error',
    description: result.kind === 'error' && result.message ? result.message : 'The change was refused.',
    variant: 'destructive',
  });

function NewOffer({ onMade }: { onMade: () => void }) {
  const [code, setCode] = useState('');
  const [kind, setKind] = useState<OfferKind>('signup');
  const [off, setOff] = useState<'percent' | 'amount'>('percent');
  const [value, setValue] = useState('20');
  const [duration, setDuration] = useState<OfferDuration>('once');
  const [months, setMonths] = useState('3');
  const [plans, setPlans] = useState<string[]>([]);
  const [max, setMax] = useState('');
  const [expires, setExpires] = useState('');
  const [busy, setBusy] = useState(false);
  const ids = useId();

  async function submit(event: FormEvent) {
    event.preventDefault();
    setBusy(true);
    const body = {
      code,
      kind,
      duration,
      ...(off === 'percent' ? { percentOff: Number(value) } : { amountOff: Math.round(Number(value) * 100) }),
      ...(duration === 'repeating' ? { durationInMonths: Number(months) } : {}),
      ...(plans.length ? { priceIds: plans } : {}),
      ...(max ? { maxRedemptions: Number(max) } : {}),
      ...(expires ? { expiresAt: new Date(`${expires}T23:59:59Z`).toISOString() } : {}),
    };
    const result = await call((o) => api.offers.index.$post({}, o), { body });
    setBusy(false);
    if (!result.ok) return failed(result);
    toast({ title: 'Offer created', description: `${code.toUpperCase()} is live.` });
    setCode('');
    onMade();
  }

  return (
    <form
      onSubmit={(e) => void submit(e)}
      aria-label="New offer"
      className="grid gap-3 rounded-2xl bg-white p-5 shadow-sm ring-1 ring-slate-200 sm:grid-cols-4"
    >
      <div>
        <label htmlFor={`${ids}-code`} className={LABEL}>
          Code
        </label>
        <input
          id={`${ids}-code`}
          required
          className={INPUT_CLASS}
          value={code}
          onChange={(e) => setCode(e.target.value)}
          pattern="[A-Za-z0-9][A-Za-z0-9_-]{2,39}"
        />
      </div>
      <div>
        <label htmlFor={`${ids}-kind`} className={LABEL}>
          For
        </label>
        <select id={`${ids}-kind`} className={INPUT_CLASS} value={kind} onChange={(e) => setKind(e.target.value as OfferKind)}>
          <option value="signup">Sign-up</option>
          <option value="retention">Retention (at cancel)</option>
        </select>
      </div>
      <div>
        <label htmlFor={`${ids}-off`} className={LABEL}>
          Discount
        </label>
        <select id={`${ids}-off`} className={INPUT_CLASS} value={off} onChange={(e) => setOff(e.target.value as 'percent' | 'amount')}>
          <option value="percent">Percent off</option>
          <option value="amount">Amount off (USD)</option>
        </select>
      </div>
      <div>
        <label htmlFor={`${ids}-value`} className={LABEL}>
          {off === 'percent' ? 'Percent (1-99)' : 'Amount in dollars'}
        </label>
        <input
          id={`${ids}-value`}
          required
          inputMode="decimal"
          className={INPUT_CLASS}
          value={value}
          onChange={(e) => setValue(e.target.value)}
        />
      </div>
      <div>
        <label htmlFor={`${ids}-duration`} className={LABEL}>
          Duration
        </label>
        <select
          id={`${ids}-duration`}
          className={INPUT_CLASS}
          value={duration}
          onChange={(e) => setDuration(e.target.value as OfferDuration)}
        >
          {OFFER_DURATIONS.map((d) => (
            <option key={d} value={d}>
              {d === 'once' ? 'First payment' : d === 'repeating' ? 'Some months' : 'Forever'}
            </option>
          ))}
        </select>
      </div>
      {duration === 'repeating' && (
        <div>
          <label htmlFor={`${ids}-months`} className={LABEL}>
            Months
          </label>
          <input
            id={`${ids}-months`}
            inputMode="numeric"
            className={INPUT_CLASS}
            value={months}
            onChange={(e) => setMonths(e.target.value)}
          />
        </div>
      )}
      <div>
        <label htmlFor={`${ids}-max`} className={LABEL}>
          Maximum redemptions (empty: no limit)
        </label>
        <input id={`${ids}-max`} inputMode="numeric" className={INPUT_CLASS} value={max} onChange={(e) => setMax(e.target.value)} />
      </div>
      <div>
        <label htmlFor={`${ids}-expires`} className={LABEL}>
          Ends (empty: never)
        </label>
        <input id={`${ids}-expires`} type="date" className={INPUT_CLASS} value={expires} onChange={(e) => setExpires(e.target.value)} />
      </div>
      <fieldset className="sm:col-span-4">
        <legend className={LABEL}>Plans (none checked: every plan)</legend>
        <div className="mt-1 flex flex-wrap gap-4 text-sm">
          {PLANS.map((p) => (
            <label key={p} className="flex items-center gap-2">
              <input
                type="checkbox"
                checked={plans.includes(p)}
                onChange={(e) => setPlans(e.target.checked ? [...plans, p] : plans.filter((x) => x !== p))}
              />
              {PLAN_LABEL[p]}
            </label>
          ))}
        </div>
      </fieldset>
      <button type="submit" disabled={busy} className={`${BUTTON} bg-brand-600 text-white hover:bg-brand-700 sm:col-span-1`}>
        Create offer
      </button>
    </form>
  );
}

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
    const result = await call((o) => api.offers.trials[':priceId'].$put({ param: { priceId } }, o), { body: { days } });
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
