/**
 * What the payment API answers about plans, subscriptions and checkout starts, built from the
 * provider's objects or our copy of them. Pure.
 */
import type { BillingInterval } from '#shared/pricing.ts';
import { lookupKeyFor, planFor, planForLookupKey, type PlanPrice } from './catalog.ts';
import type { CheckoutStart, ProviderSubscription } from './provider.ts';
import type { SubscriptionRow } from './tables.ts';

/** A plan as the browser names it: our tier id, its name, cents and interval. */
export interface PlanJson {
  priceId: string;
  name: string;
  amount: number;
  interval: BillingInterval;
}

/**
 * The spec's Subscription (point 3), as the account card reads it, plus what plan changes need
 * (beyond the spec): our tier id of the plan, and a change held for the period end.
 */
export interface SubscriptionJson {
  subscriptionId: string;
  status: string;
  cancelAtPeriodEnd: boolean;
  currentPeriodEnd: string;
  plan: { name: string; amount: number; interval: BillingInterval };
  /** Our tier id of the plan (price_premium_yearly); null for a price we do not sell. */
  priceId: string | null;
  /** The plan it changes to at the period end (a downgrade), and when. */
  scheduledChange: (PlanJson & { effectiveAt: string }) | null;
}

/** create-session's answer (spec point 7: sessionId and url; or what Stripe.js needs for embedded Checkout). */
export type CheckoutAnswer = { sessionId: string; url: string } | { sessionId: string; clientSecret: string; publishableKey: string };

export function checkoutAnswer(start: CheckoutStart): CheckoutAnswer {
  const { id, ...rest } = start;
  return { sessionId: id, ...rest };
}

const planJson = (p: PlanPrice): PlanJson => ({ priceId: p.tierId, name: p.name, amount: p.amount, interval: p.interval });

/** The change a subscription (the provider's or our copy) holds for its period end, when it is one of our plans. */
export function scheduledOf(s: ProviderSubscription | SubscriptionRow): { plan: PlanPrice; at: Date } | null {
  if ('price' in s) {
    const plan = s.scheduledChange && planForLookupKey(s.scheduledChange.price.lookupKey);
    return plan ? { plan, at: s.scheduledChange!.at } : null;
  }
  const plan = s.scheduledTierId ? planFor(s.scheduledTierId) : undefined;
  return plan && s.scheduledAt ? { plan, at: s.scheduledAt } : null;
}

export function subscriptionJson(s: ProviderSubscription | SubscriptionRow): SubscriptionJson {
  const lookupKey = 'price' in s ? s.price.lookupKey : s.tierId ? lookupKeyFor(s.tierId) : null;
  const plan = planForLookupKey(lookupKey);
  const amount = 'price' in s ? s.price.unitAmount : s.amount;
  // Our copy stores the provider's interval as text, written from the same `?? 'month'`.
  const interval = 'price' in s ? (s.price.interval ?? 'month') : (s.interval as BillingInterval);
  const scheduled = scheduledOf(s);
  return {
    subscriptionId: s.id,
    status: s.status,
    cancelAtPeriodEnd: s.cancelAtPeriodEnd || Boolean(s.cancelAt),
    currentPeriodEnd: (s.cancelAt ?? s.currentPeriodEnd).toISOString(),
    plan: { name: plan?.name ?? 'Unknown plan', amount, interval },
    priceId: plan?.tierId ?? null,
    scheduledChange: scheduled ? { ...planJson(scheduled.plan), effectiveAt: scheduled.at.toISOString() } : null,
  };
}
