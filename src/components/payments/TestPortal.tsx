/**
 * The embedded test provider's billing portal (what Stripe's customer portal does): the member's
 * subscriptions with status and dates, Cancel at period end or Resume, Switch plan to another of
 * the plans (an upgrade now with the prorated difference charged, a downgrade at the period end,
 * as the pricing page does), Keep the current plan when a change is held, the test clock (renew
 * now, as at the period end), and Return to account. The session id in `?session=` is the capability.
 */
import { useId, useState } from 'react';
import { BADGE_CLASS, formatPaymentDate, formatPlanAmount, subscriptionBadge } from '#shared/payments/display.ts';
import {
  changeTestSubscription,
  failureMessage,
  fetchTestPortal,
  type PortalAction,
  type PortalPlan,
  type PortalSubscription,
} from '../../lib/browser/payments/test-provider.ts';
import { LoadFailure, LoadingLines } from '../content/gated/LoadStates.tsx';
import { sameOriginUrl } from './test-pages.ts';
import { useSessionLoad } from './use-session-load.ts';

const NOT_FOUND = 'This portal link is not valid. Open it again from your account.';
const GRANTING = ['active', 'trialing', 'past_due'];
const BUTTON = 'min-h-11 rounded-lg px-4 py-2 text-sm font-semibold disabled:opacity-60';

const planLabel = (p: PortalPlan) => `${p.name}, ${formatPlanAmount(p.amount, p.interval)}`;

/** What a switch did: the plan now, or the plan held for the period end. */
const switched = (plan: PortalPlan) => (s: PortalSubscription) =>
  s.plan.priceId === plan.priceId
    ? `You are now on ${planLabel(plan)}.`
    : `Your plan changes to ${planLabel(plan)} on ${formatPaymentDate(s.scheduledChange?.effectiveAt ?? s.currentPeriodEnd)}.`;

/** Asks the portal for a change; `note` says what it did (or works it out from the answer). */
type Act = (action: PortalAction, note: string | ((s: PortalSubscription) => string)) => void;

type SubscriptionItemProps = {
  sessionId: string;
  subscription: PortalSubscription;
  plans: PortalPlan[];
  onChanged: (s: PortalSubscription, note: string) => void;
};

/** One subscription: its plan, status and dates, and what the member can do with it while it runs. */
function SubscriptionItem({ sessionId, subscription, plans, onChanged }: SubscriptionItemProps) {
  const id = useId();
  const others = plans.filter((p) => p.priceId !== subscription.plan.priceId);
  const [target, setTarget] = useState(others[0]?.priceId ?? '');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const live = GRANTING.includes(subscription.status);
  const date = formatPaymentDate(subscription.currentPeriodEnd);

  async function act(action: PortalAction, note: string | ((s: PortalSubscription) => string)) {
    setBusy(true);
    setError(null);
    const result = await changeTestSubscription(sessionId, subscription.id, action);
    setBusy(false);
    if (!result.ok) return setError(failureMessage(result));
    onChanged(result.data.subscription, typeof note === 'string' ? note : note(result.data.subscription));
  }
  const run: Act = (action, note) => void act(action, note);

  return (
    <li className="rounded-2xl bg-white p-6 shadow-sm ring-1 ring-slate-200">
      <ItemSummary id={id} subscription={subscription} live={live} date={date} />
      {live && (
        <div className="mt-4 flex flex-col gap-4">
          <RunningActions subscription={subscription} busy={busy} date={date} onAct={run} />
          {others.length > 0 && <SwitchPlan id={id} others={others} target={target} busy={busy} onTarget={setTarget} onAct={run} />}
          <TestClock busy={busy} onAct={run} />
          {error && (
            <p role="alert" className="text-sm text-red-700">
              {error}
            </p>
          )}
        </div>
      )}
    </li>
  );
}

type ItemSummaryProps = { id: string; subscription: PortalSubscription; live: boolean; date: string };

/** The plan's name, status badge and amount, when it renews or ends, and a change held for the period end. */
function ItemSummary({ id, subscription, live, date }: ItemSummaryProps) {
  const badge = subscriptionBadge(subscription);
  const scheduled = subscription.scheduledChange;
  return (
    <>
      <div className="flex flex-wrap items-center gap-3">
        <h3 id={`${id}-name`} className="text-lg font-semibold text-ink">
          {subscription.plan.name}
        </h3>
        <span
          className={`inline-flex rounded-full px-2.5 py-0.5 text-xs font-semibold ${BADGE_CLASS[badge.variant]}`}
          data-testid="portal-status"
        >
          {badge.label}
        </span>
      </div>
      <p className="mt-1 text-slate-700">{formatPlanAmount(subscription.plan.amount, subscription.plan.interval)}</p>
      <p className="mt-1 text-sm text-slate-600">
        {!live ? `Ended ${date}` : subscription.cancelAtPeriodEnd ? `Cancels on ${date}` : `Renews on ${date}`}
      </p>
      {live && scheduled && (
        <p className="mt-1 text-sm font-medium text-slate-800" data-testid="portal-scheduled">
          Changes to {planLabel(scheduled.plan)} on {formatPaymentDate(scheduled.effectiveAt)}
        </p>
      )}
    </>
  );
}

type RunningActionsProps = { subscription: PortalSubscription; busy: boolean; date: string; onAct: Act };

