/**
 * The Stripe adapter of the payment provider port, on the official SDK (stripe-node 23, API
 * 2026-10-28.endive), following `../shared/reference/stripe-contract.md` call by call. Stripe stays
 * the source of truth: nothing is cached here, and every error other than "no such object" is thrown
 * as the SDK's typed error (`Stripe.errors.StripeError` and subclasses) for the service to map.
 */
import Stripe from 'stripe';
import type { Logger } from '../platform/logger.ts';
import {
  WebhookSignatureError,
  type CheckoutRequest,
  type PaymentProvider,
  type ProviderCheckoutSession,
  type ProviderPrice,
  type ProviderSubscription,
  SUBSCRIPTION_STATUSES,
} from './provider.ts';

// One mapping between our tier ids and Stripe lookup keys, shared with the catalog and `npm run stripe:setup`.
export { lookupKeyFor, tierIdForLookupKey } from './catalog.ts';

export interface StripeProviderOptions {
  secretKey: string;
  /** The endpoint's signing secret (whsec_…); surrounding whitespace from a pasted value is ignored. */
  webhookSecret: string;
  /** Where the SDK sends its calls (a fake or stripe-mock in tests); Stripe's API when unset. */
  host?: string;
  port?: number;
  protocol?: 'http' | 'https';
  /** Set for Stripe's embedded Checkout (Stripe.js in our page) instead of the hosted redirect. */
  embeddedCheckout?: { publishableKey: string };
  logger?: Logger;
}

/** Stripe's list filter takes at most this many lookup keys per call. */
const LOOKUP_KEYS_PER_CALL = 10;

/** The SDK client as the contract configures it: retries stated (the README and source disagree), no telemetry. */
export function createStripeClient(options: Pick<StripeProviderOptions, 'secretKey' | 'host' | 'port' | 'protocol'>): Stripe {
  return new Stripe(options.secretKey, {
    maxNetworkRetries: 2,
    telemetry: false,
    ...(options.host ? { host: options.host } : {}),
    ...(options.port ? { port: options.port } : {}),
    ...(options.protocol ? { protocol: options.protocol } : {}),
  });
}

/** Host, port and protocol of an API base URL (STRIPE_API_URL), as the SDK's options take them. */
export function stripeEndpoint(apiUrl: string): { host: string; port: number; protocol: 'http' | 'https' } {
  const url = new URL(apiUrl);
  const protocol = url.protocol === 'http:' ? 'http' : 'https';
  return { host: url.hostname, port: url.port ? Number(url.port) : protocol === 'http' ? 80 : 443, protocol };
}

/** True for Stripe's "No such …" answer, which the port reports as null. */
export function isResourceMissing(err: unknown): boolean {
  return err instanceof Stripe.errors.StripeError && err.code === 'resource_missing';
}

async function orNull<T>(call: Promise<T>): Promise<T | null> {
  try {
    return await call;
  } catch (err) {
    if (isResourceMissing(err)) return null;
    throw err;
  }
}

const date = (seconds: number | null | undefined) => (typeof seconds === 'number' ? new Date(seconds * 1000) : null);
const idOf = (ref: string | { id: string } | null) => (typeof ref === 'string' ? ref : (ref?.id ?? null));
/** The SDK's enums are open (any string may come back): narrow them to the values the port knows. */
const oneOf = <T extends string>(value: string | null | undefined, known: readonly T[]): T | undefined => known.find((k) => k === value);

const intervalOf = (price: Stripe.Price) => oneOf(price.recurring?.interval, ['month', 'year'] as const) ?? null;

function toPrice(price: Stripe.Price): ProviderPrice {
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

/** What we expand on every subscription we read: the newest invoice, and a schedule's phases with their prices. */
const SUBSCRIPTION_EXPAND = ['latest_invoice', 'schedule.phases.items.price'];

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

function toSubscription(subscription: Stripe.Subscription, log?: Logger): ProviderSubscription {
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
    metadata: subscription.metadata,
  };
}

