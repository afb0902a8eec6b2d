/**
 * Contract tests of the Stripe adapter: the real SDK, configured by the adapter, against the
 * stateful fake in tests/support/stripe-fake.ts (no network, no database). What goes on the wire is
 * checked against the contract as well as what comes back. Longer than most test files: one file per
 * adapter keeps the contract's points together, and the setup script's tests use the same fake.
 */
import Stripe from 'stripe';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { PRICE_TIERS } from '#shared/pricing.ts';
import { setupStripe } from '../../scripts/stripe-setup.ts';
import { signedEvent, startStripeFake, type FakeSubscriptionItem, type StripeFake } from '../../tests/support/stripe-fake.ts';
import { WebhookSignatureError, type CheckoutRequest, type PaymentProvider } from './provider.ts';
import { createStripeClient, createStripeProvider, lookupKeyFor, stripeEndpoint, tierIdForLookupKey } from './stripe.ts';

const SECRET_KEY = 'sk_test_adapter';
const WEBHOOK_SECRET = 'whsec_adapter_test_secret';
const SUCCESS_URL = 'https://beacon.test/billing/success?session_id={CHECKOUT_SESSION_ID}';
const PLAN_KEYS = ['subscriber_monthly', 'subscriber_yearly', 'premium_monthly', 'premium_yearly'];

let fake: StripeFake;
let provider: PaymentProvider;

const makeProvider = (overrides: { secretKey?: string; webhookSecret?: string; embeddedCheckout?: { publishableKey: string } } = {}) =>
  createStripeProvider({
    secretKey: SECRET_KEY,
    webhookSecret: WEBHOOK_SECRET,
    host: fake.host,
    port: fake.port,
    protocol: fake.protocol,
    ...overrides,
  });
const lastRequest = (method: string, path: string) => fake.requests.filter((r) => r.method === method && r.path === path).at(-1);
const priceId = async (lookupKey: string) => (await provider.pricesByLookupKeys([lookupKey]))[0]!.id;

function makeCheckout(overrides: Partial<CheckoutRequest> & Pick<CheckoutRequest, 'customerId' | 'line'>): CheckoutRequest {
  return {
    userId: 'user-1',
    mode: 'subscription',
    metadata: { userId: 'user-1', plan: 'subscriber', interval: 'month' },
    successUrl: SUCCESS_URL,
    cancelUrl: 'https://beacon.test/pricing',
    ...overrides,
  };
}

/** A customer with a paid checkout and its active subscription. */
async function subscribe(lookupKey = 'subscriber_monthly', userId = 'user-1') {
  const { id: customerId } = await provider.createCustomer({
    email: `${userId}@beacon.test`,
    userId,
    idempotencyKey: `customer-create-${userId}`,
  });
  const session = await provider.createCheckoutSession(makeCheckout({ customerId, userId, line: { priceId: await priceId(lookupKey) } }));
  const { subscription } = fake.completeSession(session.id);
  return { customerId, sessionId: session.id, subscriptionId: subscription!.id, fakeSubscription: subscription! };
}

beforeEach(async () => {
  fake = await startStripeFake();
  provider = makeProvider();
});

afterEach(() => fake.close());

describe('Stripe adapter: catalog', () => {
  it('finds active plan prices by lookup key with amounts, intervals and product names', async () => {
    const prices = await provider.pricesByLookupKeys(PLAN_KEYS);
    const byKey = Object.fromEntries(prices.map((p) => [p.lookupKey, p]));
    expect(Object.keys(byKey).sort()).toEqual([...PLAN_KEYS].sort());
    expect(byKey.subscriber_yearly).toMatchObject({ unitAmount: 9590, currency: 'usd', interval: 'year', productName: 'Subscriber' });
    expect(byKey.premium_monthly).toMatchObject({ unitAmount: 1999, interval: 'month', productName: 'Premium' });
    expect(lastRequest('GET', '/v1/prices')!.params).toEqual({ lookup_keys: PLAN_KEYS, active: 'true', expand: ['data.product'] });
  });

  it('asks for at most ten lookup keys per call and finds the prices of every batch', async () => {
    const extra = Array.from({ length: 9 }, (_, i) => `extra_item_${i}`);
    for (const key of extra) fake.addPrice({ unit_amount: 500, lookup_key: key, productName: key });
    const prices = await provider.pricesByLookupKeys([...PLAN_KEYS, ...extra]);
    expect(prices.map((p) => p.lookupKey).sort()).toEqual([...PLAN_KEYS, ...extra].sort());
    const calls = fake.requests.filter((r) => r.path === '/v1/prices');
    expect(calls.map((r) => (r.params.lookup_keys as string[]).length)).toEqual([10, 3]);
    expect(prices.find((p) => p.lookupKey === 'extra_item_0')).toMatchObject({ interval: null, unitAmount: 500 });
  });

  it('leaves archived prices out', async () => {
    fake.addPrice({ unit_amount: 799, lookup_key: 'old_subscriber_monthly', interval: 'month', active: false });
    const prices = await provider.pricesByLookupKeys(['old_subscriber_monthly', 'premium_monthly']);
    expect(prices.map((p) => p.lookupKey)).toEqual(['premium_monthly']);
  });
});

