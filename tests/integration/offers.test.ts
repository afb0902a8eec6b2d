/**
 * Offers and trials end to end on the embedded provider, on both databases (issue 34, items 3 and
 * 4): a sign-up offer's public terms and discounted prices, a checkout that charges the offer's price
 * and records the member's stretch of access as the offer's, 50 concurrent redemptions of a 10-use
 * code giving exactly 10, a retention offer at the cancel confirmation (409 once used or cancelling),
 * the offers list's redemptions and revenue, and a plan's trial: one per member, its notice three
 * days before, converting on the clock (charged) or lapsing when cancelled.
 */
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { emails } from '../../functions/email/tables.ts';
import { accessGrants } from '../../functions/payments/grants/tables.ts';
import { offerRedemptions, offers } from '../../functions/payments/offers/tables.ts';
import { subscriptions } from '../../functions/payments/tables.ts';
import { testBillingCoupons, testBillingSubscriptions } from '../../functions/payments/embedded/tables.ts';
import { profiles } from '../../functions/users/tables.ts';
import { createTestApp, type TestApp } from '../support/app.ts';
import { DATABASE_KINDS } from '../support/databases.ts';
import { apiCaller, memberMaker } from '../support/callers.ts';
import { expectNoLevelWithoutAGrant } from '../support/grants.ts';

const DAY = 86_400_000;
const SUCCESS = '/payment/confirmation?session_id={CHECKOUT_SESSION_ID}&payment_status=success';

