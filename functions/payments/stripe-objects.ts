/**
 * Stripe's objects read as the payment provider port's, and the port's checkout request written as
 * Stripe's parameters. Pure: no calls here (`stripe.ts` and `stripe-subscriptions.ts` make them).
 */
import type Stripe from 'stripe';
import type { Logger } from '../platform/logger.ts';
import {
  type CheckoutRequest,
  type ProviderCheckoutSession,
  type ProviderPrice,
  type ProviderSubscription,
  SUBSCRIPTION_STATUSES,
} from './provider.ts';

const date = (seconds: number | null | undefined) => (typeof seconds === 'number' ? new Date(seconds * 1000) : null);
/** The id of an expandable reference, expanded or not. */
export const idOf = (ref: string | { id: string } | null) => (typeof ref === 'string' ? ref : (ref?.id ?? null));
/** The SDK's enums are open (any string may come back): narrow them to the values the port knows. */
const oneOf = <T extends string>(value: string | null | undefined, known: readonly T[]): T | undefined => known.find((k) => k === value);

const intervalOf = (price: Stripe.Price) => oneOf(price.recurring?.interval, ['month', 'year'] as const) ?? null;

/** A price as the port reads it (its product expanded for the name). */
export function toPrice(price: Stripe.Price): ProviderPrice {
  const product = typeof price.product === 'object' && !price.product.deleted ? price.product : undefined;
  return {
    id: price.id,
    lookupKey: price.lookup_key ?? '',
    unitAmount: price.unit_amount ?? 0,
    currency: price.currency,
    interval: intervalOf(price),
    productName: product?.name ?? '',
  };
}

/**
 * Since API 2025-03-31.basil the period lives on each item; the subscription's end is the earliest
 * item end (how Stripe's list filter defines it). Older payloads still carry the top-level field.
 */
function periodEnd(subscription: Stripe.Subscription): Date {
  const ends = subscription.items.data.map((item) => item.current_period_end).filter((end) => typeof end === 'number');
  const legacy = (subscription as { current_period_end?: number }).current_period_end;
  const end = ends.length ? Math.min(...ends) : legacy;
  if (typeof end !== 'number') throw new Error(`Stripe subscription ${subscription.id} has no period end`);
  return new Date(end * 1000);
}

const priceOf = (price: Stripe.Price) => ({
  id: price.id,
  lookupKey: price.lookup_key,
  unitAmount: price.unit_amount ?? 0,
  interval: intervalOf(price),
});

/** What we expand on every subscription we read: the newest invoice, its discounts, and a schedule's phases with their prices. */
export const SUBSCRIPTION_EXPAND = ['latest_invoice', 'discounts', 'schedule.phases.items.price'];

/** The first coupon on a subscription (expanded `discounts`; since API 2025 a discount names its coupon in `source`). */
function discountOf(subscription: Stripe.Subscription): ProviderSubscription['discount'] {
  for (const discount of subscription.discounts ?? []) {
    if (typeof discount === 'string') continue;
    const couponId = idOf(discount.source?.coupon ?? null);
    if (couponId) return { couponId, end: date(discount.end) };
  }
  return null;
}

/**
 * The price a subscription schedule switches to after the current phase (how a change at the period
 * end is kept at Stripe), when the schedule was expanded and still runs; null otherwise.
 */
function scheduledChangeOf(subscription: Stripe.Subscription, current: Stripe.Price): ProviderSubscription['scheduledChange'] {
  const schedule = subscription.schedule;
  if (!schedule || typeof schedule === 'string' || !['active', 'not_started'].includes(schedule.status)) return null;
  const boundary = schedule.current_phase?.end_date;
  const next = boundary === undefined ? undefined : schedule.phases.find((phase) => phase.start_date >= boundary);
  const price = next?.items[0]?.price;
  if (!next || !price || typeof price === 'string' || price.deleted || price.id === current.id) return null;
  return { price: priceOf(price), at: new Date(next.start_date * 1000) };
}