describe('Stripe adapter: customers and idempotency', () => {
  it('creates a customer with the user id in metadata under the given idempotency key, and a retry answers the same customer', async () => {
    const input = { email: 'ada@beacon.test', userId: 'user-ada', idempotencyKey: 'customer-create-user-ada' };
    const first = await provider.createCustomer(input);
    const again = await provider.createCustomer(input);
    expect(again.id).toBe(first.id);
    expect(fake.state.customers.size).toBe(1);
    const sent = fake.requests.filter((r) => r.path === '/v1/customers');
    expect(sent.map((r) => r.idempotencyKey)).toEqual([input.idempotencyKey, input.idempotencyKey]);
    expect(sent[0]!.params).toEqual({ email: 'ada@beacon.test', metadata: { userId: 'user-ada' } });
  });

  it('raises Stripe’s idempotency error when a key is reused with other parameters', async () => {
    await provider.createCustomer({ email: 'ada@beacon.test', userId: 'user-ada', idempotencyKey: 'key-1' });
    const reuse = provider.createCustomer({ email: 'bob@beacon.test', userId: 'user-bob', idempotencyKey: 'key-1' });
    await expect(reuse).rejects.toBeInstanceOf(Stripe.errors.StripeIdempotencyError);
  });

  it('retries a failed call twice under the same idempotency key', async () => {
    fake.failNext(2);
    const customer = await provider.createCustomer({ email: 'ada@beacon.test', userId: 'user-ada', idempotencyKey: 'key-retry' });
    const sent = fake.requests.filter((r) => r.path === '/v1/customers');
    expect(sent.map((r) => r.idempotencyKey)).toEqual(['key-retry', 'key-retry', 'key-retry']);
    expect([...fake.state.customers.keys()]).toEqual([customer.id]);
  });

  it('gives up after the second retry and throws the SDK’s error', async () => {
    fake.failNext(3);
    await expect(provider.createCustomer({ email: 'a@beacon.test', userId: 'u', idempotencyKey: 'k' })).rejects.toBeInstanceOf(
      Stripe.errors.StripeAPIError,
    );
    expect(fake.requests.filter((r) => r.path === '/v1/customers')).toHaveLength(3);
  });

  it('throws errors other than a missing object instead of answering null', async () => {
    const wrongKey = makeProvider({ secretKey: 'rk_test_restricted' });
    await expect(wrongKey.retrieveSubscription('sub_any')).rejects.toBeInstanceOf(Stripe.errors.StripeAuthenticationError);
    await expect(wrongKey.pricesByLookupKeys(PLAN_KEYS)).rejects.toBeInstanceOf(Stripe.errors.StripeAuthenticationError);
  });

  it('sends the pinned API version and no telemetry header', async () => {
    await provider.pricesByLookupKeys(PLAN_KEYS);
    await provider.pricesByLookupKeys(PLAN_KEYS);
    expect(Stripe.API_VERSION).toBe('2026-10-28.endive');
    expect(fake.requests.map((r) => r.stripeVersion)).toEqual([Stripe.API_VERSION, Stripe.API_VERSION]);
    expect(fake.requests.every((r) => r.headers['x-stripe-client-telemetry'] === undefined)).toBe(true);
  });
});

