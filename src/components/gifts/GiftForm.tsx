/**
 * The /gift page's form (issue 34): 1, 3, 6 or 12 months of Subscriber or Premium for someone else,
 * paid once, with the recipient's address and name, a message and the day their mail goes out. A
 * visitor signs in first (and comes back here); a member goes to the checkout. The price shown is the
 * one charged (#shared/payments/gifts.ts); the server checks every field again.
 */
import { useId, useState, type FormEvent } from 'react';
import { formatCents } from '#shared/payments/display.ts';
import { GIFT_MESSAGE_MAX, GIFT_MONTHS, giftPriceCents, type GiftLevel, type GiftMonths } from '#shared/payments/gifts.ts';
import { api, call, storedSession } from '../../lib/browser/api.ts';
import { CHECKOUT_FAILED, goToCheckout } from '../../lib/browser/payments/checkout.ts';
import { useHydrated } from '../content/gated/use-viewer.ts';
import { INPUT_CLASS, SUBMIT_CLASS } from '../forms/TextField.tsx';

const LABEL = 'block text-sm font-medium text-slate-700';

/** Who the gift is for, from whom, with what message, and when their mail goes out (YYYY-MM-DD). */
type GiftNote = { email: string; name: string; from: string; message: string; date: string };
const NO_NOTE: GiftNote = { email: '', name: '', from: '', message: '', date: '' };
type SetNote = <K extends keyof GiftNote>(key: K, value: GiftNote[K]) => void;

export default function GiftForm() {
  const [level, setLevel] = useState<GiftLevel>('premium');
  const [months, setMonths] = useState<GiftMonths>(3);
  const [note, setNote] = useState<GiftNote>(NO_NOTE);
  const { email, name, from, message, date } = note;
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState('');
  const ready = useHydrated();
  const ids = useId();
  const set: SetNote = (key, value) => setNote((n) => ({ ...n, [key]: value }));
  const price = formatCents(giftPriceCents(level, months));

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (!storedSession()) return window.location.assign(`/signin?redirect=${encodeURIComponent('/gift')}`);
    setBusy(true);
    setError('');
    const body = {
      accessLevel: level,
      months,
      recipientEmail: email,
      ...(name.trim() ? { recipientName: name.trim() } : {}),
      ...(from.trim() ? { fromName: from.trim() } : {}),
      ...(message.trim() ? { message: message.trim() } : {}),
      ...(date ? { deliverAt: new Date(`${date}T09:00:00Z`).toISOString() } : {}),
      successUrl: '/account?gift=sent',
      cancelUrl: '/gift',
    };
    const result = await call((o) => api.gifts.index.$post({ json: body }, o));
    if (result.ok) {
      const outcome = await goToCheckout(result.data).catch(() => 'failed' as const);
      if (outcome === 'left') return;
    } else if (result.kind === 'signed-out') return window.location.assign(`/signin?redirect=${encodeURIComponent('/gift')}`);
    setBusy(false);
    setError(!result.ok && result.kind === 'error' ? result.message : CHECKOUT_FAILED);
  }

  return (
    <form
      onSubmit={(e) => void submit(e)}
      aria-label="Gift a membership"
      className="space-y-6 rounded-3xl border border-slate-200 bg-white p-8 shadow-sm"
    >
      {/* Disabled as the server renders it: what is typed before the island runs would be lost at hydration. */}
      <fieldset disabled={!ready} className="space-y-6">
        <GiftChoice ids={ids} level={level} months={months} onLevel={setLevel} onMonths={setMonths} />
        <RecipientFields ids={ids} note={note} set={set} />
        {error && (
          <p role="alert" className="rounded-lg border border-red-200 bg-red-50 px-4 py-3 text-sm text-red-800">
            {error}
          </p>
        )}
        <button type="submit" disabled={busy} className={SUBMIT_CLASS}>
          {busy ? 'Processing...' : `Buy the gift for ${price}`}
        </button>
        <p className="text-sm text-slate-600">One payment, no renewal. The recipient has a year to redeem it.</p>
      </fieldset>
    </form>
  );
}

type GiftChoiceProps = {
  ids: string;
  level: GiftLevel;
  months: GiftMonths;
  onLevel: (level: GiftLevel) => void;
  onMonths: (months: GiftMonths) => void;
};

/** The membership given and for how long, each length with its price. */
function GiftChoice({ ids, level, months, onLevel, onMonths }: GiftChoiceProps) {
  return (
    <>
      <fieldset>
        <legend className={LABEL}>Membership</legend>
        <div className="mt-2 flex flex-wrap gap-4">
          {(['subscriber', 'premium'] as const).map((l) => (
            <label key={l} className="flex items-center gap-2 text-slate-800">
              <input type="radio" name="level" value={l} checked={level === l} onChange={() => onLevel(l)} />
              {l === 'premium' ? 'Premium' : 'Subscriber'}
            </label>
          ))}
        </div>
      </fieldset>
      <div>
        <label htmlFor={`${ids}-months`} className={LABEL}>
          Length
        </label>
        <select
          id={`${ids}-months`}
          className={INPUT_CLASS}
          value={months}
          onChange={(e) => onMonths(Number(e.target.value) as GiftMonths)}
        >
          {GIFT_MONTHS.map((m) => (
            <option key={m} value={m}>
              {m === 1 ? '1 month' : `${m} months`} ({formatCents(giftPriceCents(level, m))})
            </option>
          ))}
        </select>
      </div>
    </>
  );
}

/** The recipient's address and name, the giver's name and message, and the day the mail goes out. */
function RecipientFields({ ids, note: { email, name, from, message, date }, set }: { ids: string; note: GiftNote; set: SetNote }) {
  return (
    <>
      <div className="grid gap-4 sm:grid-cols-2">
        <div>
          <label htmlFor={`${ids}-email`} className={LABEL}>
            Recipient&apos;s email
          </label>
          <input
            id={`${ids}-email`}
            type="email"
            required
            className={INPUT_CLASS}
            value={email}
            onChange={(e) => set('email', e.target.value)}
          />
        </div>
        <div>
          <label htmlFor={`${ids}-name`} className={LABEL}>
            Recipient&apos;s name (optional)
          </label>
          <input id={`${ids}-name`} maxLength={100} className={INPUT_CLASS} value={name} onChange={(e) => set('name', e.target.value)} />
        </div>
      </div>
      <div>
        <label htmlFor={`${ids}-from`} className={LABEL}>
          Your name, as they will see it (optional: else your account&apos;s name)
        </label>
        <input id={`${ids}-from`} maxLength={100} className={INPUT_CLASS} value={from} onChange={(e) => set('from', e.target.value)} />
      </div>
      <div>
        <label htmlFor={`${ids}-message`} className={LABEL}>
          Your message (optional)
        </label>
        <textarea
          id={`${ids}-message`}
          rows={4}
          maxLength={GIFT_MESSAGE_MAX}
          className={INPUT_CLASS}
          value={message}
          onChange={(e) => set('message', e.target.value)}
        />
      </div>
      <div>
        <label htmlFor={`${ids}-date`} className={LABEL}>
          Send it on (empty: as soon as you pay)
        </label>
        <input id={`${ids}-date`} type="date" className={INPUT_CLASS} value={date} onChange={(e) => set('date', e.target.value)} />
      </div>
    </>
  );
}