describe.each(DATABASE_KINDS)('offers and trials on %s', (kind) => {
  let t: TestApp;
  let offset = 0;
  const clock = () => new Date(Date.now() + offset);
  let member: ReturnType<typeof memberMaker>;
  let admin = '';

  beforeAll(async () => {
    t = await createTestApp(kind, undefined, { AUTH_BCRYPT_COST: '4', EMAIL_WORKER: 'false' }, { billingClock: clock });
    member = memberMaker(t, `${kind}-offers`, 'Ana Offer');
    await t.services.connectEvents();
    const boss = await member();
    await t.services.users.assign(boss.id, 'admin', 'premium');
    admin = boss.token;
  });
  afterAll(async () => {
    await expectNoLevelWithoutAGrant(t.database.db);
    await t?.close();
  });

  const call = (token: string | undefined, path: string, body?: unknown, method?: string) => apiCaller(t)(token, path, body, method);
  const createOffer = async (body: Record<string, unknown>) => {
    const res = await call(admin, '/api/admin/payments/offers', body);
    expect(res.status, await res.clone().text()).toBe(201);
    return ((await res.json()) as { id: string }).id;
  };
  const checkout = (token: string, priceId: string, offerCode?: string) =>
    call(token, '/api/payments/stripe/create-session', {
      priceId,
      successUrl: SUCCESS,
      cancelUrl: '/pricing',
      ...(offerCode ? { offerCode } : {}),
    });
  const pay = (sessionId: string) =>
    call(undefined, `/api/payments/test/checkout/${sessionId}/pay`, { cardNumber: '4242 4242 4242 4242', expiry: '12/34', cvc: '123' });
  /** A week's trial seen five days in (our copy, once the checkout's events are taken: a late sync would rewrite it). */
  async function trialEndsInTwoDays(subscriptionId: string) {
    await t.services.embeddedBilling!.deliverPending();
    await t.database.db
      .update(subscriptions)
      .set({ trialEnd: new Date(Date.now() + 2 * DAY), createdAt: new Date(Date.now() - 5 * DAY) })
      .where(eq(subscriptions.id, subscriptionId));
  }
  const grantsOf = (id: string) => t.database.db.select().from(accessGrants).where(eq(accessGrants.userId, id));
  const subscriptionOf = async (id: string) => (await t.database.db.select().from(subscriptions).where(eq(subscriptions.userId, id)))[0]!;
  const mails = async (id: string, template: string) =>
    (
      await t.database.db
        .select()
        .from(emails)
        .where(and(eq(emails.userId, id), eq(emails.template, template)))
    ).length;

  it('shows a sign-up offer’s terms and prices, charges its price at checkout, and records the stretch as the offer’s', async () => {
    const code = `LAUNCH-${kind.toUpperCase()}`;
    await createOffer({
      code: code.toLowerCase(),
      kind: 'signup',
      percentOff: 20,
      duration: 'repeating',
      durationInMonths: 3,
      priceIds: ['price_premium_monthly'],
    });
    const terms = await (await call(undefined, `/api/payments/offers/${code.toLowerCase()}`)).json();
    expect(terms).toMatchObject({
      code,
      terms: '20% off for 3 months',
      plans: [{ priceId: 'price_premium_monthly', amount: 1999, discounted: 1599 }],
    });
    const m = await member();
    // The offer is for Premium monthly only.
    expect((await checkout(m.token, 'price_subscriber_monthly', code)).status).toBe(422);
    const res = await checkout(m.token, 'price_premium_monthly', code);
    expect(res.status, await res.clone().text()).toBe(200);
    const { sessionId } = (await res.json()) as { sessionId: string };
    const page = await (await call(undefined, `/api/payments/test/checkout/${sessionId}`)).json();
    expect(page).toMatchObject({ amount: 1999, dueToday: 1599, trialDays: 0, offer: code });
    expect((await pay(sessionId)).status).toBe(200);
    await expect
      .poll(async () => (await t.database.db.select().from(profiles).where(eq(profiles.id, m.id)))[0]!.accessLevel)
      .toBe('premium');
    expect((await subscriptionOf(m.id)).status).toBe('active');
    const [provider] = await t.database.db
      .select()
      .from(testBillingSubscriptions)
      .where(eq(testBillingSubscriptions.id, (await subscriptionOf(m.id)).id));
    expect(provider!.latestInvoice!.amountPaid).toBe(1599);
    expect(await grantsOf(m.id)).toEqual([
      expect.objectContaining({ source: 'offer', accessLevel: 'premium', detail: code, endsAt: null }),
    ]);
    const listed = (await (await call(admin, '/api/admin/payments/offers')).json()) as {
      code: string;
      redeemed: number;
      revenue: number;
    }[];
    expect(listed.find((o) => o.code === code)).toMatchObject({ redeemed: 1, revenue: 1599 });
    // Used: the code does not work for them again.
    expect((await checkout(m.token, 'price_premium_monthly', code)).status).toBe(409);
    // A retention offer never replaces the discount that runs: offered nothing, and taking one is refused.
    const keep = `KEEP-${kind.toUpperCase()}`;
    await createOffer({ code: keep, kind: 'retention', percentOff: 10, duration: 'once' });
    const retention = `/api/payments/stripe/subscriptions/${(await subscriptionOf(m.id)).id}/retention-offer`;
    expect(await (await call(m.token, retention)).json()).toEqual({ offer: null });
    expect((await call(m.token, retention, { code: keep })).status).toBe(409);
  });

  it('gives exactly 10 of 50 concurrent redemptions of a 10-use code', async () => {
    const code = `TEN-${kind.toUpperCase()}`;
    const id = await createOffer({ code, kind: 'signup', amountOff: 300, duration: 'once', maxRedemptions: 10 });
    const members = await Promise.all(Array.from({ length: 50 }, () => member()));
    const answers = await Promise.all(members.map((m) => checkout(m.token, 'price_subscriber_monthly', code)));
    const statuses = answers.map((r) => r.status).sort();
    expect(statuses.filter((s) => s === 200)).toHaveLength(10);
    expect(statuses.filter((s) => s === 409)).toHaveLength(40);
    const [row] = await t.database.db.select().from(offers).where(eq(offers.id, id));
    expect(row!.redemptions).toBe(10);
    // Used up: the public terms say so as an unknown code would.
    expect((await call(undefined, `/api/payments/offers/${code}`)).status).toBe(404);
  });

  it('renews a held redemption when the member checks out again, and gives back only holds a day old', async () => {
    const code = `HOLD-${kind.toUpperCase()}`;
    const id = await createOffer({ code, kind: 'signup', percentOff: 10, duration: 'once', maxRedemptions: 5 });
    const m = await member();
    expect((await checkout(m.token, 'price_premium_monthly', code)).status).toBe(200);
    // A day and more later the member checks out again: the hold is theirs again, for another day.
    await t.database.db
      .update(offerRedemptions)
      .set({ createdAt: new Date(Date.now() - 26 * 3_600_000) })
      .where(eq(offerRedemptions.offerId, id));
    expect((await checkout(m.token, 'price_premium_monthly', code)).status).toBe(200);
    await t.services.billing.tick();
    const [held] = await t.database.db.select().from(offerRedemptions).where(eq(offerRedemptions.offerId, id));
    expect(held).toMatchObject({ status: 'pending' });
    expect((await t.database.db.select().from(offers).where(eq(offers.id, id)))[0]!.redemptions).toBe(1);
    // Given up for a day: given back.
    await t.database.db
      .update(offerRedemptions)
      .set({ createdAt: new Date(Date.now() - 26 * 3_600_000) })
      .where(eq(offerRedemptions.offerId, id));
    await t.services.billing.tick();
    expect((await t.database.db.select().from(offerRedemptions).where(eq(offerRedemptions.offerId, id)))[0]).toMatchObject({
      status: 'released',
    });
    expect((await t.database.db.select().from(offers).where(eq(offers.id, id)))[0]!.redemptions).toBe(0);
  });

  it('offers a retention discount at the cancel confirmation once, and never once cancelling', async () => {
    const code = `STAY-${kind.toUpperCase()}`;
    await createOffer({ code, kind: 'retention', percentOff: 50, duration: 'once' });
    // Retention codes are not public.
    expect((await call(undefined, `/api/payments/offers/${code}`)).status).toBe(404);
    const m = await member();
    const { sessionId } = (await (await checkout(m.token, 'price_subscriber_monthly')).json()) as { sessionId: string };
    await pay(sessionId);
    const sub = await subscriptionOf(m.id);
    const path = `/api/payments/stripe/subscriptions/${sub.id}/retention-offer`;
    expect(await (await call(m.token, path)).json()).toMatchObject({
      offer: { code, terms: '50% off your first payment', amount: 999, discounted: 500 },
    });
    // Another member cannot read or take it on this subscription.
    const other = await member();
    expect((await call(other.token, path)).status).toBe(403);
    const taken = await call(m.token, path, { code });
    expect(taken.status, await taken.clone().text()).toBe(200);
    expect((await call(m.token, path, { code })).status).toBe(409);
    expect(await (await call(m.token, path)).json()).toEqual({ offer: null });
    // The next renewal is charged at the offer's price.
    offset += 32 * DAY;
    await t.services.embeddedBilling!.advance();
    const [renewed] = await t.database.db.select().from(testBillingSubscriptions).where(eq(testBillingSubscriptions.id, sub.id));
    expect(renewed!.latestInvoice!.amountPaid).toBe(500);

    // A member whose cancellation is scheduled is offered nothing, and taking it is refused.
    const leaving = await member();
    const second = (await (await checkout(leaving.token, 'price_subscriber_monthly')).json()) as { sessionId: string };
    await pay(second.sessionId);
    const theirs = await subscriptionOf(leaving.id);
    expect((await call(leaving.token, `/api/payments/stripe/subscriptions/${theirs.id}/cancel`, {})).status).toBe(200);
    const leavingPath = `/api/payments/stripe/subscriptions/${theirs.id}/retention-offer`;
    expect(await (await call(leaving.token, leavingPath)).json()).toEqual({ offer: null });
    expect((await call(leaving.token, leavingPath, { code })).status).toBe(409);
  });

  it('gives a retention offer back when the provider cannot apply it, so the member can take it again', async () => {
    const code = `RETRY-${kind.toUpperCase()}`;
    const id = await createOffer({ code, kind: 'retention', percentOff: 30, duration: 'once', priceIds: ['price_subscriber_yearly'] });
    const m = await member();
    const { sessionId } = (await (await checkout(m.token, 'price_subscriber_yearly')).json()) as { sessionId: string };
    await pay(sessionId);
    const path = `/api/payments/stripe/subscriptions/${(await subscriptionOf(m.id)).id}/retention-offer`;
    // The provider loses the coupon: applying it fails.
    const [offer] = await t.database.db.select().from(offers).where(eq(offers.id, id));
    await t.database.db.delete(testBillingCoupons).where(eq(testBillingCoupons.id, offer!.couponId));
    expect((await call(m.token, path, { code })).status).toBeGreaterThanOrEqual(500);
    expect((await t.database.db.select().from(offers).where(eq(offers.id, id)))[0]!.redemptions).toBe(0);
    expect(await (await call(m.token, path)).json()).toMatchObject({ offer: { code } });
    // The coupon back at the provider: the member takes the offer after all.
    await t.services.billing.provider.createCoupon({ id: offer!.couponId, name: code, percentOff: 30, currency: 'usd', duration: 'once' });
    expect((await call(m.token, path, { code })).status).toBe(200);
  });

  it('gives a plan’s trial once per member: trialing for nothing, announced three days before, then charged', async () => {
    expect((await call(admin, '/api/admin/payments/offers/trials/price_premium_monthly', { days: 7 }, 'PUT')).status).toBe(200);
    expect(await (await call(undefined, '/api/payments/trials')).json()).toMatchObject({ trials: { price_premium_monthly: 7 } });
    const paying = async () => ((await (await call(admin, '/api/admin/overview')).json()) as { payingMembers: number }).payingMembers;
    const before = await paying();
    const m = await member();
    const { sessionId } = (await (await checkout(m.token, 'price_premium_monthly')).json()) as { sessionId: string };
    expect(await (await call(undefined, `/api/payments/test/checkout/${sessionId}`)).json()).toMatchObject({ dueToday: 0, trialDays: 7 });
    await pay(sessionId);
    const sub = await subscriptionOf(m.id);
    expect(sub).toMatchObject({ status: 'trialing' });
    expect(await grantsOf(m.id)).toEqual([expect.objectContaining({ source: 'trial', accessLevel: 'premium' })]);
    // A trial pays nothing yet: the overview's paying members stay as they were.
    expect(await paying()).toBe(before);

    // Three days before its end, the member is told once.
    await trialEndsInTwoDays(sub.id);
    await t.services.billing.tick();
    await t.services.billing.tick();
    expect(await mails(m.id, 'billing-trial-ending')).toBe(1);

    // The clock passes the trial's end: charged in full, and the ledger's trial row gives way to the subscription's.
    offset += 8 * DAY;
    await t.services.embeddedBilling!.advance();
    await expect.poll(async () => (await subscriptionOf(m.id)).status).toBe('active');
    const [charged] = await t.database.db.select().from(testBillingSubscriptions).where(eq(testBillingSubscriptions.id, sub.id));
    expect(charged!.latestInvoice!.amountPaid).toBe(1999);
    const rows = await grantsOf(m.id);
    expect(rows.map((g) => [g.source, g.endsAt === null]).sort()).toEqual([
      ['subscription', true],
      ['trial', false],
    ]);

    // One trial per member, ever: their next checkout (after cancelling) has none.
    expect((await call(m.token, `/api/payments/stripe/subscriptions/${sub.id}/cancel`, {})).status).toBe(200);
    offset += 32 * DAY;
    await t.services.embeddedBilling!.advance();
    await expect.poll(async () => (await subscriptionOf(m.id)).status).toBe('canceled');
    const again = (await (await checkout(m.token, 'price_premium_monthly')).json()) as { sessionId: string };
    expect(await (await call(undefined, `/api/payments/test/checkout/${again.sessionId}`)).json()).toMatchObject({
      trialDays: 0,
      dueToday: 1999,
    });
  });

  it('lets a trial lapse when the member cancels during it: no charge, and the level falls back', async () => {
    const m = await member();
    const { sessionId } = (await (await checkout(m.token, 'price_premium_monthly')).json()) as { sessionId: string };
    await pay(sessionId);
    const sub = await subscriptionOf(m.id);
    expect(sub.status).toBe('trialing');
    expect((await call(m.token, `/api/payments/stripe/subscriptions/${sub.id}/cancel`, {})).status).toBe(200);
    // Cancelled during the trial: nothing continues, so no notice that it will.
    await trialEndsInTwoDays(sub.id);
    await t.services.billing.tick();
    expect(await mails(m.id, 'billing-trial-ending')).toBe(0);
    offset += 8 * DAY;
    await t.services.embeddedBilling!.advance();
    await expect.poll(async () => (await subscriptionOf(m.id)).status).toBe('canceled');
    expect((await t.database.db.select().from(profiles).where(eq(profiles.id, m.id)))[0]!.accessLevel).toBe('free');
    const [provider] = await t.database.db.select().from(testBillingSubscriptions).where(eq(testBillingSubscriptions.id, sub.id));
    expect(provider!.latestInvoice!.amountPaid).toBe(0);
  });
});
