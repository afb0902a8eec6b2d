/**
 * How payments read on screen (spec points 4 "Subscription display" and 9): amounts in cents shown
 * as dollars with two decimals, the status badge, the date label, and which actions a subscription
 * offers. Pure, shared by the account page, the confirmation page and the test provider's pages.
 */
import { formatDate } from '../format.ts';
import { centsToDollars, formatDollars } from '../pricing.ts';

export type BadgeVariant = 'default' | 'secondary' | 'destructive' | 'warning';

/** Cents as dollars with two decimals: 19190 → "$191.90". */
export function formatCents(cents: number): string {
  return formatDollars(centsToDollars(cents));
}

/** "$19.99 / month"; a one-time amount (no interval) is the amount alone. */
export function formatPlanAmount(cents: number, interval: string | null | undefined): string {
  return interval ? `${formatCents(cents)} / ${interval}` : formatCents(cents);
}

/** A status word for people: first letter capitalised, underscores as spaces ("past_due" → "Past due"). */
export function statusWord(status: string): string {
  const words = status.replaceAll('_', ' ').trim();
  return words ? words[0]!.toUpperCase() + words.slice(1) : 'Unknown';
}

/** What the display needs of a subscription (the payments API's answer has more). */
export interface SubscriptionState {
  status: string;
  cancelAtPeriodEnd: boolean;
}

/** An active subscription set to end at its period end. */
export function isCanceling(s: SubscriptionState): boolean {
  return s.status === 'active' && s.cancelAtPeriodEnd;
}

/** Cancel Subscription shows only for active subscriptions not already set to cancel. */
export function canCancel(s: SubscriptionState): boolean {
  return s.status === 'active' && !s.cancelAtPeriodEnd;
}

/** The badge: active default, trialing secondary, anything else destructive; active and canceling reads 'Canceling'. */
export function subscriptionBadge(s: SubscriptionState): { label: string; variant: BadgeVariant } {
  if (isCanceling(s)) return { label: 'Canceling', variant: 'warning' };
  if (s.status === 'active') return { label: 'Active', variant: 'default' };
  if (s.status === 'trialing') return { label: 'Trialing', variant: 'secondary' };
  return { label: statusWord(s.status), variant: 'destructive' };
}

/** 'Access Until' while canceling, else 'Next Billing Date'. */
export function periodDateLabel(s: SubscriptionState): string {
  return isCanceling(s) ? 'Access Until' : 'Next Billing Date';
}

/** A date as 'MMMM d, yyyy' (spec point 9). */
export function formatPaymentDate(iso: string): string {
  return formatDate(iso);
}

/** The amber notice of a canceling subscription. */
export function cancelNotice(endsOn: string): string {
  return `Your subscription has been canceled and will end on ${endsOn}. You can reactivate it from Manage Subscription before then.`;
}

/** A change held for the period end, as the account card says it (beyond the spec: plan changes). */
export function scheduledChangeNotice(planName: string, on: string): string {
  return `Changes to ${planName} on ${on}`;
}

/** What the cancel confirmation says: until when access lasts, and that no more is charged. */
export function cancelConfirmText(planName: string, until: string, scheduledName?: string): string {
  const dropped = scheduledName ? ` The change to ${scheduledName} planned for that date will not happen.` : '';
  return `You keep your ${planName} access until ${until}, and you will not be charged again. After that your account moves to the free level.${dropped} You can reactivate it from Manage Subscription before then.`;
}

export const BADGE_CLASS: Record<BadgeVariant, string> = {
  default: 'bg-brand-600 text-white',
  secondary: 'bg-slate-100 text-slate-800',
  destructive: 'bg-red-600 text-white',
  warning: 'bg-amber-100 text-amber-900',
};