/** Null for setup sessions: we never create them, so they are not ours to read as payments. */
function toCheckoutSession(session: Stripe.Checkout.Session): ProviderCheckoutSession | null {
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

function checkoutParams(input: CheckoutRequest, embedded: boolean): Stripe.Checkout.SessionCreateParams {
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
      ? { subscription_data: { metadata: input.metadata } }
      : { payment_intent_data: { metadata: input.metadata } }),
    allow_promotion_codes: true,
    // Embedded Checkout stays on our page, so it has one return URL and no cancel URL.
    ...(embedded
      ? { ui_mode: 'embedded_page', return_url: input.successUrl }
      : { success_url: input.successUrl, cancel_url: input.cancelUrl }),
  };
}

/** The payment provider on Stripe's API. */
export function createStripeProvider(options: StripeProviderOptions): PaymentProvider {
  const stripe = createStripeClient(options);
  const webhookSecret = options.webhookSecret.trim();
  const log = options.logger;

  return {
    kind: 'stripe',
    // A live key moves money; test keys (and restricted test keys) do not.
    mode: /^(sk|rk)_live_/.test(options.secretKey) ? 'live' : 'test',

    async pricesByLookupKeys(keys) {
      const found: ProviderPrice[] = [];
      for (let i = 0; i < keys.length; i += LOOKUP_KEYS_PER_CALL) {
        const batch = keys.slice(i, i + LOOKUP_KEYS_PER_CALL);
        // A lookup key names one price in the account, so a batch fits in one page (10 by default).
        const page = await stripe.prices.list({ lookup_keys: [...batch], active: true, expand: ['data.product'] });
        found.push(...page.data.map(toPrice));
      }
      const missing = keys.filter((key) => !found.some((p) => p.lookupKey === key));
      if (missing.length) log?.warn({ missing }, 'stripe: no active price for these lookup keys (run npm run stripe:setup)');
      return found;
    },

    async createCustomer({ email, userId, idempotencyKey }) {
      const customer = await stripe.customers.create({ email, metadata: { userId } }, { idempotencyKey });
      return { id: customer.id };
    },

    async createCheckoutSession(input) {
      const embedded = options.embeddedCheckout;
      const params = checkoutParams(input, Boolean(embedded));
      const session = await stripe.checkout.sessions.create(params, input.idempotencyKey ? { idempotencyKey: input.idempotencyKey } : {});
      if (embedded) {
        if (!session.client_secret) throw new Error(`Stripe checkout session ${session.id} came back without a client secret`);
        return { id: session.id, clientSecret: session.client_secret, publishableKey: embedded.publishableKey };
      }
      if (!session.url) throw new Error(`Stripe checkout session ${session.id} came back without a URL`);
      return { id: session.id, url: session.url };
    },

    async retrieveCheckoutSession(id) {
      // The port reads ids only (the service re-reads the subscription), so nothing is expanded.
      const session = await orNull(stripe.checkout.sessions.retrieve(id));
      return session && toCheckoutSession(session);
    },

    async retrieveSubscription(id) {
      const subscription = await orNull(stripe.subscriptions.retrieve(id, { expand: SUBSCRIPTION_EXPAND }));
      return subscription && toSubscription(subscription, log);
    },

    async listSubscriptions(customerId) {
      // Without status 'all' Stripe leaves canceled subscriptions out; the SDK pages through the rest.
      const all = await stripe.subscriptions.list({ customer: customerId, status: 'all', limit: 100 }).autoPagingToArray({ limit: 10_000 });
      // A list cannot expand a schedule's prices (four levels at most): read those few again.
      return Promise.all(
        all.map(async (s) =>
          s.schedule
            ? toSubscription(await stripe.subscriptions.retrieve(s.id, { expand: SUBSCRIPTION_EXPAND }), log)
            : toSubscription(s, log),
        ),
      );
    },

    async setCancelAtPeriodEnd(subscriptionId, cancel) {
      const expand = SUBSCRIPTION_EXPAND;
      if (cancel) return toSubscription(await stripe.subscriptions.update(subscriptionId, { cancel_at_period_end: true, expand }), log);
      // Flexible billing (the portal) schedules the end through cancel_at alone: undo clears that too.
      const current = await stripe.subscriptions.retrieve(subscriptionId);
      const params: Stripe.SubscriptionUpdateParams = {
        cancel_at_period_end: false,
        ...(current.cancel_at ? { cancel_at: '' } : {}),
        expand,
      };
      return toSubscription(await stripe.subscriptions.update(subscriptionId, params), log);
    },

    async cancelNow(subscriptionId) {
      return toSubscription(await stripe.subscriptions.cancel(subscriptionId), log);
    },

    async changePrice(subscriptionId, { priceId, idempotencyKey }) {
      const current = await stripe.subscriptions.retrieve(subscriptionId);
      const item = current.items.data[0];
      if (!item) throw new Error(`Stripe subscription ${subscriptionId} has no items`);
      // always_invoice bills the prorated difference now; pending_if_incomplete applies the change only once that is paid.
      const updated = await stripe.subscriptions.update(
        subscriptionId,
        {
          items: [{ id: item.id, price: priceId }],
          proration_behavior: 'always_invoice',
          payment_behavior: 'pending_if_incomplete',
          expand: SUBSCRIPTION_EXPAND,
        },
        { idempotencyKey },
      );
      return { subscription: toSubscription(updated, log), paid: !updated.pending_update };
    },

    async schedulePrice(subscriptionId, price) {
      const current = await stripe.subscriptions.retrieve(subscriptionId, { expand: ['schedule'] });
      const existing = current.schedule && typeof current.schedule === 'object' ? current.schedule : null;
      const running = existing && ['active', 'not_started'].includes(existing.status) ? existing : null;
      if (!price) {
        if (running) await stripe.subscriptionSchedules.release(running.id);
        return toSubscription(await stripe.subscriptions.retrieve(subscriptionId, { expand: SUBSCRIPTION_EXPAND }), log);
      }
      const item = current.items.data[0];
      if (!item) throw new Error(`Stripe subscription ${subscriptionId} has no items`);
      const schedule = running ?? (await stripe.subscriptionSchedules.create({ from_subscription: subscriptionId }));
      // The current phase runs to the period end on today's price; the next one renews on the new price, then the schedule lets go.
      await stripe.subscriptionSchedules.update(schedule.id, {
        end_behavior: 'release',
        proration_behavior: 'none',
        phases: [
          {
            items: [{ price: item.price.id, quantity: item.quantity ?? 1 }],
            start_date: schedule.current_phase?.start_date ?? item.current_period_start,
            end_date: item.current_period_end,
          },
          { items: [{ price: price.id, quantity: 1 }], duration: { interval: price.interval, interval_count: 1 } },
        ],
      });
      return toSubscription(await stripe.subscriptions.retrieve(subscriptionId, { expand: SUBSCRIPTION_EXPAND }), log);
    },

    async createPortalSession({ customerId, returnUrl }) {
      const session = await stripe.billingPortal.sessions.create({ customer: customerId, return_url: returnUrl });
      return { url: session.url };
    },

    async refundCheckout({ sessionId, idempotencyKey, metadata }) {
      const session = await stripe.checkout.sessions.retrieve(sessionId);
      const paymentIntent = idOf(session.payment_intent);
      if (!paymentIntent) throw new Error(`Stripe checkout session ${sessionId} has no payment to refund`);
      try {
        const refund = await stripe.refunds.create({ payment_intent: paymentIntent, metadata }, { idempotencyKey });
        return { id: refund.id };
      } catch (err) {
        // Refunded already (Stripe forgets idempotency keys after a day): that refund is the answer.
        if (!(err instanceof Stripe.errors.StripeError) || err.code !== 'charge_already_refunded') throw err;
        const [earlier] = (await stripe.refunds.list({ payment_intent: paymentIntent, limit: 1 })).data;
        if (!earlier) throw err;
        return { id: earlier.id };
      }
    },

    async verifyWebhook(rawBody, signature) {
      if (!signature) throw new WebhookSignatureError('No Stripe-Signature header.');
      let event: Stripe.Event;
      try {
        event = await stripe.webhooks.constructEventAsync(rawBody, signature, webhookSecret);
      } catch (err) {
        throw new WebhookSignatureError(err instanceof Error ? err.message : 'The signature does not match.');
      }
      return {
        object: 'event',
        id: event.id,
        type: event.type,
        created: event.created,
        data: { object: event.data.object as unknown as Record<string, unknown> },
      };
    },
  };
}
