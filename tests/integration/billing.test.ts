/**
 * Payments end to end on the embedded test provider, on both databases: checkout (declined and
 * invalid cards, then a good one), confirm (idempotent), the level following the money, cancel and
 * resume, the portal, renewals, failed renewals and endings on a moved clock, one-time purchases
 * that open a download, the provider's signed webhooks (duplicates, order, bad signatures, unknown
 * events), the mails each change sends once, plan changes (upgrades now with a prorated charge,
 * downgrades at the renewal, the portal's switch and test clock), and account deletion ending the
 * subscription.
 */
import { and, eq } from 'drizzle-orm';
import Stripe from 'stripe';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { embeddedWebhookSecret } from '../../functions/payments/index.ts';
import { auditLog, profiles } from '../../functions/users/tables.ts';
import { emails } from '../../functions/email/tables.ts';
import { purchases, subscriptions } from '../../functions/payments/tables.ts';
import { testBillingSessions, testBillingSubscriptions } from '../../functions/payments/embedded/tables.ts';
import { loadSigningSecret } from '../../functions/platform/secrets/service.ts';
import { createSecretStore } from '../../functions/platform/secrets/store.ts';
import { createTestApp, type TestApp } from '../support/app.ts';
import type { Api, Answer, ErrorAnswer } from '../support/answers.ts';
import { DATABASE_KINDS } from '../support/databases.ts';
import { expectNoLevelWithoutAGrant } from '../support/grants.ts';
import { makeCourseInput, makeMarketInput } from '../support/fixtures.ts';
import { REFUNDED_DUPLICATE, REFUSED_PURCHASE } from '#shared/payments/purchasable.ts';

const PASSWORD = 'billing flow pass';
const DAY = 86_400_000;
const SUCCESS = '/payment/confirmation?session_id={CHECKOUT_SESSION_ID}&payment_status=success';
const stripe = new Stripe('sk_test_signing_only');
type ChangeAnswer = Answer<Api['payments']['stripe']['subscriptions'][':subscriptionId']['change']['$post']>;
type PortalAnswer = Answer<Api['payments']['stripe']['create-portal-session']['$post']>;
type CancelAnswer = Answer<Api['payments']['stripe']['subscriptions'][':subscriptionId']['cancel']['$post']>;

