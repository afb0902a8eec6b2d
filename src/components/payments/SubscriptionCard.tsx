/**
 * The account page's subscription card in every state of spec point 4: a spinner while the profile
 * or the subscription loads; the signed-out prompt; 'Error Loading Subscription' with Retry (reloads
 * the page); 'No Active Subscription' without a customer id or a subscription; else the details
 * (plan, amount, interval, status badge, the date, the amber notice while canceling), Cancel
 * Subscription (active and not canceling; afterwards the subscription is read again and the
 * profile refreshed) and Manage Subscription (the provider's portal).
 */
import { useCallback, useEffect, useState } from 'react';
import { refreshProfile, type AuthState } from '../../lib/auth/client.ts';
import { cancelSubscription, createPortalSession, fetchSubscription, type Subscription } from '../../lib/payments/client.ts';
import {
  BADGE_CLASS,
  canCancel,
  cancelNotice,
  formatPaymentDate,
  formatPlanAmount,
  isCanceling,
  periodDateLabel,
  subscriptionBadge,
} from '../../lib/payments/display.ts';

export const CANCEL_FAILED = 'Failed to cancel subscription. Please try again.';
export const PORTAL_FAILED = 'Failed to open subscription management portal. Please try again.';

const BUTTON = 'min-h-11 rounded-lg px-5 py-2.5 text-sm font-semibold disabled:opacity-60';

type Loaded = { customerId: string; result: 'error' | { subscription: Subscription | null } };

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
  onCanceled,
}: {
  subscription: Subscription;
  customerId: string;
  onCanceled: (s: Subscription) => void;
}) {
  const [busy, setBusy] = useState<'cancel' | 'portal' | null>(null);
  const [error, setError] = useState<string | null>(null);
  const badge = subscriptionBadge(subscription);
  const date = formatPaymentDate(subscription.currentPeriodEnd);

  async function cancel() {
    setBusy('cancel');
    setError(null);
    const result = await cancelSubscription(subscription.subscriptionId);
    setBusy(null);
    if (!result.ok) return setError(CANCEL_FAILED);
    onCanceled(result.data.subscription);
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
            onClick={() => void cancel()}
            disabled={busy !== null}
            className={`${BUTTON} text-red-700 ring-1 ring-inset ring-red-300 hover:bg-red-50`}
          >
            {busy === 'cancel' ? 'Canceling…' : 'Cancel Subscription'}
          </button>
        )}
      </div>
    </div>
  );
}

export function SubscriptionCard({ auth, className }: { auth: AuthState; className: string }) {
  const profile = auth.status === 'signed-in' ? auth.profile : undefined;
  const customerId = profile?.customerId ?? null;
  const [loaded, setLoaded] = useState<Loaded | null>(null);
  const [attempt, setAttempt] = useState(0);

  useEffect(() => {
    if (!customerId) return;
    const controller = new AbortController();
    fetchSubscription(customerId, controller.signal)
      .then((result) => setLoaded({ customerId, result: result.ok ? { subscription: result.data } : 'error' }))
      .catch(() => undefined); // aborted
    return () => controller.abort();
  }, [customerId, attempt]);

  const onCanceled = useCallback(
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
  else if (!customerId || (current && !current.subscription)) body = <p className="mt-4 text-slate-600">No Active Subscription</p>;
  else if (!current?.subscription) body = <Spinner />;
  else body = <Details subscription={current.subscription} customerId={customerId} onCanceled={onCanceled} />;

  return (
    <section aria-labelledby="subscription-heading" className={className}>
      <h2 id="subscription-heading" className="text-lg font-semibold text-slate-900">
        Subscription
      </h2>
      {body}
    </section>
  );
}
