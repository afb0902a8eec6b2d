/**
 * Contract tests of the Stripe adapter's offers and trials (issue 34), against the stateful fake:
 * coupons made under our id (again: the same coupon), a checkout with an offer's coupon (Stripe's
 * `discounts`, never beside the promotion-code box) or a trial (`subscription_data.trial_period_days`),
 * a subscription read with its discount and trial end, and a coupon put on a live subscription.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startStripeFake, type StripeFake } from '../../tests/support/stripe-fake.ts';
import type { PaymentProvider } from './provider.ts';
import { createStripeProvider } from './stripe.ts';

let fake: StripeFake;
let provider: PaymentProvider;
const DAY = 86_400;

beforeEach(async () => {
  fake = await startStripeFake();
  provider = createStripeProvider({
    secretKey: 'sk_test_offers',
    webhookSecret: 'whsec_offers_test_secret',
    host: fake.host,
    port: fake.port,
    protocol: fake.protocol,
  });
});
afterEach(() => fake.close());

const lastRequest = (method: string, path: string) => fake.requests.filter((r) => r.method === method && r.path === path).at(-1);

async function checkout(extra: { couponId?: string; trialDays?: number }) {
  const { id: customerId } = await provider.createCustomer({ email: 'ana@beacon.test', userId: 'user-1', idempotencyKey: 'c-1' });
  const [price] = await provider.pricesByLookupKeys(['premium_monthly']);
  const session = await provider.createCheckoutSession({
    customerId,
    userId: 'user-1',
    mode: 'subscription',
    line: { priceId: price!.id },
    metadata: { userId: 'user-1' },
    successUrl: 'https://beacon.test/ok?session_id={CHECKOUT_SESSION_ID}',
    cancelUrl: 'https://beacon.test/pricing',
    ...extra,
  });
  return { session, price: price! };
}

describe('Stripe adapter: offers and trials', () => {
  it('creates a coupon under our id, and answers the same coupon when asked again', async () => {
    const coupon = {
      id: 'offer_launch',
      name: 'LAUNCH',
      percentOff: 20,
      currency: 'usd',
      duration: 'repeating' as const,
      durationInMonths: 3,
    };
    expect(await provider.createCoupon(coupon)).toEqual({ id: 'offer_launch' });
    expect(lastRequest('POST', '/v1/coupons')!.params).toEqual({
      id: 'offer_launch',
      name: 'LAUNCH',
      duration: 'repeating',
      duration_in_months: '3',
      percent_off: '20',
    });
    expect(await provider.createCoupon(coupon)).toEqual({ id: 'offer_launch' });
    expect(fake.state.coupons.size).toBe(1);
    await provider.createCoupon({ id: 'offer_fixed', name: 'FIVE', amountOff: 500, currency: 'usd', duration: 'once' });
    expect(lastRequest('POST', '/v1/coupons')!.params).toEqual({
      id: 'offer_fixed',
      name: 'FIVE',
      duration: 'once',
      amount_off: '500',
      currency: 'usd',
    });
  });

  it('checks out with an offer’s coupon instead of the promotion-code box, and reads the discount on the subscription', async () => {
    await provider.createCoupon({ id: 'offer_q', name: 'Q', percentOff: 25, currency: 'usd', duration: 'repeating', durationInMonths: 2 });
    const { session, price } = await checkout({ couponId: 'offer_q' });
    const sent = lastRequest('POST', '/v1/checkout/sessions')!.params;
    expect(sent.discounts).toEqual([{ coupon: 'offer_q' }]);
    expect(sent).not.toHaveProperty('allow_promotion_codes');
    const { subscription } = fake.completeSession(session.id);
    const read = (await provider.retrieveSubscription(subscription!.id))!;
    expect(read.discount).toEqual({ couponId: 'offer_q', end: expect.any(Date) });
    expect(read.latestInvoice?.amountPaid).toBe(Math.round(price.unitAmount * 0.75));
    expect(read.trialEnd).toBeNull();
  });

  it('checks out a trial: trialing, nothing charged, the trial end read; the first charge makes it active', async () => {
    const { session, price } = await checkout({ trialDays: 7 });
    expect(lastRequest('POST', '/v1/checkout/sessions')!.params.subscription_data).toMatchObject({ trial_period_days: '7' });
    const { subscription } = fake.completeSession(session.id);
    const read = (await provider.retrieveSubscription(subscription!.id))!;
    expect(read).toMatchObject({ status: 'trialing', latestInvoice: expect.objectContaining({ amountPaid: 0 }) });
    expect(Math.round((read.trialEnd!.getTime() / 1000 - subscription!.start_date) / DAY)).toBe(7);
    expect(read.currentPeriodEnd).toEqual(read.trialEnd);
    fake.advancePeriod(subscription!.id);
    expect(await provider.retrieveSubscription(subscription!.id)).toMatchObject({
      status: 'active',
      latestInvoice: expect.objectContaining({ amountPaid: price.unitAmount }),
    });
  });

  it('offers no promotion-code box on a gift’s one-time checkout (its receipt states what is paid)', async () => {
    const { id: customerId } = await provider.createCustomer({ email: 'ana@beacon.test', userId: 'user-1', idempotencyKey: 'c-2' });
    await provider.createCheckoutSession({
      customerId,
      userId: 'user-1',
      mode: 'payment',
      line: { unitAmount: 5997, currency: 'usd', productName: 'Gift: Premium, 3 months' },
      metadata: { userId: 'user-1', giftId: 'g-1' },
      successUrl: 'https://beacon.test/account',
      cancelUrl: 'https://beacon.test/gift',
      promotionCodes: false,
    });
    const sent = lastRequest('POST', '/v1/checkout/sessions')!.params;
    expect(sent).not.toHaveProperty('allow_promotion_codes');
    expect(sent).not.toHaveProperty('discounts');
  });

  it('puts a coupon on a live subscription from its next invoice', async () => {
    const { session, price } = await checkout({});
    const { subscription } = fake.completeSession(session.id);
    await provider.createCoupon({ id: 'offer_stay', name: 'STAY', percentOff: 50, currency: 'usd', duration: 'once' });
    const applied = await provider.applyCoupon(subscription!.id, 'offer_stay');
    expect(applied.discount).toEqual({ couponId: 'offer_stay', end: null });
    expect(lastRequest('POST', `/v1/subscriptions/${subscription!.id}`)!.params).toMatchObject({ discounts: [{ coupon: 'offer_stay' }] });
    fake.advancePeriod(subscription!.id);
    const renewed = (await provider.retrieveSubscription(subscription!.id))!;
    expect(renewed.latestInvoice?.amountPaid).toBe(Math.round(price.unitAmount / 2));
    // Once: used up by that invoice.
    expect(renewed.discount).toBeNull();
  });
});