describe('Stripe adapter: checkout', () => {
  it('creates a subscription checkout with exactly the contract’s parameters', async () => {
    const { id: customerId } = await provider.createCustomer({ email: 'ada@beacon.test', userId: 'user-1', idempotencyKey: 'c-1' });
    const price = await priceId('subscriber_monthly');
    const session = await provider.createCheckoutSession(
      makeCheckout({ customerId, line: { priceId: price }, idempotencyKey: 'checkout-1' }),
    );
    const sent = lastRequest('POST', '/v1/checkout/sessions')!;
    expect(sent.params).toEqual({
      mode: 'subscription',
      customer: customerId,
      line_items: [{ price, quantity: '1' }],
      client_reference_id: 'user-1',
      metadata: { userId: 'user-1', plan: 'subscriber', interval: 'month' },
      subscription_data: { metadata: { userId: 'user-1', plan: 'subscriber', interval: 'month' } },
      allow_promotion_codes: 'true',
      success_url: SUCCESS_URL,
      cancel_url: 'https://beacon.test/pricing',
    });
    expect(sent.idempotencyKey).toBe('checkout-1');
    expect(sent.stripeVersion).toBe(Stripe.API_VERSION);
    expect(fake.state.sessions.get(session.id)!.success_url).toContain('session_id={CHECKOUT_SESSION_ID}');
    expect(session).toEqual({ id: expect.stringMatching(/^cs_test_/), url: `https://checkout.stripe.com/c/pay/${session.id}` });
  });

  it('creates an embedded Checkout session when configured: a return URL, no cancel URL, and the client secret for Stripe.js', async () => {
    const embedded = makeProvider({ embeddedCheckout: { publishableKey: 'pk_test_adapter' } });
    const { id: customerId } = await embedded.createCustomer({ email: 'ada@beacon.test', userId: 'user-1', idempotencyKey: 'c-1' });
    const session = await embedded.createCheckoutSession(makeCheckout({ customerId, line: { priceId: await priceId('premium_monthly') } }));
    const sent = lastRequest('POST', '/v1/checkout/sessions')!.params;
    expect(sent).toMatchObject({ ui_mode: 'embedded_page', return_url: SUCCESS_URL });
    expect(sent).not.toHaveProperty('success_url');
    expect(sent).not.toHaveProperty('cancel_url');
    expect(session).toEqual({ id: session.id, clientSecret: `${session.id}_secret_fake`, publishableKey: 'pk_test_adapter' });
  });

  it('creates a one-time checkout with an inline price and the metadata on the payment', async () => {
    const { id: customerId } = await provider.createCustomer({ email: 'ada@beacon.test', userId: 'user-1', idempotencyKey: 'c-1' });
    const metadata = { userId: 'user-1', itemType: 'market', itemSlug: 'audit-kit', itemTitle: 'Audit kit' };
    const line = { unitAmount: 2500, currency: 'usd', productName: 'Audit kit' };
    const session = await provider.createCheckoutSession(makeCheckout({ customerId, mode: 'payment', line, metadata }));
    const sent = lastRequest('POST', '/v1/checkout/sessions')!.params;
    expect(sent.line_items).toEqual([
      { price_data: { currency: 'usd', unit_amount: '2500', product_data: { name: 'Audit kit' } }, quantity: '1' },
    ]);
    expect(sent.payment_intent_data).toEqual({ metadata });
    expect(sent).not.toHaveProperty('subscription_data');
    expect(sent).not.toHaveProperty('payment_method_types');
    fake.completeSession(session.id);
    expect(await provider.retrieveCheckoutSession(session.id)).toMatchObject({
      mode: 'payment',
      status: 'complete',
      amountTotal: 2500,
      metadata,
    });
  });

  it('retrieves a session open before payment and complete with its subscription after', async () => {
    const { id: customerId } = await provider.createCustomer({ email: 'ada@beacon.test', userId: 'user-1', idempotencyKey: 'c-1' });
    const session = await provider.createCheckoutSession(makeCheckout({ customerId, line: { priceId: await priceId('premium_yearly') } }));
    expect(await provider.retrieveCheckoutSession(session.id)).toEqual({
      id: session.id,
      mode: 'subscription',
      status: 'open',
      paymentStatus: 'unpaid',
      customerId,
      subscriptionId: null,
      clientReferenceId: 'user-1',
      metadata: { userId: 'user-1', plan: 'subscriber', interval: 'month' },
      amountTotal: 19190,
    });
    const { subscription } = fake.completeSession(session.id);
    expect(await provider.retrieveCheckoutSession(session.id)).toMatchObject({
      status: 'complete',
      paymentStatus: 'paid',
      subscriptionId: subscription!.id,
    });
  });

  it('answers null for a setup session, which is never ours', async () => {
    const { sessionId } = await subscribe();
    Object.assign(fake.state.sessions.get(sessionId)!, { mode: 'setup' });
    expect(await provider.retrieveCheckoutSession(sessionId)).toBeNull();
  });

  it('answers null for a checkout session or subscription Stripe does not know', async () => {
    expect(await provider.retrieveCheckoutSession('cs_test_unknown')).toBeNull();
    expect(await provider.retrieveSubscription('sub_unknown')).toBeNull();
  });
});

