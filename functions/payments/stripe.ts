/**
 * The Stripe adapter of the payment provider port, on the official SDK (stripe-node 23, API
 * 2026-10-28.endive), following `../shared/reference/stripe-contract.md` call by call. Stripe stays
 * the source of truth: nothing is cached here, and every error other than "no such object" is thrown
 * as the SDK's typed error (`Stripe.errors.StripeError` and subclasses) for the service to map.
 *
 * Split by job: `stripe-client.ts` (the SDK client and its "no such object" answer), `stripe-objects.ts`
 * (Stripe's objects read as the port's), `stripe-subscriptions.ts` (the subscription calls); this
 * file assembles the provider and keeps the calls on prices, customers, checkout, portal, refunds
 * and webhooks.
 */
import Stripe from 'stripe';
import type { Logger } from '../platform/logger.ts';
import { WebhookSignatureError, type PaymentProvider, type ProviderPrice } from './provider.ts';
import { createStripeClient, orNull, type StripeConnectionOptions } from './stripe-client.ts';
import { checkoutParams, idOf, toCheckoutSession, toPrice } from './stripe-objects.ts';
import { createStripeSubscriptionCalls } from './stripe-subscriptions.ts';

// One mapping between our tier ids and Stripe lookup keys, shared with the catalog and `npm run stripe:setup`.
export { lookupKeyFor, tierIdForLookupKey } from './catalog.ts';
export { createStripeClient, isResourceMissing, stripeEndpoint } from './stripe-client.ts';

export interface StripeProviderOptions extends StripeConnectionOptions {
  /** The endpoint's signing secret (whsec_…); surrounding whitespace from a pasted value is ignored. */
  webhookSecret: string;
  /** Set for Stripe's embedded Checkout (Stripe.js in our page) instead of the hosted redirect. */
  embeddedCheckout?: { publishableKey: string };
  logger?: Logger;
}

/** Stripe's list filter takes at most this many lookup keys per call. */
const LOOKUP_KEYS_PER_CALL = 10;

/** Coupons (offers) and refunds (refused purchases), each safe to ask again. */
function couponsAndRefunds(stripe: ReturnType<typeof createStripeClient>) {
  return {
    async createCoupon(coupon) {
      const params: Stripe.CouponCreateParams = {
        id: coupon.id,
        name: coupon.name,
        duration: coupon.duration,
        ...(coupon.duration === 'repeating' ? { duration_in_months: coupon.durationInMonths ?? 1 } : {}),
        ...(coupon.percentOff ? { percent_off: coupon.percentOff } : { amount_off: coupon.amountOff ?? 0, currency: coupon.currency }),
      };
      try {
        return { id: (await stripe.coupons.create(params)).id };
      } catch (err) {
        // Made already under our id (a retry): that coupon is the answer.
        if (!(err instanceof Stripe.errors.StripeError) || err.code !== 'resource_already_exists') throw err;
        return { id: (await stripe.coupons.retrieve(coupon.id)).id };
      }
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
  } satisfies Pick<PaymentProvider, 'createCoupon' | 'refundCheckout'>;
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

    ...createStripeSubscriptionCalls(stripe, log),

    async createPortalSession({ customerId, returnUrl }) {
      const session = await stripe.billingPortal.sessions.create({ customer: customerId, return_url: returnUrl });
      return { url: session.url };
    },

    ...couponsAndRefunds(stripe),

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