function latestInvoiceOf(subscription: Stripe.Subscription): ProviderSubscription['latestInvoice'] {
  const invoice = subscription.latest_invoice;
  if (!invoice || typeof invoice === 'string' || !invoice.id) return null;
  return { id: invoice.id, amountPaid: invoice.amount_paid, billingReason: invoice.billing_reason };
}

/** A subscription as the port reads it; an unknown status is logged and read as incomplete. */
export function toSubscription(subscription: Stripe.Subscription, log?: Logger): ProviderSubscription {
  const price = subscription.items.data[0]?.price;
  if (!price) throw new Error(`Stripe subscription ${subscription.id} has no items`);
  let status = oneOf(subscription.status, SUBSCRIPTION_STATUSES);
  if (!status) {
    // A status newer than this code: grant nothing until someone decides what it means.
    log?.warn({ subscriptionId: subscription.id, status: subscription.status }, 'stripe: unknown subscription status, read as incomplete');
    status = 'incomplete';
  }
  return {
    id: subscription.id,
    customerId: idOf(subscription.customer)!,
    status,
    cancelAtPeriodEnd: subscription.cancel_at_period_end,
    cancelAt: date(subscription.cancel_at),
    currentPeriodEnd: periodEnd(subscription),
    endedAt: date(subscription.ended_at),
    price: priceOf(price),
    scheduledChange: scheduledChangeOf(subscription, price),
    latestInvoice: latestInvoiceOf(subscription),
    discount: discountOf(subscription),
    trialEnd: date(subscription.trial_end),
    metadata: subscription.metadata,
  };
}

/** Null for setup sessions: we never create them, so they are not ours to read as payments. */
export function toCheckoutSession(session: Stripe.Checkout.Session): ProviderCheckoutSession | null {
  const mode = oneOf(session.mode, ['subscription', 'payment'] as const);
  if (!mode) return null;
  return {
    id: session.id,
    mode,
    // Null only in the embedded UI modes, which we never use.
    status: oneOf(session.status, ['open', 'complete', 'expired'] as const) ?? 'open',
    // Anything unknown reads as unpaid, which grants nothing.
    paymentStatus: oneOf(session.payment_status, ['paid', 'unpaid', 'no_payment_required'] as const) ?? 'unpaid',
    customerId: idOf(session.customer),
    subscriptionId: idOf(session.subscription),
    clientReferenceId: session.client_reference_id,
    metadata: session.metadata ?? {},
    amountTotal: session.amount_total,
  };
}

/** The Checkout Session parameters for a request, hosted (redirect) or embedded. */
export function checkoutParams(input: CheckoutRequest, embedded: boolean): Stripe.Checkout.SessionCreateParams {
  const lineItem: Stripe.Checkout.SessionCreateParams.LineItem =
    'priceId' in input.line
      ? { price: input.line.priceId, quantity: 1 }
      : {
          price_data: { currency: input.line.currency, unit_amount: input.line.unitAmount, product_data: { name: input.line.productName } },
          quantity: 1,
        };
  // No payment_method_types: the methods come from the Dashboard (and v23 dropped the parameter).
  return {
    mode: input.mode,
    customer: input.customerId,
    line_items: [lineItem],
    client_reference_id: input.userId,
    metadata: input.metadata,
    ...(input.mode === 'subscription'
      ? { subscription_data: { metadata: input.metadata, ...(input.trialDays ? { trial_period_days: input.trialDays } : {}) } }
      : { payment_intent_data: { metadata: input.metadata } }),
    // An offer's coupon, or Stripe's promotion-code box (Stripe takes one or the other).
    ...(input.couponId
      ? { discounts: [{ coupon: input.couponId }] }
      : input.promotionCodes === false
        ? {}
        : { allow_promotion_codes: true }),
    // Embedded Checkout stays on our page, so it has one return URL and no cancel URL.
    ...(embedded
      ? { ui_mode: 'embedded_page', return_url: input.successUrl }
      : { success_url: input.successUrl, cancel_url: input.cancelUrl }),
  };
}
