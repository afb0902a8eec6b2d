/**
 * The gift's redeem page (issue 34): /gift/redeem?code=… says what the gift is, from whom, with the
 * giver's message; a visitor signs up (or in) and comes back here; a member redeems it once. A member
 * whose subscription runs is told their gift starts when their paid access ends.
 */
import { useEffect, useState } from 'react';
import { formatPaymentDate } from '#shared/payments/display.ts';
import { giftName, type GiftLevel, type GiftMonths } from '#shared/payments/gifts.ts';
import { api, call, publicApi, storedSession } from '../../lib/browser/api.ts';
import { SUBMIT_CLASS } from '../forms/TextField.tsx';

type Preview = {
  accessLevel: GiftLevel;
  months: number;
  from: string;
  recipientName: string | null;
  message: string | null;
  state: string;
};
type Outcome = { waiting: boolean; endsAt: string | null } | { error: string };

export default function GiftRedeem() {
  const [code] = useState(() => new URLSearchParams(window.location.search).get('code') ?? '');
  const [gift, setGift] = useState<Preview | null | undefined>(undefined);
  const [busy, setBusy] = useState(false);
  const [outcome, setOutcome] = useState<Outcome | null>(null);
  const back = `/gift/redeem?code=${encodeURIComponent(code)}`;

  useEffect(() => {
    void publicApi.gifts[':code']
      .$get({ param: { code } })
      .then(async (res) => setGift(res.ok ? ((await res.json()) as Preview) : null))
      .catch(() => setGift(null));
  }, [code]);

  async function redeem() {
    setBusy(true);
    const result = await call((o) => api.gifts[':code'].redeem.$post({ param: { code } }, o));
    setBusy(false);
    if (result.ok) return setOutcome({ waiting: result.data.waiting, endsAt: result.data.endsAt });
    if (result.kind === 'signed-out') return window.location.assign(`/signin?redirect=${encodeURIComponent(back)}`);
    setOutcome({ error: result.kind === 'error' ? result.message : 'The gift could not be redeemed. Please try again.' });
  }

  if (gift === undefined)
    return (
      <p role="status" className="text-slate-600">
        Loading your gift...
      </p>
    );
  if (gift === null)
    return (
      <p role="alert" className="text-slate-700">
        This gift link is not valid. Check the link in your mail, or ask the person who sent it.
      </p>
    );
  const what = giftName(gift.accessLevel, gift.months as GiftMonths);
  return (
    <div className="space-y-6 rounded-3xl border border-slate-200 bg-white p-8 shadow-sm">
      <p className="text-xl font-semibold text-ink" data-testid="gift-what">
        {gift.from} gave you {what}
      </p>
      {gift.message && (
        <blockquote className="whitespace-pre-line border-l-4 border-brand-600 pl-4 text-slate-700">{gift.message}</blockquote>
      )}
      {outcome && 'error' in outcome && (
        <p role="alert" className="rounded-lg border border-red-200 bg-red-50 px-4 py-3 text-sm text-red-800">
          {outcome.error}
        </p>
      )}
      <RedeemState gift={gift} what={what} outcome={outcome} busy={busy} back={back} onRedeem={() => void redeem()} />
    </div>
  );
}

type RedeemStateProps = {
  gift: Preview;
  /** The gift in words ("3 months of Premium, …"). */
  what: string;
  outcome: Outcome | null;
  busy: boolean;
  /** This page's address, to come back to after signing up or in. */
  back: string;
  onRedeem: () => void;
};

/** Redeemed (and from when), already redeemed, expired, Redeem your gift, or the way to an account first. */
function RedeemState({ gift, what, outcome, busy, back, onRedeem }: RedeemStateProps) {
  return outcome && !('error' in outcome) ? (
    <p role="status" className="rounded-lg border border-emerald-200 bg-emerald-50 px-4 py-3 text-emerald-900" data-testid="gift-redeemed">
      {outcome.waiting
        ? `Redeemed. Your gift starts the day your current paid access ends, so you never pay for the same days twice.`
        : `Redeemed. ${what.split(',')[0]} is yours${outcome.endsAt ? ` until ${formatPaymentDate(outcome.endsAt)}` : ''}.`}{' '}
      <a href="/account" className="font-semibold underline">
        Go to your account
      </a>
    </p>
  ) : gift.state === 'redeemed' ? (
    <p className="text-slate-700">This gift has already been redeemed.</p>
  ) : gift.state === 'expired' ? (
    <p className="text-slate-700">This gift has expired: it was not redeemed within a year.</p>
  ) : storedSession() ? (
    <button type="button" onClick={onRedeem} disabled={busy} className={SUBMIT_CLASS}>
      {busy ? 'Redeeming...' : 'Redeem your gift'}
    </button>
  ) : (
    <p className="text-slate-700">
      <a href={`/signup?redirect=${encodeURIComponent(back)}`} className="font-semibold text-brand-700 underline">
        Create a free account
      </a>{' '}
      or{' '}
      <a href={`/signin?redirect=${encodeURIComponent(back)}`} className="font-semibold text-brand-700 underline">
        sign in
      </a>{' '}
      to redeem your gift.
    </p>
  );
}
