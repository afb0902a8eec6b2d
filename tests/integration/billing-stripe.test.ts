/**
 * Payments through the Stripe adapter: the real server (`functions/server.ts`, a child process) on a
 * fresh Postgres, configured with a Stripe key and webhook secret and pointed (STRIPE_API_URL) at the
 * stateful Stripe fake. Checkout, confirm, reads, cancel and the portal go through the official SDK;
 * Stripe failing answers 503. Crash safety: the server is killed (SIGKILL) after Stripe marked the
 * session paid but before confirm returns; after a restart, the webhook (delivered twice) and confirm
 * together grant the level exactly once: one subscription row, one audit entry, one receipt. A paid
 * checkout for an item unpublished meanwhile is refunded through Stripe, once, and never recorded.
 * Plan changes: an upgrade invoiced at once, a downgrade held on a subscription schedule, which
 * keeping the plan or cancelling releases.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { openDatabase, type Database } from '../../functions/platform/db/client.ts';
import { createMdxSource } from '../../functions/content/mdx-source.ts';
import { createContentService } from '../../functions/content/service.ts';
import { auditLog, profiles } from '../../functions/users/tables.ts';
import { emails } from '../../functions/email/tables.ts';
import { purchases, subscriptions } from '../../functions/payments/tables.ts';
import { webhookEvents } from '../../functions/platform/webhooks/tables.ts';
import { idempotencyKeys } from '../../functions/platform/idempotency/tables.ts';
import { DEMO_PASSWORD } from '../../functions/users/demo.ts';
import { CONTENT_DIR } from '../support/app.ts';
import type { Api, Answer, ErrorAnswer, SessionAnswer } from '../support/answers.ts';
import { pgAdminUrl, pooledEnv } from '../support/databases.ts';
import { makeMarketInput, quietLogger } from '../support/fixtures.ts';
import { REFUSED_PURCHASE } from '#shared/payments/purchasable.ts';
import { createTestDatabase, freePort } from '../support/postgres.ts';
import { signedEvent, startStripeFake, type StripeFake } from '../support/stripe-fake.ts';
import { tempDir } from '../support/temp.ts';

const ROOT = path.resolve(import.meta.dirname, '../..');
const WEBHOOK_SECRET = 'whsec_billing_stripe_test_secret';
const SUCCESS = '/payment/confirmation?session_id={CHECKOUT_SESSION_ID}&payment_status=success';
type CheckoutAnswer = Answer<Api['payments']['stripe']['create-session']['$post']>;
type CancelAnswer = Answer<Api['payments']['stripe']['subscriptions'][':subscriptionId']['cancel']['$post']>;

describe('payments through the Stripe adapter (real server, Postgres, Stripe fake)', () => {
  let fake: StripeFake;
  let database: Database;
  let env: Record<string, string>;
  let base: string;
  let child: ChildProcess | undefined;

  /** Starts `functions/server.ts` and waits for its URL. */
  async function startChild(): Promise<ChildProcess> {
    const proc = spawn(process.execPath, [path.join(ROOT, 'functions/server.ts')], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    await new Promise<void>((resolve, reject) => {
      proc.stdout.on('data', (d: Buffer) => {
        out += d.toString();
        if (out.includes('is running at')) resolve();
      });
      proc.stderr.on('data', (d: Buffer) => (out += d.toString()));
      proc.once('exit', (code) => reject(new Error(`server exited (${code}):\n${out}`)));
    });
    return proc;
  }

  beforeAll(async () => {
    fake = await startStripeFake();
    const url = await createTestDatabase(pgAdminUrl(), 'billing_stripe');
    database = await openDatabase({ kind: 'postgres', url, poolSize: 2 }, quietLogger());
    const port = await freePort();
    base = `http://127.0.0.1:${port}`;
    env = {
      PATH: process.env.PATH ?? '',
      PORT: String(port),
      SITE_URL: base,
      ...pooledEnv(url),
      DATA_DIR: await tempDir('billing-stripe'),
      DIST_DIR: inject('testEnv').distDir,
      CONTENT_DIR,
      LOG_LEVEL: 'silent',
      EMAIL_WORKER: 'false',
      AUTH_SEED_DEMO: 'true',
      AUTH_BCRYPT_COST: '4',
      STRIPE_SECRET_KEY: 'sk_test_billing_stripe',
      STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET,
      STRIPE_API_URL: `${fake.protocol}://${fake.host}:${fake.port}`,
    };
    child = await startChild();
  }, 60_000);

  afterAll(async () => {
    child?.kill('SIGKILL');
    await database?.close();
    await fake?.close();
  });

  async function signIn(email: string): Promise<{ token: string; id: string }> {
    const res = await fetch(`${base}/auth/v1/token?grant_type=password`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email, password: DEMO_PASSWORD }),
    });
    expect(res.status, email).toBe(200);
    const body = (await res.json()) as SessionAnswer;
    return { token: body.access_token, id: body.user.id };
  }

  function call(token: string, route: string, body?: unknown) {
    return fetch(`${base}/api/payments${route}`, {
      method: body === undefined ? 'GET' : 'POST',
      headers: { authorization: `Bearer ${token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
  }

  /** Ends a demo account's comps through the admin API, so its level follows only what it pays. */
  async function endComps(memberId: string): Promise<void> {
    const admin = await signIn('admin@demo.beacongrowth.co');
    const headers = { authorization: `Bearer ${admin.token}` };
    const grants = (await (await fetch(`${base}/api/admin/payments/members/${memberId}/grants`, { headers })).json()) as {
      id: string;
      source: string;
      active: boolean;
    }[];
    for (const comp of grants.filter((g) => g.source === 'comp' && g.active)) {
      const res = await fetch(`${base}/api/admin/payments/members/${memberId}/comps/${comp.id}`, { method: 'DELETE', headers });
      expect(res.status).toBe(204);
    }
  }

  async function checkout(token: string, priceId: string): Promise<string> {
    const res = await call(token, '/stripe/create-session', { priceId, successUrl: SUCCESS, cancelUrl: '/pricing?canceled=true' });
    expect(res.status, await res.clone().text()).toBe(200);
    const { sessionId, url } = (await res.json()) as Extract<CheckoutAnswer, { url: string }>;
    expect(url).toBe(`https://checkout.stripe.com/c/pay/${sessionId}`);
    return sessionId;
  }

  const levelOf = async (id: string) => (await database.db.select().from(profiles).where(eq(profiles.id, id)))[0]!.accessLevel;

  it('checks out, confirms, reads, cancels and opens the portal through the SDK; Stripe failing answers 503', async () => {
    const member = await signIn('free@demo.beacongrowth.co');
    const sessionId = await checkout(member.token, 'price_premium_monthly');
    const created = fake.state.sessions.get(sessionId)!;
    expect(created).toMatchObject({ mode: 'subscription', client_reference_id: member.id });
    expect(created.success_url).toBe(`${base}/payment/confirmation?session_id={CHECKOUT_SESSION_ID}&payment_status=success`);

    // Not paid yet: confirm refuses and nothing changes.
    expect((await call(member.token, '/stripe/confirm', { sessionId })).status).toBe(409);
    fake.completeSession(sessionId);
    const confirmed = await call(member.token, '/stripe/confirm', { sessionId });
    expect(await confirmed.json()).toMatchObject({ accessLevel: 'premium', mode: 'subscription' });
    expect(await levelOf(member.id)).toBe('premium');

    // A second plan is refused while this one grants access.
    expect(
      (
        await call(member.token, '/stripe/create-session', {
          priceId: 'price_subscriber_monthly',
          successUrl: SUCCESS,
          cancelUrl: '/pricing',
        })
      ).status,
    ).toBe(409);

    const customerId = created.customer!;
    const read = await call(member.token, `/stripe/subscriptions/${customerId}`);
    const subscription = (await read.json()) as NonNullable<Answer<Api['payments']['stripe']['subscriptions'][':customerId']['$get']>>;
    expect(subscription).toMatchObject({ status: 'active', cancelAtPeriodEnd: false });

    const canceled = await call(member.token, `/stripe/subscriptions/${subscription.subscriptionId}/cancel`, {});
    expect(((await canceled.json()) as CancelAnswer).subscription.cancelAtPeriodEnd).toBe(true);
    expect(fake.state.subscriptions.get(subscription.subscriptionId)!.cancel_at_period_end).toBe(true);
    expect(await levelOf(member.id)).toBe('premium'); // paid until the period ends

    const portal = await call(member.token, '/stripe/create-portal-session', { customerId, returnUrl: '/account' });
    expect(portal.status).toBe(200);
    expect(((await portal.json()) as Answer<Api['payments']['stripe']['create-portal-session']['$post']>).url).toMatch(
      /^https:\/\/billing\.stripe\.com\//,
    );

    // Stripe down (the SDK's two retries included): a 503 the browser can retry, in the one error shape.
    fake.failNext(3);
    const down = await call(member.token, '/stripe/create-portal-session', { customerId, returnUrl: '/account' });
    expect(down.status).toBe(503);
    expect(((await down.json()) as ErrorAnswer).error.code).toBe('unavailable');
  });

  it('changes plans through the SDK: an upgrade invoiced at once, a downgrade on a schedule that keep and cancel release', async () => {
    const member = await signIn('premium@demo.beacongrowth.co');
    // The demo account's premium is a comp: ended, its level follows the plan alone.
    await endComps(member.id);
    const sessionId = await checkout(member.token, 'price_subscriber_monthly');
    const subscriptionId = fake.completeSession(sessionId).subscription!.id;
    expect(await (await call(member.token, '/stripe/confirm', { sessionId })).json()).toMatchObject({ accessLevel: 'subscriber' });
    const change = async (priceId: string) => {
      const res = await call(member.token, `/stripe/subscriptions/${subscriptionId}/change`, { priceId });
      expect(res.status, await res.clone().text()).toBe(200);
      return (await res.json()) as Answer<Api['payments']['stripe']['subscriptions'][':subscriptionId']['change']['$post']>;
    };

    const up = await change('price_premium_monthly');
    expect(up).toMatchObject({ change: 'upgraded', accessLevel: 'premium' });
    expect(up.charged).toBeGreaterThan(990);
    expect(await levelOf(member.id)).toBe('premium');
    const receipts = await database.db
      .select()
      .from(emails)
      .where(and(eq(emails.userId, member.id), eq(emails.template, 'billing-upgraded')));
    expect(receipts).toHaveLength(1);

    const down = await change('price_subscriber_monthly');
    expect(down).toMatchObject({
      change: 'scheduled',
      accessLevel: 'premium',
      subscription: { scheduledChange: { priceId: 'price_subscriber_monthly' } },
    });
    const schedule = fake.state.subscriptions.get(subscriptionId)!.schedule!;
    // Keep: the schedule is released, nothing changes.
    expect(await change('price_premium_monthly')).toMatchObject({ change: 'kept', subscription: { scheduledChange: null } });
    expect(fake.state.schedules.get(schedule)!.status).toBe('released');
    // Down again, then cancel: the new schedule is released first (Stripe refuses a cancel under a schedule).
    await change('price_subscriber_monthly');
    const canceled = await call(member.token, `/stripe/subscriptions/${subscriptionId}/cancel`, {});
    expect(canceled.status, await canceled.clone().text()).toBe(200);
    expect(fake.state.subscriptions.get(subscriptionId)).toMatchObject({ schedule: null, cancel_at_period_end: true });
    expect(await levelOf(member.id)).toBe('premium'); // paid until the period ends
  });

  it('grants the level exactly once when the server dies between payment and confirm', async () => {
    const member = await signIn('subscriber@demo.beacongrowth.co');
    const sessionId = await checkout(member.token, 'price_premium_yearly');
    const { subscription } = fake.completeSession(sessionId); // Stripe has the money

    // The server is killed while it re-reads the paid subscription during confirm.
    const running = child!;
    const exited = new Promise((resolve) => running.once('exit', resolve));
    fake.intercept(async (request) => {
      if (request.method === 'GET' && request.path === `/v1/subscriptions/${subscription!.id}`) {
        running.kill('SIGKILL');
        await exited;
      }
    });
    await expect(call(member.token, '/stripe/confirm', { sessionId })).rejects.toThrow();
    await exited;
    fake.intercept(undefined);
    expect(await levelOf(member.id)).toBe('subscriber');
    expect(await database.db.select().from(subscriptions).where(eq(subscriptions.userId, member.id))).toEqual([]);

    child = await startChild();
    // Stripe retries its webhook (twice here) while the member's browser confirms again: all at once.
    const event = {
      id: 'evt_crash_checkout_completed',
      object: 'event',
      type: 'checkout.session.completed',
      created: Math.floor(Date.now() / 1000),
      data: { object: { id: sessionId, object: 'checkout.session' } },
    };
    const deliver = () => {
      const { payload, header } = signedEvent(WEBHOOK_SECRET, event);
      return fetch(`${base}/api/payments/stripe/webhook`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'stripe-signature': header },
        body: payload,
      });
    };
    const [first, second, confirm] = await Promise.all([deliver(), deliver(), call(member.token, '/stripe/confirm', { sessionId })]);
    expect([first.status, second.status]).toEqual([200, 200]);
    expect(await confirm.json()).toMatchObject({ accessLevel: 'premium' });
    expect((await deliver()).status).toBe(200); // a late duplicate

    expect(await levelOf(member.id)).toBe('premium');
    expect(await database.db.select().from(subscriptions).where(eq(subscriptions.userId, member.id))).toHaveLength(1);
    const audits = await database.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.targetId, member.id), eq(auditLog.action, 'access_level.billing')));
    expect(audits.map((a) => a.detail)).toEqual([expect.objectContaining({ from: 'subscriber', to: 'premium' })]);
    const receipts = await database.db
      .select()
      .from(emails)
      .where(and(eq(emails.userId, member.id), eq(emails.template, 'billing-activated')));
    expect(receipts).toHaveLength(1);
    expect(await database.db.select().from(webhookEvents).where(eq(webhookEvents.id, event.id))).toHaveLength(1);
  });

  it('refunds through Stripe, once, a checkout whose item was unpublished before the payment was recorded', async () => {
    const content = createContentService({ db: database.db, mdx: await createMdxSource(CONTENT_DIR), logger: quietLogger() });
    const item = await content.create('market', makeMarketInput({ slug: 'stripe-withdrawn-kit', accessLevel: 'free', price: 24 }));
    await expect.poll(async () => (await fetch(`${base}/api/public/market/${item.slug}`)).status, { timeout: 10_000 }).toBe(200);
    const member = await signIn('premium@demo.beacongrowth.co');
    const res = await call(member.token, '/stripe/create-session', {
      item: { type: 'market', slug: item.slug },
      successUrl: SUCCESS,
      cancelUrl: `/market/${item.slug}`,
    });
    expect(res.status, await res.clone().text()).toBe(200);
    const { sessionId } = (await res.json()) as CheckoutAnswer;
    // Unpublished by another instance while the member pays; the server hears of it through Postgres.
    await content.update('market', item.id, { published: false });
    await expect.poll(async () => (await fetch(`${base}/api/public/market/${item.slug}`)).status, { timeout: 10_000 }).toBe(404);
    fake.completeSession(sessionId);

    const event = {
      id: `evt_withdrawn_${sessionId}`,
      object: 'event',
      type: 'checkout.session.completed',
      created: Math.floor(Date.now() / 1000),
      data: { object: { id: sessionId, object: 'checkout.session' } },
    };
    const { payload, header } = signedEvent(WEBHOOK_SECRET, event);
    const deliver = () =>
      fetch(`${base}/api/payments/stripe/webhook`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'stripe-signature': header },
        body: payload,
      });
    const [webhook, confirm] = await Promise.all([deliver(), call(member.token, '/stripe/confirm', { sessionId })]);
    expect(webhook.status).toBe(200);
    expect(confirm.status).toBe(409);
    expect(((await confirm.json()) as ErrorAnswer).error.message).toBe(REFUSED_PURCHASE);
    expect((await call(member.token, '/stripe/confirm', { sessionId })).status).toBe(409);

    // One full refund of the session's payment, asked under the session's idempotency key.
    const paymentIntent = fake.state.sessions.get(sessionId)!.payment_intent;
    expect([...fake.state.refunds.values()]).toEqual([expect.objectContaining({ payment_intent: paymentIntent, amount: 2400 })]);
    const asked = fake.requests.filter((r) => r.method === 'POST' && r.path === '/v1/refunds');
    expect(asked.length).toBeGreaterThanOrEqual(1);
    expect(new Set(asked.map((r) => r.idempotencyKey))).toEqual(new Set([`refund-${sessionId}`]));

    expect(await database.db.select().from(purchases).where(eq(purchases.userId, member.id))).toEqual([]);
    const refundMails = await database.db
      .select()
      .from(emails)
      .where(and(eq(emails.userId, member.id), eq(emails.template, 'billing-refunded')));
    expect(refundMails.map((m) => m.subject)).toEqual([`[Test mode] Your payment for ${item.title} was refunded`]);
    const refunded = await database.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.targetId, member.id), eq(auditLog.action, 'purchase.refunded')));
    expect(refunded.map((a) => a.detail)).toEqual([expect.objectContaining({ sessionId, refundId: [...fake.state.refunds.keys()][0] })]);
  });

  it("hands a checkout's Idempotency-Key to Stripe, so a retry that runs again after a death answers the same session", async () => {
    const member = await signIn('editor@demo.beacongrowth.co');
    const key = crypto.randomUUID();
    const create = () =>
      fetch(`${base}/api/payments/stripe/create-session`, {
        method: 'POST',
        headers: { authorization: `Bearer ${member.token}`, 'content-type': 'application/json', 'idempotency-key': key },
        body: JSON.stringify({ priceId: 'price_premium_yearly', successUrl: SUCCESS, cancelUrl: '/pricing' }),
      });
    const asked = () => fake.requests.filter((r) => r.method === 'POST' && r.path === '/v1/checkout/sessions' && r.idempotencyKey !== null);
    const before = asked().length;
    const first = (await (await create()).json()) as Extract<CheckoutAnswer, { sessionId: string }>;
    // Replayed by us: Stripe is not asked again.
    const again = await create();
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(await again.json()).toEqual(first);
    expect(asked()).toHaveLength(before + 1);
    // The attempt died before its answer was kept (nothing of ours committed) and its lease ran out: the retry runs again.
    await database.db
      .update(idempotencyKeys)
      .set({ status: null, headers: null, body: null, claim: 'dead', lockedUntil: sql`now() - interval '1 second'` })
      .where(eq(idempotencyKeys.key, key));
    const retry = await create();
    expect(retry.headers.get('idempotent-replayed')).toBeNull();
    expect(await retry.json()).toEqual(first);
    const keys = asked()
      .slice(before)
      .map((r) => r.idempotencyKey);
    expect(keys).toHaveLength(2);
    expect(new Set(keys).size).toBe(1);
    expect(keys[0]).toMatch(/^checkout-[\w-]{43}$/);
    expect(keys[0]).not.toContain(key);
  });
});
