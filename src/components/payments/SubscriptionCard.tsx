/**
 * The account page's subscription card in every state of spec point 4: a spinner while the profile
 * or the subscription loads; the signed-out prompt; 'Error Loading Subscription' with Retry (reloads
 * the page); 'No Active Subscription' without a customer id or a subscription; else the details
 * (plan, amount, interval, status badge, the date, the amber notice while canceling), Cancel
 * Subscription (active and not canceling; it asks first and says until when access lasts;
 * afterwards the subscription is read again and the profile refreshed) and Manage Subscription (the
 * provider's portal). Beyond the spec: a change held for the period end reads 'Changes to {Tier}
 * on {date}' with 'Keep {current}' to withdraw it.
 * Every state of one card, in the order the spec lists them; the details' parts are in
 * SubscriptionDetails.tsx.
 */
import { startTransition, useCallback, useEffect, useId, useRef, useState, type ReactNode } from 'react';
import { refreshProfile, type AuthState } from '../../lib/browser/auth/client.ts';
import { ByPlan, type AccountGuess } from '../auth/account-guess.tsx';
import { BUTTON, CancelDialog, PlanActions, PlanFacts, ScheduledChange } from './SubscriptionDetails.tsx';
import { Reserved } from '../content/gated/LoadStates.tsx';
import {
  cancelSubscription,
  changePlan,
  createPortalSession,
  fetchSubscription,
  type Subscription,
} from '../../lib/browser/payments/client.ts';
import { cancelNotice, formatPaymentDate, isCanceling } from '#shared/payments/display.ts';

export const CANCEL_FAILED = 'Failed to cancel subscription. Please try again.';
export const PORTAL_FAILED = 'Failed to open subscription management portal. Please try again.';
export const KEEP_FAILED = 'Failed to keep your current plan. Please try again.';

type Loaded = { customerId: string; result: 'error' | { subscription: Subscription | null } };

const NO_SUBSCRIPTION = <p className="mt-4 text-slate-600">No Active Subscription</p>;

function Spinner() {
  return (
    <div className="mt-4 flex justify-center" role="status">
      <span className="h-6 w-6 animate-spin rounded-full border-4 border-brand-200 border-t-brand-600" />
      <span className="sr-only">Loading your subscription…</span>
    </div>
  );
}

function LoadError() {
  return (
    <div role="alert" className="mt-4 rounded-lg border border-red-200 bg-red-50 p-4">
      <h3 className="font-semibold text-red-900">Error Loading Subscription</h3>
      <p className="mt-1 text-sm text-red-800">Failed to load subscription information.</p>
      <button
        type="button"
        onClick={() => window.location.reload()}
        className={`${BUTTON} mt-3 bg-white text-red-800 ring-1 ring-inset ring-red-300 hover:bg-red-100`}
      >
        Retry
      </button>
    </div>
  );
}

type DetailsProps = { subscription: Subscription; customerId: string; onChanged: (s: Subscription) => void };

/** The plan's details and what the member can do with it: manage it, cancel it, keep it over a held change. */
function Details({ subscription, customerId, onChanged }: DetailsProps) {
  const [busy, setBusy] = useState<'cancel' | 'portal' | 'keep' | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [confirming, setConfirming] = useState(false);
  const confirmDialog = useRef<HTMLDialogElement>(null);
  const id = useId();
  const date = formatPaymentDate(subscription.currentPeriodEnd);
  const scheduled = subscription.scheduledChange;

  async function cancel() {
    setBusy('cancel');
    setError(null);
    const result = await cancelSubscription(subscription.subscriptionId);
    setBusy(null);
    confirmDialog.current?.close();
    if (!result.ok) return setError(CANCEL_FAILED);
    onChanged(result.data.subscription);
  }

  /** Withdraws the change held for the period end: the current plan again. */
  async function keep() {
    if (!subscription.priceId) return;
    setBusy('keep');
    setError(null);
    const result = await changePlan(subscription.subscriptionId, subscription.priceId);
    setBusy(null);
    if (!result.ok) return setError(KEEP_FAILED);
    onChanged(result.data.subscription);
  }

  async function manage() {
    setBusy('portal');
    setError(null);
    const result = await createPortalSession(customerId);
    if (result.ok) return window.location.assign(result.data.url); // stays busy while the page changes
    setBusy(null);
    setError(PORTAL_FAILED);
  }

  return (
    <div className="mt-4 space-y-4" data-testid="subscription-details">
      <PlanFacts subscription={subscription} date={date} />
      {isCanceling(subscription) && (
        <p className="rounded-lg border border-amber-300 bg-amber-50 p-3 text-sm text-amber-900">{cancelNotice(date)}</p>
      )}
      {scheduled && !isCanceling(subscription) && (
        <ScheduledChange subscription={subscription} scheduled={scheduled} busy={busy} onKeep={() => void keep()} />
      )}
      {error && (
        <p role="alert" className="rounded-lg border border-red-200 bg-red-50 p-3 text-sm text-red-800">
          {error}
        </p>
      )}
      <PlanActions
        subscription={subscription}
        busy={busy}
        onManage={() => void manage()}
        onAskCancel={() => {
          setConfirming(true);
          confirmDialog.current?.showModal();
        }}
      />
      <CancelDialog
        id={id}
        dialog={confirmDialog}
        subscription={subscription}
        date={date}
        open={confirming}
        canceling={busy === 'cancel'}
        onClose={() => setConfirming(false)}
        onChanged={onChanged}
        onCancel={() => void cancel()}
      />
    </div>
  );
}