/** Cancel at period end (or Resume), and Keep the current plan when a change is held. */
function RunningActions({ subscription, busy, date, onAct }: RunningActionsProps) {
  const scheduled = subscription.scheduledChange;
  return (
    <div className="flex flex-wrap gap-3">
      {subscription.cancelAtPeriodEnd ? (
        <button
          type="button"
          disabled={busy}
          onClick={() => onAct({ action: 'resume' }, 'Your subscription will continue.')}
          className={`${BUTTON} bg-brand-600 text-white hover:bg-brand-700`}
        >
          Resume subscription
        </button>
      ) : (
        <button
          type="button"
          disabled={busy}
          onClick={() => onAct({ action: 'cancel' }, `Your subscription will end on ${date}.`)}
          className={`${BUTTON} text-red-700 ring-1 ring-inset ring-red-300 hover:bg-red-50`}
        >
          Cancel at period end
        </button>
      )}
      {scheduled && (
        <button
          type="button"
          disabled={busy}
          onClick={() => onAct({ action: 'switch', priceId: subscription.plan.priceId }, `You keep ${planLabel(subscription.plan)}.`)}
          className={`${BUTTON} ring-1 ring-inset ring-slate-300 hover:bg-slate-50`}
        >
          Keep {subscription.plan.name}
        </button>
      )}
    </div>
  );
}

type SwitchPlanProps = { id: string; others: PortalPlan[]; target: string; busy: boolean; onTarget: (priceId: string) => void; onAct: Act };

/** Another of the plans to switch to (now for an upgrade, at the period end for a downgrade). */
function SwitchPlan({ id, others, target, busy, onTarget, onAct }: SwitchPlanProps) {
  return (
    <div className="flex flex-wrap items-end gap-3">
      <div>
        <label htmlFor={`${id}-plan`} className="block text-sm font-medium text-slate-700">
          Switch to
        </label>
        <select
          id={`${id}-plan`}
          value={target}
          onChange={(e) => onTarget(e.target.value)}
          className="mt-1 min-h-11 rounded-lg border border-slate-300 px-3 text-sm"
        >
          {others.map((p) => (
            <option key={p.priceId} value={p.priceId}>
              {planLabel(p)}
            </option>
          ))}
        </select>
      </div>
      <button
        type="button"
        disabled={busy || !target}
        onClick={() => {
          const plan = others.find((p) => p.priceId === target);
          if (plan) onAct({ action: 'switch', priceId: plan.priceId }, switched(plan));
        }}
        className={`${BUTTON} ring-1 ring-inset ring-slate-300 hover:bg-slate-50`}
      >
        Switch plan
      </button>
    </div>
  );
}

/** The test clock: the subscription moved to the end of its period. */
function TestClock({ busy, onAct }: { busy: boolean; onAct: Act }) {
  return (
    <div className="rounded-lg border border-dashed border-amber-400 bg-amber-50 p-3 text-sm text-amber-900">
      <p>
        <span className="font-semibold">Test clock.</span> Moves this subscription to the end of its period, as if time had passed: it
        renews now (a held plan takes over), or ends if it is set to cancel.
      </p>
      <button
        type="button"
        disabled={busy}
        onClick={() =>
          onAct({ action: 'advance' }, (s) =>
            GRANTING.includes(s.status)
              ? `Renewed: ${planLabel(s.plan)} until ${formatPaymentDate(s.currentPeriodEnd)}.`
              : 'The subscription has ended.',
          )
        }
        className={`${BUTTON} mt-2 bg-white ring-1 ring-inset ring-amber-400 hover:bg-amber-100`}
      >
        Advance to period end
      </button>
    </div>
  );
}

export default function TestPortal() {
  const { sessionId, load, retry, set } = useSessionLoad(fetchTestPortal, NOT_FOUND);
  const [note, setNote] = useState('');

  if (load.status === 'loading') return <LoadingLines label="Loading your subscriptions…" lines={4} />;
  if (load.status === 'failed')
    return (
      <div className="flex flex-col items-center gap-4">
        <LoadFailure message={load.message} onRetry={load.retry ? retry : undefined} />
        <a href="/account" className="font-semibold text-brand-700 underline">
          Return to account
        </a>
      </div>
    );

  const portal = load.data;
  const changed = (s: PortalSubscription, message: string) => {
    set({ ...portal, subscriptions: portal.subscriptions.map((x) => (x.id === s.id ? s : x)) });
    setNote(message);
  };
  return (
    <div className="flex flex-col gap-6">
      {portal.email && <p className="text-slate-600">Billing account: {portal.email}</p>}
      <section aria-labelledby="portal-subscriptions-heading">
        <h2 id="portal-subscriptions-heading" className="text-lg font-semibold text-ink">
          Your subscriptions
        </h2>
        {portal.subscriptions.length === 0 ? (
          <p className="mt-4 text-slate-600">You have no subscriptions.</p>
        ) : (
          <ul className="mt-4 flex flex-col gap-4">
            {portal.subscriptions.map((s) => (
              <SubscriptionItem key={s.id} sessionId={sessionId ?? ''} subscription={s} plans={portal.plans} onChanged={changed} />
            ))}
          </ul>
        )}
      </section>
      <p role="status" className="text-sm font-medium text-emerald-800 empty:hidden">
        {note}
      </p>
      <a
        href={sameOriginUrl(portal.returnUrl, '/account')}
        className="inline-flex min-h-11 items-center self-start rounded-lg px-5 py-2.5 text-sm font-semibold text-brand-700 ring-1 ring-inset ring-brand-200 hover:bg-brand-50"
      >
        Return to account
      </a>
    </div>
  );
}