describe('Stripe adapter: refunds and mode', () => {
  async function paidItem() {
    const { id: customerId } = await provider.createCustomer({ email: 'ada@beacon.test', userId: 'user-1', idempotencyKey: 'c-1' });
    const line = { unitAmount: 2500, currency: 'usd', productName: 'Audit kit' };
    const metadata = { userId: 'user-1', itemType: 'market', itemSlug: 'audit-kit', itemTitle: 'Audit kit' };
    const session = await provider.createCheckoutSession(makeCheckout({ customerId, mode: 'payment', line, metadata }));
    fake.completeSession(session.id);
    return session.id;
  }

  it('refunds a paid one-time checkout in full through its payment intent, once per idempotency key', async () => {
    const sessionId = await paidItem();
    const input = { sessionId, idempotencyKey: `refund-${sessionId}`, metadata: { reason: 'item_unavailable' } };
    const first = await provider.refundCheckout(input);
    const again = await provider.refundCheckout(input);
    expect(again).toEqual(first);
    expect([...fake.state.refunds.values()]).toEqual([
      expect.objectContaining({
        id: first.id,
        amount: 2500,
        payment_intent: fake.state.sessions.get(sessionId)!.payment_intent,
        metadata: { reason: 'item_unavailable' },
      }),
    ]);
    const sent = fake.requests.filter((r) => r.method === 'POST' && r.path === '/v1/refunds');
    expect(sent.map((r) => r.idempotencyKey)).toEqual([`refund-${sessionId}`, `refund-${sessionId}`]);
    expect(sent[0]!.params).toEqual({
      payment_intent: fake.state.sessions.get(sessionId)!.payment_intent,
      metadata: { reason: 'item_unavailable' },
    });
  });

  it('answers the earlier refund once Stripe has forgotten the idempotency key (a day later)', async () => {
    const sessionId = await paidItem();
    const first = await provider.refundCheckout({ sessionId, idempotencyKey: `refund-${sessionId}`, metadata: {} });
    fake.state.idempotency.clear();
    expect(await provider.refundCheckout({ sessionId, idempotencyKey: `refund-${sessionId}`, metadata: {} })).toEqual(first);
    expect(fake.state.refunds.size).toBe(1);
  });

  it('refuses to refund a checkout that took no payment', async () => {
    const { sessionId } = await subscribe();
    await expect(provider.refundCheckout({ sessionId, idempotencyKey: `refund-${sessionId}`, metadata: {} })).rejects.toThrow(/no payment/);
  });

  it('is in test mode with test keys and live mode with live keys', () => {
    expect(provider.mode).toBe('test');
    expect(makeProvider({ secretKey: 'rk_test_restricted' }).mode).toBe('test');
    expect(makeProvider({ secretKey: 'sk_live_real_money' }).mode).toBe('live');
    expect(makeProvider({ secretKey: 'rk_live_restricted' }).mode).toBe('live');
  });
});

