/**
 * The account page's subscription card in every state of spec point 4: a spinner while the profile
 * or the subscription loads; the signed-out prompt; 'Error Loading Subscription' with Retry (reloads
 * the page); 'No Active Subscription' without a customer id or a subscription; else the details
 * (plan, amount, interval, status badge, the date, the amber notice while canceling), Cancel
 * Subscription (active and not canceling; it asks first and says until when access lasts;
 * afterwards the subscription is read again and the profile refreshed) and Manage Subscription (the
 * provider's portal). Beyond the spec: a change held for the period end reads 'Changes to {Tier}
 * on {date}' with 'Keep {current}' to withdraw it.
 * Longer than the house's file size: it is every state of one card, in the order the spec lists them.
 */
import { startTransition, useCallback, useEffect, useId, useRef, useState, type ReactNode } from 'react';
import { refreshProfile, type AuthState } from '../../lib/browser/auth/client.ts';
import { ByPlan, type AccountGuess } from '../auth/account-guess.tsx';
import { RetentionOffer } from './RetentionOffer.tsx';
import { Reserved } from '../content/gated/LoadStates.tsx';
import {
  cancelSubscription,
  changePlan,
  createPortalSession,
  fetchSubscription,
  type Subscription,
} from '../../lib/browser/payments/client.ts';
import {
  BADGE_CLASS,
  canCancel,
  cancelConfirmText,
  cancelNotice,
  formatPaymentDate,
  formatPlanAmount,
  isCanceling,
  periodDateLabel,
  scheduledChangeNotice,
  subscriptionBadge,
} from '#shared/payments/display.ts';

export const CANCEL_FAILED = 'Failed to cancel subscription. Please try again.';
export const PORTAL_FAILED = 'Failed to open subscription management portal. Please try again.';
export const KEEP_FAILED = 'Failed to keep your current plan. Please try again.';

const BUTTON = 'min-h-11 rounded-lg px-5 py-2.5 text-sm font-semibold disabled:opacity-60';

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

function Details({
  subscription,
  customerId,
  onChanged,
}: {
  subscription: Subscription;
  customerId: string;
  onChanged: (s: Subscription) => void;
}) {
  const [busy, setBusy] = useState<'cancel' | 'portal' | 'keep' | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [confirming, setConfirming] = useState(false);
  const confirmDialog = useRef<HTMLDialogElement>(null);
  const id = useId();
  const badge = subscriptionBadge(subscription);
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
      <dl className="grid grid-cols-[auto_1fr] gap-x-6 gap-y-2 text-sm">
        <dt className="text-slate-600">Plan</dt>
        <dd className="font-semibold text-slate-900">{subscription.plan.name}</dd>
        <dt className="text-slate-600">Amount</dt>
        <dd className="text-slate-900">{formatPlanAmount(subscription.plan.amount, subscription.plan.interval)}</dd>
        <dt className="text-slate-600">Status</dt>
        <dd>
          <span
            className={`inline-flex rounded-full px-2.5 py-0.5 text-xs font-semibold ${BADGE_CLASS[badge.variant]}`}
            data-testid="subscription-status"
          >
            {badge.label}
          </span>
        </dd>
        <dt className="text-slate-600">{periodDateLabel(subscription)}</dt>
        <dd className="text-slate-900">{date}</dd>
      </dl>
      {isCanceling(subscription) && (
        <p className="rounded-lg border border-amber-300 bg-amber-50 p-3 text-sm text-amber-900">{cancelNotice(date)}</p>
      )}
      {scheduled && !isCanceling(subscription) && (
        <div className="flex flex-wrap items-center gap-3 rounded-lg border border-brand-200 bg-brand-50 p-3 text-sm text-slate-800">
          <p data-testid="scheduled-change">
            <span className="font-semibold">{scheduledChangeNotice(scheduled.name, formatPaymentDate(scheduled.effectiveAt))}</span>
            {` (${formatPlanAmount(scheduled.amount, scheduled.interval)}). Until then your ${subscription.plan.name} plan stays as it is.`}
          </p>
          {subscription.priceId && (
            <button
              type="button"
              onClick={() => void keep()}
              disabled={busy !== null}
              className={`${BUTTON} bg-white text-brand-700 ring-1 ring-inset ring-brand-300 hover:bg-brand-100`}
            >
              {busy === 'keep' ? 'Keeping…' : `Keep ${subscription.plan.name}`}
            </button>
          )}
        </div>
      )}
      {error && (
        <p role="alert" className="rounded-lg border border-red-200 bg-red-50 p-3 text-sm text-red-800">
          {error}
        </p>
      )}
      <div className="flex flex-wrap gap-3">
        <button
          type="button"
          onClick={() => void manage()}
          disabled={busy !== null}
          className={`${BUTTON} bg-brand-600 text-white hover:bg-brand-700`}
        >
          {busy === 'portal' ? 'Opening…' : 'Manage Subscription'}
        </button>
        {canCancel(subscription) && (
          <button
            type="button"
            onClick={() => {
              setConfirming(true);
              confirmDialog.current?.showModal();
            }}
            disabled={busy !== null}
            className={`${BUTTON} text-red-700 ring-1 ring-inset ring-red-300 hover:bg-red-50`}
          >
            Cancel Subscription
          </button>
        )}
      </div>
      <dialog
        ref={confirmDialog}
        onClose={() => setConfirming(false)}
        aria-labelledby={`${id}-cancel`}
        aria-describedby={`${id}-cancel-text`}
        className="rounded-2xl p-6 shadow-xl backdrop:bg-slate-900/50"
      >
        <h3 id={`${id}-cancel`} className="text-lg font-semibold text-slate-900">
          Cancel your {subscription.plan.name} plan?
        </h3>
        <p id={`${id}-cancel-text`} className="mt-2 max-w-sm text-sm text-slate-700">
          {cancelConfirmText(subscription.plan.name, date, scheduled?.name)}
        </p>
        <RetentionOffer
          subscriptionId={subscription.subscriptionId}
          open={confirming}
          onAccepted={(s) => {
            confirmDialog.current?.close();
            onChanged(s);
          }}
        />
        <div className="mt-6 flex flex-wrap justify-end gap-2">
          <button
            type="button"
            onClick={() => confirmDialog.current?.close()}
            disabled={busy === 'cancel'}
            className={`${BUTTON} ring-1 ring-inset ring-slate-300`}
          >
            Keep my plan
          </button>
          <button
            type="button"
            onClick={() => void cancel()}
            disabled={busy === 'cancel'}
            className={`${BUTTON} bg-red-600 text-white hover:bg-red-700`}
          >
            {busy === 'cancel' ? 'Canceling…' : 'Yes, cancel'}
          </button>
        </div>
      </dialog>
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
