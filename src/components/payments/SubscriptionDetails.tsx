/**
 * The parts of the subscription card's details (SubscriptionCard.tsx): the plan's facts (plan,
 * amount, status badge, the date), the change held for the period end with 'Keep {current}', and
 * the dialog that confirms a cancellation (with the retention offer).
 */
import type { RefObject } from 'react';
import type { Subscription } from '../../lib/browser/payments/client.ts';
import {
  BADGE_CLASS,
  canCancel,
  cancelConfirmText,
  formatPaymentDate,
  formatPlanAmount,
  periodDateLabel,
  scheduledChangeNotice,
  subscriptionBadge,
} from '#shared/payments/display.ts';
import { RetentionOffer } from './RetentionOffer.tsx';

export const BUTTON = 'min-h-11 rounded-lg px-5 py-2.5 text-sm font-semibold disabled:opacity-60';

/** The plan, its amount, its status badge and the period's date (renews, ends…). */
export function PlanFacts({ subscription, date }: { subscription: Subscription; date: string }) {
  const badge = subscriptionBadge(subscription);
  return (
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
  );
}

type ScheduledChangeProps = {
  subscription: Subscription;
  scheduled: NonNullable<Subscription['scheduledChange']>;
  /** The action under way, if any: the button waits for it. */
  busy: string | null;
  onKeep: () => void;
};

/** A change held for the period end ('Changes to {Tier} on {date}'), and 'Keep {current}' to withdraw it. */
export function ScheduledChange({ subscription, scheduled, busy, onKeep }: ScheduledChangeProps) {
  return (
    <div className="flex flex-wrap items-center gap-3 rounded-lg border border-brand-200 bg-brand-50 p-3 text-sm text-slate-800">
      <p data-testid="scheduled-change">
        <span className="font-semibold">{scheduledChangeNotice(scheduled.name, formatPaymentDate(scheduled.effectiveAt))}</span>
        {` (${formatPlanAmount(scheduled.amount, scheduled.interval)}). Until then your ${subscription.plan.name} plan stays as it is.`}
      </p>
      {subscription.priceId && (
        <button
          type="button"
          onClick={onKeep}
          disabled={busy !== null}
          className={`${BUTTON} bg-white text-brand-700 ring-1 ring-inset ring-brand-300 hover:bg-brand-100`}
        >
          {busy === 'keep' ? 'Keeping…' : `Keep ${subscription.plan.name}`}
        </button>
      )}
    </div>
  );
}

type PlanActionsProps = { subscription: Subscription; busy: string | null; onManage: () => void; onAskCancel: () => void };

/** Manage Subscription (the provider's portal) and, while the plan renews, Cancel Subscription. */
export function PlanActions({ subscription, busy, onManage, onAskCancel }: PlanActionsProps) {
  return (
    <div className="flex flex-wrap gap-3">
      <button type="button" onClick={onManage} disabled={busy !== null} className={`${BUTTON} bg-brand-600 text-white hover:bg-brand-700`}>
        {busy === 'portal' ? 'Opening…' : 'Manage Subscription'}
      </button>
      {canCancel(subscription) && (
        <button
          type="button"
          onClick={onAskCancel}
          disabled={busy !== null}
          className={`${BUTTON} text-red-700 ring-1 ring-inset ring-red-300 hover:bg-red-50`}
        >
          Cancel Subscription
        </button>
      )}
    </div>
  );
}

type CancelDialogProps = {
  id: string;
  dialog: RefObject<HTMLDialogElement | null>;
  subscription: Subscription;
  date: string;
  /** Whether the dialog is open (the retention offer loads then). */
  open: boolean;
  canceling: boolean;
  onClose: () => void;
  onChanged: (s: Subscription) => void;
  onCancel: () => void;
};

/** Asks before cancelling, says until when access lasts, and offers the retention offer if there is one. */
export function CancelDialog(props: CancelDialogProps) {
  const { id, dialog, subscription, date, open, canceling, onClose, onChanged, onCancel } = props;
  const scheduled = subscription.scheduledChange;
  return (
    <dialog
      ref={dialog}
      onClose={onClose}
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
        open={open}
        onAccepted={(s) => {
          dialog.current?.close();
          onChanged(s);
        }}
      />
      <div className="mt-6 flex flex-wrap justify-end gap-2">
        <button
          type="button"
          onClick={() => dialog.current?.close()}
          disabled={canceling}
          className={`${BUTTON} ring-1 ring-inset ring-slate-300`}
        >
          Keep my plan
        </button>
        <button type="button" onClick={onCancel} disabled={canceling} className={`${BUTTON} bg-red-600 text-white hover:bg-red-700`}>
          {canceling ? 'Canceling…' : 'Yes, cancel'}
        </button>
      </div>
    </dialog>
  );
}