describe('Stripe adapter: subscriptions', () => {
  it('reads a subscription: status, first item’s price, period end and the metadata copied from checkout', async () => {
    const { subscriptionId, customerId, fakeSubscription } = await subscribe('premium_monthly');
    const item = fakeSubscription.items.data[0]!;
    expect(await provider.retrieveSubscription(subscriptionId)).toEqual({
      id: subscriptionId,
      customerId,
      status: 'active',
      cancelAtPeriodEnd: false,
      cancelAt: null,
      currentPeriodEnd: new Date(item.current_period_end * 1000),
      endedAt: null,
      price: { id: item.price.id, lookupKey: 'premium_monthly', unitAmount: 1999, interval: 'month' },
      scheduledChange: null,
      latestInvoice: { id: fakeSubscription.latest_invoice, amountPaid: 1999, billingReason: 'subscription_create' },
      discount: null,
      trialEnd: null,
      metadata: { userId: 'user-1', plan: 'subscriber', interval: 'month' },
    });
    expect(lastRequest('GET', `/v1/subscriptions/${subscriptionId}`)!.params).toEqual({
      expand: ['latest_invoice', 'discounts', 'schedule.phases.items.price'],
    });
  });

  it('takes the earliest period end over all items', async () => {
    const { subscriptionId, fakeSubscription } = await subscribe('subscriber_yearly');
    const first = fakeSubscription.items.data[0]!;
    const earlier = first.current_period_end - 30 * 86_400;
    fakeSubscription.items.data.push({ ...first, id: 'si_second', current_period_end: earlier });
    fakeSubscription.items.data.push({ ...first, id: 'si_third', current_period_end: first.current_period_end + 86_400 });
    expect((await provider.retrieveSubscription(subscriptionId))!.currentPeriodEnd).toEqual(new Date(earlier * 1000));
  });

  it('falls back to the top-level period end only when the items carry none', async () => {
    const { subscriptionId, fakeSubscription } = await subscribe();
    const item = fakeSubscription.items.data[0]!;
    fakeSubscription.current_period_end = item.current_period_end + 86_400;
    expect((await provider.retrieveSubscription(subscriptionId))!.currentPeriodEnd).toEqual(new Date(item.current_period_end * 1000));
    delete (item as Partial<FakeSubscriptionItem>).current_period_end;
    expect((await provider.retrieveSubscription(subscriptionId))!.currentPeriodEnd).toEqual(
      new Date(fakeSubscription.current_period_end * 1000),
    );
  });

  it('reads a status newer than this code as incomplete, which grants nothing', async () => {
    const { subscriptionId, fakeSubscription } = await subscribe();
    Object.assign(fakeSubscription, { status: 'frozen_by_new_api' });
    expect((await provider.retrieveSubscription(subscriptionId))!.status).toBe('incomplete');
  });

  it('lists all of a customer’s subscriptions, canceled ones included', async () => {
    const first = await subscribe('subscriber_monthly');
    const session = await provider.createCheckoutSession(
      makeCheckout({ customerId: first.customerId, line: { priceId: await priceId('premium_monthly') } }),
    );
    const second = fake.completeSession(session.id).subscription!;
    await provider.cancelNow(first.subscriptionId);
    await subscribe('premium_yearly', 'someone-else');
    const list = await provider.listSubscriptions(first.customerId);
    expect(list.map((s) => [s.id, s.status]).sort()).toEqual(
      [
        [first.subscriptionId, 'canceled'],
        [second.id, 'active'],
      ].sort(),
    );
    expect(lastRequest('GET', '/v1/subscriptions')!.params).toMatchObject({ customer: first.customerId, status: 'all' });
  });

  it('schedules the cancel at the period end and withdraws it', async () => {
    const { subscriptionId } = await subscribe();
    expect(await provider.setCancelAtPeriodEnd(subscriptionId, true)).toMatchObject({ status: 'active', cancelAtPeriodEnd: true });
    expect(lastRequest('POST', `/v1/subscriptions/${subscriptionId}`)!.params).toMatchObject({ cancel_at_period_end: 'true' });
    expect(await provider.setCancelAtPeriodEnd(subscriptionId, false)).toMatchObject({ cancelAtPeriodEnd: false, cancelAt: null });
    expect(lastRequest('POST', `/v1/subscriptions/${subscriptionId}`)!.params).toEqual({
      cancel_at_period_end: 'false',
      expand: ['latest_invoice', 'discounts', 'schedule.phases.items.price'],
    });
  });

  it('withdraws a cancel scheduled through cancel_at (flexible billing) by clearing cancel_at', async () => {
    const { subscriptionId, fakeSubscription } = await subscribe();
    fakeSubscription.cancel_at = fakeSubscription.items.data[0]!.current_period_end;
    expect((await provider.retrieveSubscription(subscriptionId))!.cancelAt).toEqual(new Date(fakeSubscription.cancel_at * 1000));
    const after = await provider.setCancelAtPeriodEnd(subscriptionId, false);
    expect(lastRequest('POST', `/v1/subscriptions/${subscriptionId}`)!.params).toMatchObject({
      cancel_at_period_end: 'false',
      cancel_at: '',
    });
    expect(after).toMatchObject({ cancelAtPeriodEnd: false, cancelAt: null });
  });

  it('cancels a subscription now', async () => {
    const { subscriptionId } = await subscribe();
    const ended = await provider.cancelNow(subscriptionId);
    expect(ended.status).toBe('canceled');
    expect(ended.endedAt).toBeInstanceOf(Date);
    expect(lastRequest('DELETE', `/v1/subscriptions/${subscriptionId}`)).toBeDefined();
  });

  it('opens a portal session for the customer with the return URL', async () => {
    const { customerId } = await subscribe();
    const { url } = await provider.createPortalSession({ customerId, returnUrl: 'https://beacon.test/account' });
    expect(url).toMatch(/^https:\/\/billing\.stripe\.com\/p\/session\//);
    expect(lastRequest('POST', '/v1/billing_portal/sessions')!.params).toEqual({
      customer: customerId,
      return_url: 'https://beacon.test/account',
    });
  });
});

describe('Stripe adapter: plan changes', () => {
  const DAY = 86_400;

  it('upgrades now: the item’s price changes, the proration is invoiced and paid at once, under pending updates', async () => {
    const { subscriptionId, fakeSubscription } = await subscribe('subscriber_monthly');
    const item = fakeSubscription.items.data[0]!;
    const { subscription, paid } = await provider.changePrice(subscriptionId, {
      priceId: await priceId('premium_monthly'),
      idempotencyKey: 'plan-change-test-1',
    });
    expect(paid).toBe(true);
    const sent = lastRequest('POST', `/v1/subscriptions/${subscriptionId}`)!;
    expect(sent.params).toMatchObject({
      items: [{ id: item.id, price: await priceId('premium_monthly') }],
      proration_behavior: 'always_invoice',
      payment_behavior: 'pending_if_incomplete',
    });
    expect(sent.idempotencyKey).toBe('plan-change-test-1');
    expect(subscription.price).toMatchObject({ lookupKey: 'premium_monthly', unitAmount: 1999 });
    // Same interval: the period stays, and the difference for what is left of it (nearly all) is charged.
    expect(subscription.currentPeriodEnd).toEqual(new Date(item.current_period_end * 1000));
    expect(subscription.latestInvoice).toMatchObject({ billingReason: 'subscription_update' });
    expect(subscription.latestInvoice!.amountPaid).toBeGreaterThan(990);
    expect(subscription.latestInvoice!.amountPaid).toBeLessThanOrEqual(1000);
  });

  it('restarts the period on an interval change and charges the new price less the unused time', async () => {
    const { subscriptionId } = await subscribe('premium_monthly');
    const { subscription } = await provider.changePrice(subscriptionId, {
      priceId: await priceId('premium_yearly'),
      idempotencyKey: 'k-yearly',
    });
    expect(subscription.price.interval).toBe('year');
    expect(subscription.currentPeriodEnd.getTime()).toBeGreaterThan(Date.now() + 360 * DAY * 1000);
    expect(subscription.latestInvoice!.amountPaid).toBeGreaterThan(19190 - 1999 - 10);
    expect(subscription.latestInvoice!.amountPaid).toBeLessThan(19190 - 1990);
  });

  it('changes nothing when the upgrade’s charge is declined (a pending update Stripe keeps, not applied)', async () => {
    const { subscriptionId, customerId } = await subscribe('subscriber_monthly');
    fake.declineCharges(customerId);
    const { subscription, paid } = await provider.changePrice(subscriptionId, {
      priceId: await priceId('premium_monthly'),
      idempotencyKey: 'k-declined',
    });
    expect(paid).toBe(false);
    expect(subscription.price.lookupKey).toBe('subscriber_monthly');
    expect(fake.state.subscriptions.get(subscriptionId)!.pending_update).not.toBeNull();
  });

  it('schedules a downgrade for the period end with a subscription schedule, and the renewal applies it', async () => {
    const { subscriptionId, fakeSubscription } = await subscribe('premium_yearly');
    const item = fakeSubscription.items.data[0]!;
    const after = await provider.schedulePrice(subscriptionId, { id: await priceId('subscriber_monthly'), interval: 'month' });
    const created = lastRequest('POST', '/v1/subscription_schedules')!;
    expect(created.params).toEqual({ from_subscription: subscriptionId });
    const schedule = fakeSubscription.schedule!;
    expect(lastRequest('POST', `/v1/subscription_schedules/${schedule}`)!.params).toEqual({
      end_behavior: 'release',
      proration_behavior: 'none',
      phases: [
        {
          items: [{ price: item.price.id, quantity: '1' }],
          start_date: String(item.current_period_start),
          end_date: String(item.current_period_end),
        },
        { items: [{ price: await priceId('subscriber_monthly'), quantity: '1' }], duration: { interval: 'month', interval_count: '1' } },
      ],
    });
    // Nothing changes now: the year already paid for runs out on Premium.
    expect(after.price.lookupKey).toBe('premium_yearly');
    expect(after.scheduledChange).toEqual({
      price: { id: await priceId('subscriber_monthly'), lookupKey: 'subscriber_monthly', unitAmount: 999, interval: 'month' },
      at: new Date(item.current_period_end * 1000),
    });
    expect((await provider.listSubscriptions(after.customerId))[0]!.scheduledChange).toEqual(after.scheduledChange);

    fake.advancePeriod(subscriptionId);
    const renewed = (await provider.retrieveSubscription(subscriptionId))!;
    expect(renewed.price.lookupKey).toBe('subscriber_monthly');
    expect(renewed.scheduledChange).toBeNull();
    expect(renewed.latestInvoice).toMatchObject({ amountPaid: 999, billingReason: 'subscription_cycle' });
  });

  it('withdraws a scheduled change by releasing the schedule; Stripe refuses a cancel while a schedule holds the subscription', async () => {
    const { subscriptionId, fakeSubscription } = await subscribe('premium_monthly');
    await provider.schedulePrice(subscriptionId, { id: await priceId('subscriber_monthly'), interval: 'month' });
    const schedule = fakeSubscription.schedule!;
    await expect(provider.setCancelAtPeriodEnd(subscriptionId, true)).rejects.toBeInstanceOf(Stripe.errors.StripeInvalidRequestError);
    const kept = await provider.schedulePrice(subscriptionId, null);
    expect(lastRequest('POST', `/v1/subscription_schedules/${schedule}/release`)).toBeDefined();
    expect(kept).toMatchObject({ scheduledChange: null, price: { lookupKey: 'premium_monthly' } });
    expect(await provider.setCancelAtPeriodEnd(subscriptionId, true)).toMatchObject({ cancelAtPeriodEnd: true });
  });

  it('replaces a scheduled change with another one on the same schedule', async () => {
    const { subscriptionId } = await subscribe('premium_yearly');
    await provider.schedulePrice(subscriptionId, { id: await priceId('subscriber_yearly'), interval: 'year' });
    const changed = await provider.schedulePrice(subscriptionId, { id: await priceId('premium_monthly'), interval: 'month' });
    expect(fake.requests.filter((r) => r.method === 'POST' && r.path === '/v1/subscription_schedules')).toHaveLength(1);
    expect(changed.scheduledChange!.price.lookupKey).toBe('premium_monthly');
  });
});

describe('Stripe adapter: webhooks', () => {
  const event = {
    id: 'evt_1',
    object: 'event',
    type: 'customer.subscription.updated',
    created: 1_790_000_000,
    api_version: Stripe.API_VERSION,
    data: { object: { id: 'sub_1', object: 'subscription', status: 'active' } },
  };
  const nowSeconds = () => Math.floor(Date.now() / 1000);

  it('accepts a correctly signed event and answers its envelope', async () => {
    const { payload, header } = signedEvent(WEBHOOK_SECRET, event);
    expect(await provider.verifyWebhook(payload, header)).toEqual({
      object: 'event',
      id: 'evt_1',
      type: 'customer.subscription.updated',
      created: 1_790_000_000,
      data: { object: { id: 'sub_1', object: 'subscription', status: 'active' } },
    });
  });

  it('accepts a webhook secret pasted with surrounding whitespace', async () => {
    const { payload, header } = signedEvent(WEBHOOK_SECRET, event);
    await expect(makeProvider({ webhookSecret: ` ${WEBHOOK_SECRET}\n` }).verifyWebhook(payload, header)).resolves.toMatchObject({
      id: 'evt_1',
    });
  });

  it.each([
    ['a tampered body', () => ({ ...signedEvent(WEBHOOK_SECRET, event), payload: JSON.stringify({ ...event, id: 'evt_2' }) })],
    ['another secret', () => signedEvent('whsec_someone_else', event)],
    ['a timestamp 301 seconds old', () => signedEvent(WEBHOOK_SECRET, event, nowSeconds() - 301)],
    ['no signature header', () => ({ payload: JSON.stringify(event), header: undefined })],
    ['a malformed header', () => ({ payload: JSON.stringify(event), header: 'v1=abc' })],
  ])('refuses %s with a WebhookSignatureError', async (_case, build) => {
    const { payload, header } = build();
    await expect(provider.verifyWebhook(payload, header)).rejects.toBeInstanceOf(WebhookSignatureError);
  });

  it('still accepts an event signed 299 seconds ago', async () => {
    const { payload, header } = signedEvent(WEBHOOK_SECRET, event, nowSeconds() - 299);
    await expect(provider.verifyWebhook(payload, header)).resolves.toMatchObject({ id: 'evt_1' });
  });
});

describe('Stripe adapter: configuration helpers', () => {
  it('maps tier ids to lookup keys and back', () => {
    expect(lookupKeyFor('price_premium_yearly')).toBe('premium_yearly');
    expect(tierIdForLookupKey('subscriber_monthly')).toBe('price_subscriber_monthly');
  });

  it('reads host, port and protocol from an API URL', () => {
    expect(stripeEndpoint('http://127.0.0.1:12111')).toEqual({ host: '127.0.0.1', port: 12111, protocol: 'http' });
    expect(stripeEndpoint('https://api.stripe.com')).toEqual({ host: 'api.stripe.com', port: 443, protocol: 'https' });
  });
});

describe('npm run stripe:setup', () => {
  const client = () => createStripeClient({ secretKey: SECRET_KEY, host: fake.host, port: fake.port, protocol: fake.protocol });

  it('creates a product per paid tier and its four plan prices, then nothing on a second run', async () => {
    await fake.close();
    fake = await startStripeFake({ seed: false });
    provider = makeProvider();
    const first = await setupStripe(client());
    expect(first.createdProducts).toHaveLength(2);
    expect(first.createdPrices).toHaveLength(4);
    const prices = await provider.pricesByLookupKeys(PLAN_KEYS);
    expect(prices.map((p) => [p.lookupKey, p.unitAmount, p.interval, p.productName]).sort()).toEqual(
      [
        ['premium_monthly', 1999, 'month', 'Premium'],
        ['premium_yearly', 19190, 'year', 'Premium'],
        ['subscriber_monthly', 999, 'month', 'Subscriber'],
        ['subscriber_yearly', 9590, 'year', 'Subscriber'],
      ].sort(),
    );
    const second = await setupStripe(client());
    expect(second).toMatchObject({ createdProducts: [], createdPrices: [] });
    expect(second.prices).toEqual(first.prices);
    expect(fake.state.prices.size).toBe(4);
  });

  it('keeps the tier’s product when its prices were archived', async () => {
    await fake.close();
    fake = await startStripeFake({ seed: false });
    await setupStripe(client());
    for (const price of fake.state.prices.values()) price.active = false;
    const again = await setupStripe(client());
    expect(again.createdProducts).toEqual([]);
    expect(again.createdPrices).toHaveLength(4);
    expect(fake.state.products.size).toBe(2);
  });

  it('adopts prices already at Stripe under the lookup keys', async () => {
    const report = await setupStripe(client());
    expect(report).toMatchObject({ createdProducts: [], createdPrices: [] });
    expect(report.prices.map((p) => p.lookupKey).sort()).toEqual([...PLAN_KEYS].sort());
  });

  it('moves a lookup key to a new price when the amount in pricing.ts changed', async () => {
    const tiers = PRICE_TIERS.map((t) => (t.id === 'price_premium_monthly' ? { ...t, price: 24.99 } : t));
    const report = await setupStripe(client(), tiers);
    expect(report.createdPrices).toHaveLength(2);
    const premium = await provider.pricesByLookupKeys(['premium_monthly', 'premium_yearly']);
    expect(premium.map((p) => [p.lookupKey, p.unitAmount]).sort()).toEqual([
      ['premium_monthly', 2499],
      ['premium_yearly', 23990],
    ]);
    expect(fake.state.products.size).toBe(2);
  });
});
