/**
 * The payment provider port: what the billing service asks of a card payment provider. Two
 * adapters, picked once at start-up: Stripe (`stripe.ts`, the official SDK, when STRIPE_SECRET_KEY
 * is set) and the embedded test provider (`embedded/`, the default). Shapes follow Stripe's objects
 * as `../shared/reference/stripe-contract.md` describes them, reduced to the fields we read, with
 * unix seconds turned into Dates. Adapters never read configuration themselves.
 */

/** Stripe's subscription statuses (the schema's check constraint uses the same list). */
export const SUBSCRIPTION_STATUSES = [
  'incomplete',
  'incomplete_expired',
  'trialing',
  'active',
  'past_due',
  'canceled',
  'unpaid',
  'paused',
] as const;
export type SubscriptionStatus = (typeof SUBSCRIPTION_STATUSES)[number];

export interface ProviderPrice {
  id: string;
  /** The provider's lookup key: premium_yearly for plans (our tier id without `price_`). */
  lookupKey: string;
  /** Minor units (cents). */
  unitAmount: number;
  currency: string;
  /** Null for one-time prices. */
  interval: 'month' | 'year' | null;
  productName: string;
}

/** A price as a subscription names it. */
export interface SubscriptionPrice {
  id: string;
  lookupKey: string | null;
  unitAmount: number;
  interval: 'month' | 'year' | null;
}

export interface ProviderSubscription {
  id: string;
  customerId: string;
  status: SubscriptionStatus;
  /** Either field set means a cancel is pending (flexible billing sets only `cancelAt`). */
  cancelAtPeriodEnd: boolean;
  cancelAt: Date | null;
  /** The minimum over the items' period ends (the contract's rule). */
  currentPeriodEnd: Date;
  endedAt: Date | null;
  /** The first item's price. */
  price: SubscriptionPrice;
  /** A price the provider will switch to at `at` (Stripe: the next phase of a subscription schedule), or null. */
  scheduledChange: { price: SubscriptionPrice; at: Date } | null;
  /** The newest invoice (Stripe's `latest_invoice`): what it took and why (`subscription_update` for a prorated change). */
  latestInvoice: { id: string; amountPaid: number; billingReason: string | null } | null;
  /** A coupon taking money off its invoices (Stripe's `discounts`): which, and until when (null: for as long as it lasts: once or forever). */
  discount: { couponId: string; end: Date | null } | null;
  /** When a free trial ends (Stripe's `trial_end`), null without one. */
  trialEnd: Date | null;
  metadata: Record<string, string>;
}

/** Money off a subscription's invoices (Stripe's coupon): a percentage or an amount, once, for N months, or forever. */
export interface ProviderCoupon {
  /** Our own id for it: creating it again answers the same coupon. */
  id: string;
  name: string;
  percentOff?: number | undefined;
  /** Cents, in `currency`. */
  amountOff?: number | undefined;
  currency: string;
  duration: 'once' | 'repeating' | 'forever';
  durationInMonths?: number | undefined;
}

export interface ProviderCheckoutSession {
  id: string;
  mode: 'subscription' | 'payment';
  status: 'open' | 'complete' | 'expired';
  paymentStatus: 'paid' | 'unpaid' | 'no_payment_required';
  customerId: string | null;
  subscriptionId: string | null;
  clientReferenceId: string | null;
  metadata: Record<string, string>;
  /** Total in minor units, when known. */
  amountTotal: number | null;
}

export interface CheckoutRequest {
  customerId: string;
  userId: string;
  /** What is bought: a catalog price (plans), or an inline one-time line (Stripe's `price_data`). */
  line: { priceId: string } | { unitAmount: number; currency: string; productName: string };
  mode: 'subscription' | 'payment';
  /** Kept on the session; for subscriptions also copied onto the subscription. */
  metadata: Record<string, string>;
  /** May hold the literal `{CHECKOUT_SESSION_ID}` placeholder, which the provider fills in. */
  successUrl: string;
  cancelUrl: string;
  /** A retry with the same key answers the same session (Stripe's idempotency key; the embedded provider keeps it too). */
  idempotencyKey?: string;
  /** A coupon on the subscription from its first invoice (an offer); the promotion-code box is then not offered. */
  couponId?: string;
  /** Free days before the first charge (Stripe's `subscription_data.trial_period_days`). */
  trialDays?: number;
  /** Whether Stripe's promotion-code box is offered when no coupon is given (default: yes). */
  promotionCodes?: boolean;
}

