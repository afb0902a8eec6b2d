/**
 * The Offers tab's form for a new offer (OffersPanel.tsx): its code, sign-up or retention, percent
 * or amount off, for the first payment, some months or forever, the plans it applies to, a maximum
 * and an end date. The server checks every field again.
 */
import { useId, useState, type FormEvent } from 'react';
import { OFFER_DURATIONS, type OfferDuration, type OfferKind } from '#shared/payments/offers.ts';
import { api, call } from '../../lib/browser/api.ts';
import { toast } from '../../lib/browser/toast.ts';
import { INPUT_CLASS } from '../forms/TextField.tsx';

export const PLANS = ['price_subscriber_monthly', 'price_subscriber_yearly', 'price_premium_monthly', 'price_premium_yearly'] as const;
export const PLAN_LABEL: Record<(typeof PLANS)[number], string> = {
  price_subscriber_monthly: 'Subscriber monthly',
  price_subscriber_yearly: 'Subscriber yearly',
  price_premium_monthly: 'Premium monthly',
  price_premium_yearly: 'Premium yearly',
};
export const BUTTON = 'min-h-9 rounded-lg px-3 py-1.5 text-sm font-semibold disabled:opacity-60';
export const LABEL = 'block text-xs font-medium text-slate-600';

/** The toast for a change the server refused. */
export const failed = (result: { kind: string; message?: string }) =>
  toast({
    title: 'Error',
    description: result.kind === 'error' && result.message ? result.message : 'The change was refused.',
    variant: 'destructive',
  });

/** The form's fields, as typed. */
type OfferDraft = {
  code: string;
  kind: OfferKind;
  off: 'percent' | 'amount';
  value: string;
  duration: OfferDuration;
  months: string;
  plans: string[];
  max: string;
  expires: string;
};
const FRESH: OfferDraft = {
  code: '',
  kind: 'signup',
  off: 'percent',
  value: '20',
  duration: 'once',
  months: '3',
  plans: [],
  max: '',
  expires: '',
};
/** Sets one field of the draft. */
type SetDraft = <K extends keyof OfferDraft>(key: K, value: OfferDraft[K]) => void;
type FieldsProps = { ids: string; draft: OfferDraft; set: SetDraft };

export function NewOffer({ onMade }: { onMade: () => void }) {
  const [draft, setDraft] = useState<OfferDraft>(FRESH);
  const [busy, setBusy] = useState(false);
  const ids = useId();
  const set: SetDraft = (key, value) => setDraft((d) => ({ ...d, [key]: value }));
  const { code, kind, off, value, duration, months, plans, max, expires } = draft;

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
    const result = await call((o) => api.offers.index.$post({ json: body }, o));
    setBusy(false);
    if (!result.ok) return failed(result);
    toast({ title: 'Offer created', description: `${code.toUpperCase()} is live.` });
    set('code', '');
    onMade();
  }

  return (
    <form
      onSubmit={(e) => void submit(e)}
      aria-label="New offer"
      className="grid gap-3 rounded-2xl bg-white p-5 shadow-sm ring-1 ring-slate-200 sm:grid-cols-4"
    >
      <AudienceFields ids={ids} draft={draft} set={set} />
      <DiscountFields ids={ids} draft={draft} set={set} />
      <LimitFields ids={ids} draft={draft} set={set} />
      <button type="submit" disabled={busy} className={`${BUTTON} bg-brand-600 text-white hover:bg-brand-700 sm:col-span-1`}>
        Create offer
      </button>
    </form>
  );
}

/** Its code and whom it is for (sign-up or retention). */
function AudienceFields({ ids, draft: { code, kind }, set }: FieldsProps) {
  return (
    <>
      <div>
        <label htmlFor={`${ids}-code`} className={LABEL}>
          Code
        </label>
        <input
          id={`${ids}-code`}
          required
          className={INPUT_CLASS}
          value={code}
          onChange={(e) => set('code', e.target.value)}
          pattern="[A-Za-z0-9][A-Za-z0-9_-]{2,39}"
        />
      </div>
      <div>
        <label htmlFor={`${ids}-kind`} className={LABEL}>
          For
        </label>
        <select id={`${ids}-kind`} className={INPUT_CLASS} value={kind} onChange={(e) => set('kind', e.target.value as OfferKind)}>
          <option value="signup">Sign-up</option>
          <option value="retention">Retention (at cancel)</option>
        </select>
      </div>
    </>
  );
}

/** How much it takes off, and for how long. */
function DiscountFields({ ids, draft: { off, value, duration, months }, set }: FieldsProps) {
  return (
    <>
      <div>
        <label htmlFor={`${ids}-off`} className={LABEL}>
          Discount
        </label>
        <select id={`${ids}-off`} className={INPUT_CLASS} value={off} onChange={(e) => set('off', e.target.value as 'percent' | 'amount')}>
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
          onChange={(e) => set('value', e.target.value)}
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
          onChange={(e) => set('duration', e.target.value as OfferDuration)}
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
            onChange={(e) => set('months', e.target.value)}
          />
        </div>
      )}
    </>
  );
}

/** How often and until when it can be redeemed, and on which plans. */
function LimitFields({ ids, draft: { max, expires, plans }, set }: FieldsProps) {
  return (
    <>
      <div>
        <label htmlFor={`${ids}-max`} className={LABEL}>
          Maximum redemptions (empty: no limit)
        </label>
        <input id={`${ids}-max`} inputMode="numeric" className={INPUT_CLASS} value={max} onChange={(e) => set('max', e.target.value)} />
      </div>
      <div>
        <label htmlFor={`${ids}-expires`} className={LABEL}>
          Ends (empty: never)
        </label>
        <input id={`${ids}-expires`} type="date" className={INPUT_CLASS} value={expires} onChange={(e) => set('expires', e.target.value)} />
      </div>
      <fieldset className="sm:col-span-4">
        <legend className={LABEL}>Plans (none checked: every plan)</legend>
        <div className="mt-1 flex flex-wrap gap-4 text-sm">
          {PLANS.map((p) => (
            <label key={p} className="flex items-center gap-2">
              <input
                type="checkbox"
                checked={plans.includes(p)}
                onChange={(e) => set('plans', e.target.checked ? [...plans, p] : plans.filter((x) => x !== p))}
              />
              {PLAN_LABEL[p]}
            </label>
          ))}
        </div>
      </fieldset>
    </>
  );
}
