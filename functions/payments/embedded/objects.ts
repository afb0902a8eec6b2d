/**
 * The embedded provider's objects as Stripe shapes them: ids, prices, invoices, and its rows turned
 * into the port's subscriptions and checkout sessions, or into the objects its events carry. Pure.
 */
import { createHash, randomBytes } from 'node:crypto';
import { addMonths } from 'date-fns/addMonths';
import { addYears } from 'date-fns/addYears';
import { PLAN_PRICES, planForLookupKey, type PlanPrice } from '../catalog.ts';
import type { ProviderCheckoutSession, ProviderSubscription, SubscriptionPrice, SubscriptionStatus } from '../provider.ts';
import type { CouponRow, SessionRow, SubRow } from './store.ts';
import type { EmbeddedDiscount } from './tables.ts';

/** What a checkout session keeps in its `detail`. */
export interface CheckoutDetail {
  mode: 'subscription' | 'payment';
  userId: string;
  lookupKey?: string;
  productName: string;
  amount: number;
  currency: string;
  interval: 'month' | 'year' | null;
  metadata: Record<string, string>;
  successUrl: string;
  cancelUrl: string;
  /** An offer's coupon on the subscription from its first invoice. */
  couponId?: string;
  /** Free days before the first charge. */
  trialDays?: number;
  /** Set once the payment was refunded (one-time payments only). */
  refund?: { id: string; metadata: Record<string, string>; at: string };
}

/** What a portal session keeps in its `detail`. */
export interface PortalDetail {
  returnUrl: string;
}

/** Statuses whose periods renew (and that the portal may still change). */
export const GRANTING: readonly SubscriptionStatus[] = ['active', 'trialing', 'past_due'];

export const newId = (prefix: string) => `${prefix}_test_${randomBytes(12).toString('base64url')}`;
/** The id an idempotency key names: the same key, the same object. */
export const idFromKey = (prefix: string, key: string) =>
  `${prefix}_test_${createHash('sha256').update(key).digest('base64url').slice(0, 16)}`;
export const seconds = (d: Date) => Math.floor(d.getTime() / 1000);
export const priceIdFor = (lookupKey: string) => `price_test_${lookupKey}`;
export const planByPriceId = (priceId: string) => PLAN_PRICES.find((p) => priceIdFor(p.lookupKey) === priceId);

function priceRef(lookupKey: string): SubscriptionPrice {
  const plan = planForLookupKey(lookupKey);
  return { id: priceIdFor(lookupKey), lookupKey, unitAmount: plan?.amount ?? 0, interval: plan?.interval ?? null };
}

type Invoice = NonNullable<SubRow['latestInvoice']>;
export const newInvoice = (amountPaid: number, billingReason: string): Invoice => ({ id: newId('in'), amountPaid, billingReason });

/** When a period that starts at `from` ends, on the plan's interval (monthly when unknown). */
export function nextPeriodEnd(from: Date, plan: PlanPrice | undefined): Date {
  return plan?.interval === 'year' ? addYears(from, 1) : addMonths(from, 1);
}

/** A coupon as a subscription carries it from `start` (a repeating one ends its months later). */
export function discountFrom(coupon: CouponRow, start: Date): EmbeddedDiscount {
  return {
    couponId: coupon.id,
    percentOff: coupon.percentOff,
    amountOff: coupon.amountOff,
    duration: coupon.duration,
    end: coupon.duration === 'repeating' ? addMonths(start, coupon.durationInMonths ?? 1).toISOString() : null,
  };
}

/** Whether a discount takes money off an invoice for the period starting at `periodStart`. */
export const discountApplies = (d: EmbeddedDiscount | null, periodStart: Date): d is EmbeddedDiscount =>
  Boolean(d && (d.end === null || periodStart < new Date(d.end)));

/** An amount (cents) with a discount taken off, never below zero. */
export function discounted(amount: number, d: Pick<EmbeddedDiscount, 'percentOff' | 'amountOff'> | null | undefined): number {
  if (!d) return amount;
  if (d.percentOff) return Math.max(0, Math.round((amount * (100 - d.percentOff)) / 100));
  return Math.max(0, amount - (d.amountOff ?? 0));
}

export function toSubscription(row: SubRow): ProviderSubscription {
  return {
    id: row.id,
    customerId: row.customerId,
    status: row.status,
    cancelAtPeriodEnd: row.cancelAtPeriodEnd,
    cancelAt: null,
    currentPeriodEnd: row.currentPeriodEnd,
    endedAt: row.endedAt,
    price: priceRef(row.lookupKey),
    scheduledChange: row.pendingLookupKey ? { price: priceRef(row.pendingLookupKey), at: row.currentPeriodEnd } : null,
    latestInvoice: row.latestInvoice ?? null,
    discount: row.discount ? { couponId: row.discount.couponId, end: row.discount.end ? new Date(row.discount.end) : null } : null,
    trialEnd: row.trialEnd,
    metadata: row.metadata,
  };
}

/** A checkout session as the port reads it; an open one past its expiry (at `now`) reads as expired. */
export function toSession(row: SessionRow, now: Date): ProviderCheckoutSession {
  const d = row.detail as unknown as CheckoutDetail;
  const expired = row.status === 'open' && row.expiresAt <= now;
  return {
    id: row.id,
    mode: d.mode,
    status: expired ? 'expired' : (row.status as ProviderCheckoutSession['status']),
    paymentStatus: row.status === 'complete' ? 'paid' : 'unpaid',
    customerId: row.customerId,
    subscriptionId: row.subscriptionId,
    clientReferenceId: d.userId,
    metadata: d.metadata,
    amountTotal: d.amount,
  };
}

/** Stripe's shape of a subscription, for event payloads. */
export function subscriptionObject(row: SubRow): Record<string, unknown> {
  return {
    id: row.id,
    object: 'subscription',
    customer: row.customerId,
    status: row.status,
    cancel_at_period_end: row.cancelAtPeriodEnd,
    ended_at: row.endedAt ? seconds(row.endedAt) : null,
    trial_end: row.trialEnd ? seconds(row.trialEnd) : null,
    metadata: row.metadata,
    items: {
      data: [
        {
          price: { id: priceIdFor(row.lookupKey), lookup_key: row.lookupKey },
          current_period_start: seconds(row.currentPeriodStart),
          current_period_end: seconds(row.currentPeriodEnd),
        },
      ],
    },
  };
}

/** Stripe's shape of a subscription's latest invoice, for event payloads. */
export function invoiceObject(row: SubRow): Record<string, unknown> {
  return {
    id: row.latestInvoice?.id ?? newId('in'),
    object: 'invoice',
    customer: row.customerId,
    amount_paid: row.latestInvoice?.amountPaid ?? 0,
    billing_reason: row.latestInvoice?.billingReason ?? null,
    parent: { subscription_details: { subscription: row.id } },
  };
}