/**
 * Where the browser pays: a page to go to (hosted Checkout, the embedded test checkout), or Stripe's
 * embedded Checkout, which Stripe.js mounts in our page from the session's client secret.
 */
export type CheckoutStart = { id: string; url: string } | { id: string; clientSecret: string; publishableKey: string };

/**
 * A provider event, verified: Stripe's event envelope (`id`, `type`, `created` in seconds,
 * `data.object`). The handler reads only ids from the object and re-reads state from the provider,
 * so duplicates and out-of-order delivery end right.
 */
export interface ProviderEvent {
  object: 'event';
  id: string;
  type: string;
  created: number;
  data: { object: Record<string, unknown> };
}

/** Whether money moves: the embedded provider and Stripe's test keys are test mode, Stripe's live keys live. */
export type PaymentMode = 'test' | 'live';

export interface PaymentProvider {
  readonly kind: 'stripe' | 'embedded';
  readonly mode: PaymentMode;
  /** Active prices for these lookup keys (any number; adapters batch). */
  pricesByLookupKeys(keys: readonly string[]): Promise<ProviderPrice[]>;
  /** A new customer; `idempotencyKey` makes a retried create answer the first customer. */
  createCustomer(input: { email: string; userId: string; idempotencyKey: string }): Promise<{ id: string }>;
  createCheckoutSession(input: CheckoutRequest): Promise<CheckoutStart>;
  /** Null when the provider does not know the id. */
  retrieveCheckoutSession(id: string): Promise<ProviderCheckoutSession | null>;
  /** Null when the provider does not know the id. */
  retrieveSubscription(id: string): Promise<ProviderSubscription | null>;
  /** Every subscription of the customer, canceled ones included. */
  listSubscriptions(customerId: string): Promise<ProviderSubscription[]>;
  /** Schedules (true) or withdraws (false) the cancel at the period end. */
  setCancelAtPeriodEnd(subscriptionId: string, cancel: boolean): Promise<ProviderSubscription>;
  /** Ends the subscription now (account deletion). */
  cancelNow(subscriptionId: string): Promise<ProviderSubscription>;
  /**
   * Moves the subscription to another price now, prorated, and charges the difference at once
   * (Stripe: `proration_behavior: 'always_invoice'`; a credit when the difference is negative). The
   * change applies only if that charge is paid (Stripe's pending updates): `paid: false` means the
   * card was declined and the subscription is as it was. Call with no change scheduled.
   */
  changePrice(
    subscriptionId: string,
    input: { priceId: string; idempotencyKey: string },
  ): Promise<{ subscription: ProviderSubscription; paid: boolean }>;
  /**
   * Schedules the subscription to renew on another price at its period end (Stripe: a subscription
   * schedule whose second phase has that price), replacing any change scheduled before; null
   * withdraws a scheduled change. Nothing is charged now and the current price runs to the end.
   */
  schedulePrice(subscriptionId: string, price: { id: string; interval: 'month' | 'year' } | null): Promise<ProviderSubscription>;
  createPortalSession(input: { customerId: string; returnUrl: string }): Promise<{ url: string }>;
  /** Creates a coupon under our id (again: the same coupon). */
  createCoupon(coupon: ProviderCoupon): Promise<{ id: string }>;
  /** Puts a coupon on a live subscription from its next invoice (a retention offer), replacing any other. */
  applyCoupon(subscriptionId: string, couponId: string): Promise<ProviderSubscription>;
  /**
   * Refunds a paid one-time checkout in full (Stripe: its payment intent). Idempotent under
   * `idempotencyKey`, and a payment refunded already answers its refund instead of failing.
   */
  refundCheckout(input: { sessionId: string; idempotencyKey: string; metadata: Record<string, string> }): Promise<{ id: string }>;
  /** Verifies a webhook's signature on the raw body; throws WebhookSignatureError when it fails. */
  verifyWebhook(rawBody: string, signature: string | undefined): Promise<ProviderEvent>;
}

export class WebhookSignatureError extends Error {
  override name = 'WebhookSignatureError';
}

/** Subscription statuses that grant the plan's level (past_due: a grace period while retries run). */
export const GRANTING_STATUSES: readonly SubscriptionStatus[] = ['active', 'trialing', 'past_due'];

/** Whether a subscription grants its plan's level now: a granting status, and not past a scheduled `cancelAt`. */
export function grants(s: { status: string; cancelAt: Date | null }, now: Date): boolean {
  return (GRANTING_STATUSES as readonly string[]).includes(s.status) && !(s.cancelAt && s.cancelAt <= now);
}
