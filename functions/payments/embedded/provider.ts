/**
 * The embedded test payment provider: the default when no Stripe key is configured. It keeps what
 * Stripe would keep (customers, checkout and portal sessions, subscriptions) in its own tables
 * (store.ts), serves a checkout page and a billing portal on our origin (clearly marked as test
 * pages), takes Stripe's test card numbers, and runs subscriptions with real periods that renew,
 * fail and end on a clock the tests can move. Every change raises the event Stripe would send,
 * delivered to the same handler as Stripe's webhooks (events.ts). This file assembles the parts:
 * checkout.ts, subscriptions.ts (plan changes as Stripe bills them, proration.ts), clock.ts and
 * portal.ts.
 */
import type Stripe from 'stripe';
import { CURRENCY, PLAN_PRICES } from '../catalog.ts';
import { WebhookSignatureError, type PaymentProvider, type ProviderEvent, type ProviderPrice } from '../provider.ts';
import { createCheckouts } from './checkout.ts';
import { createTestClock } from './clock.ts';
import type { EmbeddedContext, EmbeddedProviderOptions } from './context.ts';
import { createEventQueue } from './events.ts';
import { newId, priceIdFor } from './objects.ts';
import { createPortal } from './portal.ts';
import { createEmbeddedStore } from './store.ts';
import { createSubscriptionOps } from './subscriptions.ts';

export type { EmbeddedProviderOptions } from './context.ts';
export { cardErrors, type CardInput } from './checkout.ts';

export function createEmbeddedProvider({ db, siteUrl, webhookSecret, logger, clock = () => new Date() }: EmbeddedProviderOptions) {
  // Signatures are checked by the Stripe SDK, as Stripe's own are; it loads with the first signed
  // event (tests and scripts send them), not at every start of the embedded default.
  let signer: Promise<Stripe> | undefined;
  const sdk = () => (signer ??= import('stripe').then(({ default: Sdk }) => new Sdk('sk_test_embedded')));
  const events = createEventQueue({ db, logger, clock });
  const context: EmbeddedContext = { db, siteUrl, logger, clock, events };
  const checkouts = createCheckouts(context);
  const subscriptions = createSubscriptionOps(context);
  const testClock = createTestClock(context);
  const portal = createPortal(context, subscriptions, testClock);

  const provider: PaymentProvider = {
    kind: 'embedded',
    mode: 'test',

    async pricesByLookupKeys(keys) {
      return PLAN_PRICES.filter((p) => keys.includes(p.lookupKey)).map((p): ProviderPrice => ({
        id: priceIdFor(p.lookupKey),
        lookupKey: p.lookupKey,
        unitAmount: p.amount,
        currency: CURRENCY,
        interval: p.interval,
        productName: p.name,
      }));
    },

    async createCustomer({ email, userId, idempotencyKey }) {
      return { id: await createEmbeddedStore(db).addCustomer({ id: newId('cus'), email, userId, idempotencyKey }) };
    },

    createCheckoutSession: checkouts.createCheckoutSession,
    retrieveCheckoutSession: checkouts.retrieveCheckoutSession,
    retrieveSubscription: subscriptions.retrieveSubscription,
    listSubscriptions: subscriptions.listSubscriptions,
    setCancelAtPeriodEnd: subscriptions.setCancelAtPeriodEnd,
    cancelNow: subscriptions.cancelNow,
    changePrice: subscriptions.changePrice,
    schedulePrice: subscriptions.schedulePrice,
    createPortalSession: portal.createPortalSession,
    createCoupon: subscriptions.createCoupon,
    applyCoupon: subscriptions.applyCoupon,
    refundCheckout: checkouts.refundCheckout,

    async verifyWebhook(rawBody, signature) {
      if (!signature) throw new WebhookSignatureError('No Stripe-Signature header.');
      const { webhooks } = await sdk();
      try {
        return (await webhooks.constructEventAsync(rawBody, signature, webhookSecret)) as unknown as ProviderEvent;
      } catch (err) {
        throw new WebhookSignatureError(err instanceof Error ? err.message : 'The signature does not match.');
      }
    },
  };

  return {
    provider,
    /** Sets the handler events go to (the billing service's) and delivers what is waiting. */
    connect: events.connect,
    deliverPending: events.deliverPending,
    advance: testClock.advance,
    /** Stops delivering events (after the one under way), before the database closes. */
    stop: events.stop,
    testPages: {
      describeCheckout: checkouts.describeCheckout,
      pay: checkouts.pay,
      describePortal: portal.describePortal,
      portalAction: portal.portalAction,
    },
  };
}

export type EmbeddedProvider = ReturnType<typeof createEmbeddedProvider>;