/** An active, renewing plan (the likeliest), drawn invisibly while a member's subscription loads. */
const LOADING_PLAN = (
  <Reserved label="Loading your subscription…">
    <Details
      subscription={{
        subscriptionId: '',
        status: 'active',
        cancelAtPeriodEnd: false,
        currentPeriodEnd: '2026-01-01T00:00:00.000Z',
        plan: { name: 'Subscriber', amount: 999, interval: 'month' },
        priceId: null,
        scheduledChange: null,
      }}
      customerId=""
      onChanged={() => undefined}
    />
  </Reserved>
);

export function SubscriptionCard({ auth, className }: { auth: AuthState; className: string }) {
  const profile = auth.status === 'signed-in' ? auth.profile : undefined;
  const customerId = profile?.customerId ?? null;
  const [loaded, setLoaded] = useState<Loaded | null>(null);
  const [attempt, setAttempt] = useState(0);

  useEffect(() => {
    if (!customerId) return;
    const controller = new AbortController();
    fetchSubscription(customerId, controller.signal)
      .then((result) => startTransition(() => setLoaded({ customerId, result: result.ok ? { subscription: result.data } : 'error' })))
      .catch(() => undefined); // aborted
    return () => controller.abort();
  }, [customerId, attempt]);

  const onChanged = useCallback(
    (subscription: Subscription) => {
      if (customerId) setLoaded({ customerId, result: { subscription } });
      setAttempt((n) => n + 1); // read it again from the server
      void refreshProfile(); // and the level it grants
    },
    [customerId],
  );

  const current = loaded && loaded.customerId === customerId ? loaded.result : null;
  let body;
  if (auth.status === 'signed-out') {
    body = (
      <div className="mt-4">
        <p className="text-slate-600">You need to be logged in to manage subscriptions</p>
        <a href="/signin" className={`${BUTTON} mt-3 inline-flex bg-brand-600 text-white hover:bg-brand-700`}>
          Sign In
        </a>
      </div>
    );
  } else if (auth.status === 'loading' || profile === undefined) body = <Spinner />;
  else if (profile === null || current === 'error') body = <LoadError />;
  else if (!customerId || (current && !current.subscription)) body = NO_SUBSCRIPTION;
  // The subscription of a member with a customer id is on its way: its likeliest look (active,
  // renewing) holds the room, so the cards below do not move when it arrives.
  else if (!current?.subscription) body = LOADING_PLAN;
  else body = <Details subscription={current.subscription} customerId={customerId} onChanged={onChanged} />;
  return <Shell className={className}>{body}</Shell>;
}

function Shell({ className, children }: { className: string; children: ReactNode }) {
  return (
    <section aria-labelledby="subscription-heading" className={className}>
      <h2 id="subscription-heading" className="text-lg font-semibold text-slate-900">
        Subscription
      </h2>
      {children}
    </section>
  );
}

/** The card while the account page loads: the room of a plan's details (a plan guessed) or of 'No Active Subscription'. */
export function SubscriptionSkeleton({ className, guess }: { className: string; guess: AccountGuess }) {
  return (
    <Shell className={className}>
      <ByPlan guess={guess}>
        {(withPlan) => (withPlan ? LOADING_PLAN : <Reserved label="Loading your subscription…">{NO_SUBSCRIPTION}</Reserved>)}
      </ByPlan>
    </Shell>
  );
}