describe.each(DATABASE_KINDS)('payments on the embedded provider (%s)', (kind) => {
  let t: TestApp;
  let offset = 0;
  const clock = () => new Date(Date.now() + offset);
  let n = 0;

  beforeAll(async () => {
    t = await createTestApp(kind, undefined, { AUTH_BCRYPT_COST: '4', EMAIL_WORKER: 'false' }, { billingClock: clock });
    await t.services.start();
  });
  afterAll(() => t?.close());

  // Last: whatever the flows above did, no member reads above what a grant gives.
  afterAll(async () => expectNoLevelWithoutAGrant(t.database.db));

  async function member(level: 'free' | 'subscriber' | 'premium' = 'free') {
    const email = `member${n++}-${kind}@billing.test`;
    const id = await t.services.auth.createConfirmedUser(email, PASSWORD, 'Pat Payer');
    if (level !== 'free') await t.services.users.assign(id, 'member', level);
    const { access_token } = await t.services.auth.signInWithPassword({ email, password: PASSWORD });
    return { id, email, token: access_token };
  }

  function call(token: string | undefined, path: string, body?: unknown, method = body === undefined ? 'GET' : 'POST') {
    const headers: Record<string, string> = {};
    if (token) headers.authorization = `Bearer ${token}`;
    if (body !== undefined) headers['content-type'] = 'application/json';
    return t.app.request(path, { method, headers, ...(body !== undefined ? { body: JSON.stringify(body) } : {}) });
  }

  async function checkout(token: string, body: Record<string, unknown>) {
    const res = await call(token, '/api/payments/stripe/create-session', {
      successUrl: SUCCESS,
      cancelUrl: '/pricing?canceled=true',
      ...body,
    });
    expect(res.status, await res.clone().text()).toBe(200);
    const { sessionId, url } = (await res.json()) as Extract<Answer<Api['payments']['stripe']['create-session']['$post']>, { url: string }>;
    expect(url).toBe(`${t.config.siteUrl}/billing/test-checkout?session=${sessionId}`);
    return sessionId;
  }

  const pay = (sessionId: string, cardNumber: string, expiry = '12/34') =>
    call(undefined, `/api/payments/test/checkout/${sessionId}/pay`, { cardNumber, expiry, cvc: '123' });

  async function subscribe(token: string, priceId: string, card = '4242 4242 4242 4242') {
    const sessionId = await checkout(token, { priceId });
    const paid = await pay(sessionId, card);
    expect(paid.status).toBe(200);
    return sessionId;
  }

  async function mails(userId: string) {
    const rows = await t.database.db.select().from(emails).where(eq(emails.userId, userId));
    return rows.map((r) => r.template).sort();
  }
  const levelOf = async (id: string) => (await t.database.db.select().from(profiles).where(eq(profiles.id, id)))[0]!.accessLevel;
  const customerOf = async (id: string) => (await t.database.db.select().from(profiles).where(eq(profiles.id, id)))[0]!.customerId!;

  it('takes a free member through a yearly Premium checkout: declined, invalid, then paid and confirmed once', async () => {
    const m = await member();
    const sessionId = await checkout(m.token, {
      priceId: 'price_premium_yearly',
      userId: m.id,
      metadata: { accessLevel: 'premium', productName: 'Premium' },
    });

    const page = (await (await call(undefined, `/api/payments/test/checkout/${sessionId}`)).json()) as Answer<
      Api['testBilling']['checkout'][':id']['$get']
    >;
    expect(page).toMatchObject({
      mode: 'subscription',
      status: 'open',
      productName: 'Premium',
      amount: 19190,
      interval: 'year',
      email: m.email,
    });

    const declined = await pay(sessionId, '4000 0000 0000 0002');
    expect(declined.status).toBe(402);
    expect(((await declined.json()) as ErrorAnswer).error.message).toBe('Your card was declined.');
    const invalid = await pay(sessionId, '4242 4242 4242 4241', '01/20');
    expect(invalid.status).toBe(422);
    expect(((await invalid.json()) as ErrorAnswer).error.fields).toMatchObject({
      cardNumber: ['Your card number is invalid.'],
      expiry: ["Your card's expiration year is in the past."],
    });
    // Confirm before paying: not paid yet, nothing granted.
    expect((await call(m.token, '/api/payments/stripe/confirm', { sessionId })).status).toBe(409);
    expect(await levelOf(m.id)).toBe('free');

    const paid = await pay(sessionId, '4242424242424242');
    expect(paid.status).toBe(200);
    expect(await paid.json()).toEqual({
      redirectUrl: `${t.config.siteUrl}/payment/confirmation?session_id=${sessionId}&payment_status=success`,
    });
    expect((await pay(sessionId, '4242424242424242')).status).toBe(409); // paid sessions stay paid

    for (let i = 0; i < 2; i++) {
      const res = await call(m.token, '/api/payments/stripe/confirm', { sessionId, userId: m.id });
      expect(res.status).toBe(200);
      expect(await res.json()).toEqual({ accessLevel: 'premium', mode: 'subscription' });
    }
    expect(await levelOf(m.id)).toBe('premium');
    expect(await mails(m.id)).toEqual(['billing-activated']);
    const audits = await t.database.db.select().from(auditLog).where(eq(auditLog.targetId, m.id));
    expect(audits.map((a) => [a.action, a.detail.from, a.detail.to])).toEqual([['access_level.billing', 'free', 'premium']]);

    // The premium article body opens now.
    expect((await call(m.token, '/api/content/blogs/ecommerce-launch-first-90-days/body')).status).toBe(200);
  });

  it('shows the subscription, refuses a second one, cancels at period end, and resumes in the portal', async () => {
    const m = await member();
    await subscribe(m.token, 'price_subscriber_monthly');
    const customerId = await customerOf(m.id);
    const read = async () =>
      (await (await call(m.token, `/api/payments/stripe/subscriptions/${customerId}`)).json()) as NonNullable<
        Answer<Api['payments']['stripe']['subscriptions'][':customerId']['$get']>
      >;

    const sub = await read();
    expect(sub).toMatchObject({ status: 'active', cancelAtPeriodEnd: false, plan: { name: 'Subscriber', amount: 999, interval: 'month' } });
    expect(new Date(sub.currentPeriodEnd).getTime()).toBeGreaterThan(Date.now() + 27 * DAY);

    const again = await call(m.token, '/api/payments/stripe/create-session', {
      priceId: 'price_premium_monthly',
      successUrl: SUCCESS,
      cancelUrl: '/pricing',
    });
    expect(again.status).toBe(409);

    const canceled = await call(m.token, `/api/payments/stripe/subscriptions/${sub.subscriptionId}/cancel`, {});
    expect(canceled.status).toBe(200);
    expect(((await canceled.json()) as CancelAnswer).subscription.cancelAtPeriodEnd).toBe(true);
    expect(await read()).toMatchObject({ status: 'active', cancelAtPeriodEnd: true });
    expect(await levelOf(m.id)).toBe('subscriber'); // access until the period ends
    expect(await mails(m.id)).toEqual(['billing-activated', 'billing-cancel-scheduled']);

    const portal = await call(m.token, '/api/payments/stripe/create-portal-session', {
      customerId,
      returnUrl: `${t.config.siteUrl}/account`,
    });
    expect(portal.status).toBe(200);
    const portalUrl = new URL(((await portal.json()) as PortalAnswer).url);
    const portalId = portalUrl.searchParams.get('session')!;
    const view = (await (await call(undefined, `/api/payments/test/portal/${portalId}`)).json()) as Answer<
      Api['testBilling']['portal'][':id']['$get']
    >;
    expect(view.returnUrl).toBe(`${t.config.siteUrl}/account`);
    expect(view.plans).toHaveLength(4);
    const resumed = await call(undefined, `/api/payments/test/portal/${portalId}/subscriptions/${view.subscriptions[0]!.id}`, {
      action: 'resume',
    });
    expect(resumed.status).toBe(200);
    expect(await read()).toMatchObject({ status: 'active', cancelAtPeriodEnd: false });

    // Switching to Premium in the portal raises the level through the same event path.
    await call(undefined, `/api/payments/test/portal/${portalId}/subscriptions/${view.subscriptions[0]!.id}`, {
      action: 'switch',
      priceId: 'price_premium_monthly',
    });
    await t.services.embeddedBilling!.deliverPending();
    expect(await levelOf(m.id)).toBe('premium');
  });

  it("keeps staff at premium whatever they pay, and writes the receipt in the member's language", async () => {
    const staff = await member();
    await t.services.users.assign(staff.id, 'editor', 'premium');
    await subscribe(staff.token, 'price_subscriber_monthly');
    expect(await levelOf(staff.id)).toBe('premium'); // not lowered to the plan's subscriber
    const [row] = await t.database.db.select().from(subscriptions).where(eq(subscriptions.userId, staff.id));
    expect((await call(staff.token, `/api/payments/stripe/subscriptions/${row!.id}/cancel`, {})).status).toBe(200);
    offset += 32 * DAY;
    await t.services.embeddedBilling!.advance();
    expect(await levelOf(staff.id)).toBe('premium'); // nor to free when the plan ends

    const spanish = await member();
    await t.database.db.update(profiles).set({ language: 'es' }).where(eq(profiles.id, spanish.id));
    await subscribe(spanish.token, 'price_premium_monthly');
    const [receipt] = await t.database.db
      .select()
      .from(emails)
      .where(and(eq(emails.userId, spanish.id), eq(emails.template, 'billing-activated')));
    // The embedded provider is test mode: the subject says so in the member's language.
    expect(receipt!.subject).toMatch(/^\[Modo de prueba\] Tu plan Premium de .+ está activo$/);
  });

  it('renews on the clock, then ends a canceled plan at its period end', async () => {
    const m = await member();
    await subscribe(m.token, 'price_subscriber_monthly');
    const [row] = await t.database.db.select().from(subscriptions).where(eq(subscriptions.userId, m.id));
    offset += 32 * DAY;
    await t.services.embeddedBilling!.advance();
    const [renewed] = await t.database.db.select().from(subscriptions).where(eq(subscriptions.id, row!.id));
    expect(renewed!.currentPeriodEnd.getTime()).toBeGreaterThan(row!.currentPeriodEnd.getTime());
    expect(await levelOf(m.id)).toBe('subscriber');

    expect((await call(m.token, `/api/payments/stripe/subscriptions/${row!.id}/cancel`, {})).status).toBe(200);
    offset += 32 * DAY;
    await t.services.embeddedBilling!.advance();
    expect(await levelOf(m.id)).toBe('free');
    expect(await mails(m.id)).toEqual(['billing-activated', 'billing-cancel-scheduled', 'billing-ended']);
    // A new plan may be bought once the old one ended.
    expect(
      (
        await call(m.token, '/api/payments/stripe/create-session', {
          priceId: 'price_premium_monthly',
          successUrl: SUCCESS,
          cancelUrl: '/pricing',
        })
      ).status,
    ).toBe(200);
  });

  it('keeps access while a failing card is retried (past due), then ends it', async () => {
    const m = await member();
    await subscribe(m.token, 'price_premium_monthly', '4000 0000 0000 0341');
    offset += 32 * DAY;
    await t.services.embeddedBilling!.advance();
    expect((await t.database.db.select().from(subscriptions).where(eq(subscriptions.userId, m.id)))[0]!.status).toBe('past_due');
    expect(await levelOf(m.id)).toBe('premium');
    offset += 32 * DAY;
    await t.services.embeddedBilling!.advance();
    expect(await levelOf(m.id)).toBe('free');
    expect(await mails(m.id)).toEqual(['billing-activated', 'billing-ended', 'billing-payment-failed']);
  });

  it('sells a priced market item once: the buyer downloads it whatever their level', async () => {
    const m = await member();
    const item = { type: 'market', slug: 'social-media-content-pack' };
    // A priced item at the free level is in no plan: only buyers open it.
    expect((await call(m.token, '/api/content/market/social-media-content-pack/download')).status).toBe(403);
    const sessionId = await checkout(m.token, { item });
    expect(await (await call(undefined, `/api/payments/test/checkout/${sessionId}`)).json()).toMatchObject({
      mode: 'payment',
      amount: 2400,
      interval: null,
    });
    expect((await pay(sessionId, '4242424242424242')).status).toBe(200);
    const confirmed = await call(m.token, '/api/payments/stripe/confirm', { sessionId });
    expect(await confirmed.json()).toEqual({
      accessLevel: 'free',
      mode: 'payment',
      purchase: { type: 'market', slug: 'social-media-content-pack', title: '90-Day Social Media Content Pack' },
    });
    expect((await call(m.token, '/api/content/market/social-media-content-pack/download')).status).toBe(200);
    const list = (await (await call(m.token, '/api/payments/purchases')).json()) as Answer<Api['payments']['purchases']['$get']>;
    expect(list.purchases).toEqual([
      expect.objectContaining({ type: 'market', slug: 'social-media-content-pack', amount: 2400, currency: 'usd' }),
    ]);
    expect((await call(m.token, '/api/payments/stripe/create-session', { item, successUrl: SUCCESS, cancelUrl: '/market' })).status).toBe(
      409,
    );
    expect(await mails(m.id)).toEqual(['billing-purchase']);
    // Items without a price are not for sale.
    expect(
      (
        await call(m.token, '/api/payments/stripe/create-session', {
          item: { type: 'market', slug: 'brand-voice-worksheet' },
          successUrl: SUCCESS,
          cancelUrl: '/market',
        })
      ).status,
    ).toBe(422);
  });

  it('sells a priced course outright: its lessons open for the buyer on the free level', async () => {
    const m = await member();
    const lesson = '/api/content/courses/content-strategy-sprint/progress';
    expect((await call(m.token, lesson)).status).toBe(403);
    const sessionId = await checkout(m.token, { item: { type: 'course', slug: 'content-strategy-sprint' } });
    expect(await (await call(undefined, `/api/payments/test/checkout/${sessionId}`)).json()).toMatchObject({
      mode: 'payment',
      amount: 12900,
    });
    expect((await pay(sessionId, '4242424242424242')).status).toBe(200);
    expect((await call(m.token, lesson)).status).toBe(200);
    expect(await levelOf(m.id)).toBe('free');
  });

  it('sells a priced free-level course and opens its lessons to the buyer only, whatever the level', async () => {
    const course = await t.content.create(
      'course',
      makeCourseInput({ slug: `priced-free-course-${kind}`, accessLevel: 'free', price: 39 }),
    );
    const buyer = await member('premium');
    const other = await member('premium');
    const lesson = `/api/content/courses/${course.slug}/lessons/first`;
    // A plan does not include it, not even premium: it is sold, never given.
    expect((await call(buyer.token, lesson)).status).toBe(403);
    const sessionId = await checkout(buyer.token, { item: { type: 'course', slug: course.slug } });
    expect((await pay(sessionId, '4242424242424242')).status).toBe(200);
    expect((await call(buyer.token, lesson)).status).toBe(200);
    expect((await call(buyer.token, `/api/content/courses/${course.slug}/progress`)).status).toBe(200);
    expect((await call(other.token, lesson)).status).toBe(403);
  });

  it('refuses a paid checkout for an item unpublished after it started: refunded, 409, nothing recorded, one mail', async () => {
    const item = await t.content.create('market', makeMarketInput({ slug: `withdrawn-kit-${kind}`, accessLevel: 'free', price: 24 }));
    const m = await member();
    const sessionId = await checkout(m.token, { item: { type: 'market', slug: item.slug } });
    await t.content.update('market', item.id, { published: false });
    // The provider's own event reaches the webhook handler before the browser comes back.
    expect((await pay(sessionId, '4242424242424242')).status).toBe(200);
    for (let i = 0; i < 2; i++) {
      const res = await call(m.token, '/api/payments/stripe/confirm', { sessionId });
      expect(res.status).toBe(409);
      expect(((await res.json()) as ErrorAnswer).error.message).toBe(REFUSED_PURCHASE);
    }
    expect(await t.database.db.select().from(purchases).where(eq(purchases.userId, m.id))).toEqual([]);
    const [session] = await t.database.db.select().from(testBillingSessions).where(eq(testBillingSessions.id, sessionId));
    expect((session!.detail as { refund?: { id: string } }).refund?.id).toMatch(/^re_test_/);
    const audits = await t.database.db.select().from(auditLog).where(eq(auditLog.targetId, m.id));
    expect(audits.map((a) => a.action).sort()).toEqual(['purchase.refunded', 'purchase.refused']);
    expect(await mails(m.id)).toEqual(['billing-refunded']);
    const [mail] = await t.database.db.select().from(emails).where(eq(emails.userId, m.id));
    expect(mail!.subject).toBe(`[Test mode] Your payment for ${item.title} was refunded`);

    // Published again later: the refunded session stays refused, and the item is for sale again.
    await t.content.update('market', item.id, { published: true });
    expect((await call(m.token, '/api/payments/stripe/confirm', { sessionId })).status).toBe(409);
    expect(await t.database.db.select().from(purchases).where(eq(purchases.userId, m.id))).toEqual([]);
    expect((await call(m.token, `/api/content/market/${item.slug}/download`)).status).toBe(403);
    expect(await mails(m.id)).toEqual(['billing-refunded']);
  });

  it('refunds the second of two checkouts for one item paid side by side: one purchase, one receipt, one refund', async () => {
    const item = await t.content.create('market', makeMarketInput({ slug: `twice-paid-kit-${kind}`, accessLevel: 'free', price: 24 }));
    const m = await member();
    // Two tabs, two checkouts opened before either was paid.
    const first = await checkout(m.token, { item: { type: 'market', slug: item.slug } });
    const second = await checkout(m.token, { item: { type: 'market', slug: item.slug } });
    expect((await pay(first, '4242424242424242')).status).toBe(200);
    expect((await pay(second, '4242424242424242')).status).toBe(200);
    expect((await call(m.token, '/api/payments/stripe/confirm', { sessionId: first })).status).toBe(200);
    const again = await call(m.token, '/api/payments/stripe/confirm', { sessionId: second });
    expect(again.status).toBe(409);
    expect(((await again.json()) as ErrorAnswer).error.message).toBe(REFUNDED_DUPLICATE);
    expect(await t.database.db.select().from(purchases).where(eq(purchases.userId, m.id))).toHaveLength(1);
    const [refunded] = await t.database.db.select().from(testBillingSessions).where(eq(testBillingSessions.id, second));
    expect((refunded!.detail as { refund?: { id: string } }).refund?.id).toMatch(/^re_test_/);
    expect((await mails(m.id)).sort()).toEqual(['billing-purchase', 'billing-refunded']);
    const [mail] = await t.database.db
      .select()
      .from(emails)
      .where(and(eq(emails.userId, m.id), eq(emails.template, 'billing-refunded')));
    expect(mail!.bodyText).toContain('You already own');
    expect((await call(m.token, `/api/content/market/${item.slug}/download`)).status).toBe(200);
  });

  it('says payments are in test mode, publicly, and marks every receipt as a test', async () => {
    const res = await call(undefined, '/api/payments/mode');
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ mode: 'test' });
    expect(res.headers.get('cache-control')).toMatch(/^public/);
    const m = await member();
    await subscribe(m.token, 'price_subscriber_monthly');
    const [receipt] = await t.database.db.select().from(emails).where(eq(emails.userId, m.id));
    expect(receipt!.subject).toMatch(/^\[Test mode\] /);
    expect(receipt!.bodyText).toContain('Test mode: no real payment was taken.');
  });

  describe('the signed webhook', () => {
    let secret: string;
    beforeAll(async () => {
      secret = embeddedWebhookSecret(await loadSigningSecret(createSecretStore(t.database.db)));
    });
    const post = (payload: string, header: string) =>
      t.app.request('/api/payments/stripe/webhook', {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'stripe-signature': header },
        body: payload,
      });
    const signed = (event: object) => {
      const payload = JSON.stringify({ object: 'event', created: Math.floor(Date.now() / 1000), ...event });
      return post(payload, stripe.webhooks.generateTestHeaderString({ payload, secret }));
    };

    it('refuses bad signatures with 400 and acknowledges unknown events with 200', async () => {
      const payload = JSON.stringify({ id: 'evt_x', type: 'customer.subscription.updated', data: { object: { id: 'sub_x' } } });
      const good = stripe.webhooks.generateTestHeaderString({ payload, secret });
      expect((await post(`${payload} `, good)).status).toBe(400); // tampered body
      expect((await post(payload, stripe.webhooks.generateTestHeaderString({ payload, secret: 'whsec_wrong_secret_value' }))).status).toBe(
        400,
      );
      const old = stripe.webhooks.generateTestHeaderString({ payload, secret, timestamp: Math.floor(Date.now() / 1000) - 301 });
      expect((await post(payload, old)).status).toBe(400);
      expect((await post(payload, '')).status).toBe(400);
      const unknown = await signed({ id: `evt_unknown_${kind}`, type: 'charge.refund.updated', data: { object: { id: 're_1' } } });
      expect(unknown.status).toBe(200);
      expect(await unknown.json()).toEqual({ received: 1, applied: 0 });
    });

    it('refunds a checkout for an unpublished item once, however often its event comes', async () => {
      const item = await t.content.create('course', makeCourseInput({ slug: `withdrawn-course-${kind}`, price: 49 }));
      const m = await member();
      const sessionId = await checkout(m.token, { item: { type: 'course', slug: item.slug } });
      await t.content.update('course', item.id, { published: false });
      expect((await pay(sessionId, '4242424242424242')).status).toBe(200);
      for (const id of [`evt_refused_a_${sessionId}`, `evt_refused_b_${sessionId}`]) {
        const res = await signed({ id, type: 'checkout.session.completed', data: { object: { id: sessionId } } });
        expect(res.status).toBe(200);
      }
      expect(await t.database.db.select().from(purchases).where(eq(purchases.userId, m.id))).toEqual([]);
      const audits = await t.database.db.select().from(auditLog).where(eq(auditLog.targetId, m.id));
      expect(audits.map((a) => a.action).sort()).toEqual(['purchase.refunded', 'purchase.refused']);
      expect(audits.find((a) => a.action === 'purchase.refunded')!.detail).toMatchObject({ sessionId, amount: 4900 });
      expect(await mails(m.id)).toEqual(['billing-refunded']);
      expect((await call(m.token, '/api/payments/stripe/confirm', { sessionId })).status).toBe(409);
    });

    it('syncs the subscription a schedule event names (a change made in the provider’s portal), released ones included', async () => {
      const m = await member();
      await subscribe(m.token, 'price_premium_monthly');
      const [sub] = await t.database.db.select().from(subscriptions).where(eq(subscriptions.userId, m.id));
      // The provider holds a change for the period end; only its schedule event tells us.
      const held = (key: string | null) =>
        t.database.db.update(testBillingSubscriptions).set({ pendingLookupKey: key }).where(eq(testBillingSubscriptions.id, sub!.id));
      await held('subscriber_monthly');
      const created = await signed({
        id: `evt_sched_created_${sub!.id}`,
        type: 'subscription_schedule.created',
        data: { object: { id: 'sub_sched_1', object: 'subscription_schedule', subscription: sub!.id } },
      });
      expect(await created.json()).toEqual({ received: 1, applied: 1 });
      const [row] = await t.database.db.select().from(subscriptions).where(eq(subscriptions.id, sub!.id));
      expect(row).toMatchObject({ scheduledTierId: 'price_subscriber_monthly', scheduledAt: row!.currentPeriodEnd });
      expect(await mails(m.id)).toEqual(['billing-activated', 'billing-change-scheduled']);
      await held(null);
      await signed({
        id: `evt_sched_released_${sub!.id}`,
        type: 'subscription_schedule.released',
        data: { object: { id: 'sub_sched_1', object: 'subscription_schedule', subscription: null, released_subscription: sub!.id } },
      });
      const [after] = await t.database.db.select().from(subscriptions).where(eq(subscriptions.id, sub!.id));
      expect(after).toMatchObject({ scheduledTierId: null, scheduledAt: null });
      expect(await levelOf(m.id)).toBe('premium');
    });

    it('applies a duplicate once and ends right when deleted arrives before updated', async () => {
      const m = await member();
      const sessionId = await checkout(m.token, { priceId: 'price_premium_monthly' });
      // The provider's own delivery already applied the payment; a replayed event re-reads the same state.
      expect((await pay(sessionId, '4242424242424242')).status).toBe(200);
      const [sub] = await t.database.db.select().from(subscriptions).where(eq(subscriptions.userId, m.id));
      const completed = { id: `evt_completed_${sessionId}`, type: 'checkout.session.completed', data: { object: { id: sessionId } } };
      expect(await (await signed(completed)).json()).toEqual({ received: 1, applied: 1 });
      expect(await (await signed(completed)).json()).toEqual({ received: 1, applied: 0 });
      expect(await levelOf(m.id)).toBe('premium');
      expect(await mails(m.id)).toEqual(['billing-activated']);

      // The subscription ends at the provider; the "deleted" event comes first, a stale "updated" after.
      await t.services.billing.provider.cancelNow(sub!.id);
      await signed({
        id: `evt_deleted_${sub!.id}`,
        type: 'customer.subscription.deleted',
        data: { object: { id: sub!.id, status: 'canceled' } },
      });
      await signed({
        id: `evt_stale_${sub!.id}`,
        type: 'customer.subscription.updated',
        data: { object: { id: sub!.id, status: 'active' } },
      });
      expect(await levelOf(m.id)).toBe('free');
      const [row] = await t.database.db
        .select()
        .from(subscriptions)
        .where(and(eq(subscriptions.id, sub!.id)));
      expect(row!.status).toBe('canceled');
    });
  });

  describe('plan changes through the existing subscription', () => {
    const change = (token: string, subscriptionId: string, priceId: string) =>
      call(token, `/api/payments/stripe/subscriptions/${subscriptionId}/change`, { priceId });
    const mine = async (token: string) =>
      (await (await call(token, '/api/payments/subscription')).json()) as NonNullable<Answer<Api['payments']['subscription']['$get']>>;
    const mailRows = (userId: string, template: string) =>
      t.database.db
        .select()
        .from(emails)
        .where(and(eq(emails.userId, userId), eq(emails.template, template)));

    it('upgrades at once with a prorated charge and a receipt, and downgrades only when the paid period renews', async () => {
      const m = await member();
      await subscribe(m.token, 'price_subscriber_monthly');
      const sub = await mine(m.token);
      expect(sub).toMatchObject({ priceId: 'price_subscriber_monthly', scheduledChange: null });
      // A second checkout is still refused: changes go through this subscription.
      expect(
        (
          await call(m.token, '/api/payments/stripe/create-session', {
            priceId: 'price_premium_monthly',
            successUrl: SUCCESS,
            cancelUrl: '/pricing',
          })
        ).status,
      ).toBe(409);

      const up = await change(m.token, sub.subscriptionId, 'price_premium_monthly');
      expect(up.status, await up.clone().text()).toBe(200);
      const upgraded = (await up.json()) as ChangeAnswer;
      expect(upgraded).toMatchObject({ change: 'upgraded', accessLevel: 'premium', subscription: { priceId: 'price_premium_monthly' } });
      expect(upgraded.charged).toBeGreaterThan(990); // nearly the whole month's difference (1999 - 999)
      expect(upgraded.charged).toBeLessThanOrEqual(1000);
      expect(await levelOf(m.id)).toBe('premium');
      const [receipt] = await mailRows(m.id, 'billing-upgraded');
      expect(receipt!.subject).toBe('[Test mode] Your Beacon Growth plan is now Premium');
      expect(receipt!.bodyText).toContain(`Today we charged $${(upgraded.charged! / 100).toFixed(2)}`);
      expect((await change(m.token, sub.subscriptionId, 'price_premium_monthly')).status).toBe(409); // already on it

      // Down: held for the period end; premium stays until then.
      const down = (await (await change(m.token, sub.subscriptionId, 'price_subscriber_monthly')).json()) as ChangeAnswer;
      expect(down).toMatchObject({ change: 'scheduled', accessLevel: 'premium' });
      const held = await mine(m.token);
      expect(held).toMatchObject({
        priceId: 'price_premium_monthly',
        scheduledChange: { priceId: 'price_subscriber_monthly', effectiveAt: held.currentPeriodEnd },
      });
      expect(await levelOf(m.id)).toBe('premium');
      expect((await mailRows(m.id, 'billing-change-scheduled'))[0]!.bodyText).toContain('Your plan changes to Subscriber ($9.99/month) on');
      // The current plan again withdraws it; choosing the lower plan again holds it again.
      expect(((await (await change(m.token, sub.subscriptionId, 'price_premium_monthly')).json()) as ChangeAnswer).change).toBe('kept');
      expect((await mine(m.token)).scheduledChange).toBeNull();
      await change(m.token, sub.subscriptionId, 'price_subscriber_monthly');

      // The renewal applies it, through the provider's event: the level drops then, not before.
      offset += 32 * DAY;
      await t.services.embeddedBilling!.advance();
      expect(await levelOf(m.id)).toBe('subscriber');
      expect(await mine(m.token)).toMatchObject({ priceId: 'price_subscriber_monthly', scheduledChange: null });
      const audits = await t.database.db.select().from(auditLog).where(eq(auditLog.targetId, m.id));
      expect(audits.map((a) => [a.detail.from, a.detail.to])).toEqual([
        ['free', 'subscriber'],
        ['subscriber', 'premium'],
        ['premium', 'subscriber'],
      ]);
    });

    it('keeps every paid day between monthly and yearly, and a cancel drops the change held for the renewal', async () => {
      const m = await member();
      await subscribe(m.token, 'price_subscriber_monthly');
      const { subscriptionId } = await mine(m.token);
      // Monthly to yearly: a new yearly period now, the unused month credited against it.
      const yearly = (await (await change(m.token, subscriptionId, 'price_subscriber_yearly')).json()) as ChangeAnswer;
      expect(yearly.change).toBe('upgraded');
      expect(yearly.charged).toBeGreaterThan(9590 - 999 - 5);
      expect(yearly.charged).toBeLessThanOrEqual(9590 - 990);
      const year = await mine(m.token);
      expect(new Date(year.currentPeriodEnd).getTime()).toBeGreaterThan(Date.now() + offset + 360 * DAY);
      // Yearly back to monthly waits for the year's end.
      await change(m.token, subscriptionId, 'price_subscriber_monthly');
      expect((await mine(m.token)).scheduledChange).toEqual({
        priceId: 'price_subscriber_monthly',
        name: 'Subscriber',
        amount: 999,
        interval: 'month',
        effectiveAt: year.currentPeriodEnd,
      });
      // Cancelling ends the plan at the period end; the change held for then is dropped.
      expect((await call(m.token, `/api/payments/stripe/subscriptions/${subscriptionId}/cancel`, {})).status).toBe(200);
      expect(await mine(m.token)).toMatchObject({ cancelAtPeriodEnd: true, scheduledChange: null });
      // Choosing a paid plan again means staying: the cancel is withdrawn.
      expect(((await (await change(m.token, subscriptionId, 'price_subscriber_yearly')).json()) as ChangeAnswer).change).toBe('kept');
      expect((await mine(m.token)).cancelAtPeriodEnd).toBe(false);
      // Free is a cancel at the period end.
      expect(((await (await change(m.token, subscriptionId, 'price_free')).json()) as ChangeAnswer).change).toBe('scheduled');
      expect((await mine(m.token)).cancelAtPeriodEnd).toBe(true);
      expect(await levelOf(m.id)).toBe('subscriber');
    });

    it('changes nothing when the upgrade charge is declined, and the portal switch follows the same rules', async () => {
      const m = await member();
      await subscribe(m.token, 'price_subscriber_monthly', '4000 0000 0000 0341'); // pays now, later charges fail
      const { subscriptionId } = await mine(m.token);
      const declined = await change(m.token, subscriptionId, 'price_premium_monthly');
      expect(declined.status).toBe(402);
      expect(await mine(m.token)).toMatchObject({ priceId: 'price_subscriber_monthly' });
      expect(await levelOf(m.id)).toBe('subscriber');

      const other = await member();
      await subscribe(other.token, 'price_premium_yearly');
      const portal = new URL(
        (
          (await (
            await call(other.token, '/api/payments/stripe/create-portal-session', {
              customerId: await customerOf(other.id),
              returnUrl: '/account',
            })
          ).json()) as PortalAnswer
        ).url,
      ).searchParams.get('session')!;
      const own = await mine(other.token);
      const act = (body: object) => call(undefined, `/api/payments/test/portal/${portal}/subscriptions/${own.subscriptionId}`, body);
      // Down in the portal: held for the period end, the level stays.
      const switched = (await (await act({ action: 'switch', priceId: 'price_subscriber_monthly' })).json()) as Answer<
        Api['testBilling']['portal'][':id']['subscriptions'][':subscriptionId']['$post']
      >;
      expect(switched.subscription).toMatchObject({
        plan: { priceId: 'price_premium_yearly' },
        scheduledChange: { plan: { priceId: 'price_subscriber_monthly' } },
      });
      await t.services.embeddedBilling!.deliverPending();
      expect(await levelOf(other.id)).toBe('premium');
      // The portal's test clock renews now: the held plan takes over, and the level drops through the event.
      expect((await act({ action: 'advance' })).status).toBe(200);
      await t.services.embeddedBilling!.deliverPending();
      expect(await levelOf(other.id)).toBe('subscriber');
      expect(await mine(other.token)).toMatchObject({ priceId: 'price_subscriber_monthly', scheduledChange: null });
    });

    it('refuses plan changes for someone else’s subscription and for unknown plans', async () => {
      const m = await member();
      await subscribe(m.token, 'price_subscriber_monthly');
      const { subscriptionId } = await mine(m.token);
      const stranger = await member();
      expect((await change(stranger.token, subscriptionId, 'price_premium_monthly')).status).toBe(403);
      expect((await change(m.token, subscriptionId, 'price_gold_monthly')).status).toBe(422);
      expect(
        (await call(undefined, `/api/payments/stripe/subscriptions/${subscriptionId}/change`, { priceId: 'price_premium_monthly' })).status,
      ).toBe(401);
      expect(await (await call(stranger.token, '/api/payments/subscription')).json()).toBeNull();
    });
  });

  it('ends the subscription at the provider when the member deletes their account', async () => {
    const m = await member();
    await subscribe(m.token, 'price_subscriber_monthly');
    const customerId = await customerOf(m.id);
    expect((await call(m.token, '/api/users/me', undefined, 'DELETE')).status).toBe(204);
    const left = await t.services.billing.provider.listSubscriptions(customerId);
    expect(left.map((s) => s.status)).toEqual(['canceled']);
  });
});
