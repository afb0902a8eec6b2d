/**
 * The payment API's role table, on both databases: every payment route x {anonymous, owner,
 * another member, admin}, with the status each gets. A member acts only on their own customer,
 * checkout sessions and subscriptions; staff get no say over anyone's billing. Plus the embedded
 * provider's page API (the session id is the capability) and hostile ids.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { profiles } from '../users/tables.ts';
import { subscriptions } from './tables.ts';
import { createTestApp, type TestApp } from '../../tests/support/app.ts';
import type { Api, Answer } from '../../tests/support/answers.ts';
import { DATABASE_KINDS } from '../../tests/support/databases.ts';

const PASSWORD = 'billing table pass';
type Caller = 'anonymous' | 'owner' | 'another' | 'admin';
const CALLERS: Caller[] = ['anonymous', 'owner', 'another', 'admin'];
const SUCCESS = '/payment/confirmation?session_id={CHECKOUT_SESSION_ID}&payment_status=success';

describe.each(DATABASE_KINDS)('payment routes on %s', (kind) => {
  let t: TestApp;
  const who = {} as Record<Exclude<Caller, 'anonymous'>, { id: string; token: string }>;
  let customerId: string;
  let subscriptionId: string;
  let paidSession: string;

  beforeAll(async () => {
    t = await createTestApp(kind, undefined, { AUTH_BCRYPT_COST: '4', EMAIL_WORKER: 'false' });
    await t.services.start();
    for (const name of ['owner', 'another', 'admin'] as const) {
      const email = `${name}-${kind}@billing-table.test`;
      const id = await t.services.auth.createConfirmedUser(email, PASSWORD, name);
      if (name === 'admin') await t.services.users.assign(id, 'admin', 'premium');
      who[name] = { id, token: (await t.services.auth.signInWithPassword({ email, password: PASSWORD })).access_token };
    }
    // The owner pays for a plan; the others never do, so each has their own (or no) customer.
    const res = await call('owner', '/api/payments/stripe/create-session', {
      priceId: 'price_subscriber_monthly',
      successUrl: SUCCESS,
      cancelUrl: '/pricing',
    });
    paidSession = ((await res.json()) as Answer<Api['payments']['stripe']['create-session']['$post']>).sessionId;
    await t.services.embeddedBilling!.testPages.pay(paidSession, { cardNumber: '4242424242424242', expiry: '12/34', cvc: '123' });
    customerId = (await t.database.db.select().from(profiles).where(eq(profiles.id, who.owner.id)))[0]!.customerId!;
    subscriptionId = (await t.database.db.select().from(subscriptions).where(eq(subscriptions.userId, who.owner.id)))[0]!.id;
  });
  afterAll(() => t?.close());

  function call(caller: Caller, path: string, body?: unknown) {
    const headers: Record<string, string> = {};
    if (caller !== 'anonymous') headers.authorization = `Bearer ${who[caller].token}`;
    if (body !== undefined) headers['content-type'] = 'application/json';
    return t.app.request(path, {
      method: body === undefined ? 'GET' : 'POST',
      headers,
      ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
    });
  }

  const TABLE: { label: string; call: (c: Caller) => Response | Promise<Response>; expected: Record<Caller, number> }[] = [
    {
      label: 'confirm the owner’s session',
      call: (c) => call(c, '/api/payments/stripe/confirm', { sessionId: paidSession }),
      expected: { anonymous: 401, owner: 200, another: 403, admin: 403 },
    },
    {
      label: 'read the owner’s subscription',
      call: (c) => call(c, `/api/payments/stripe/subscriptions/${customerId}`),
      expected: { anonymous: 401, owner: 200, another: 403, admin: 403 },
    },
    {
      label: 'open the owner’s portal',
      call: (c) => call(c, '/api/payments/stripe/create-portal-session', { customerId, returnUrl: '/account' }),
      expected: { anonymous: 401, owner: 200, another: 403, admin: 403 },
    },
    {
      label: 'read one’s own plan (each their own, null without one)',
      call: (c) => call(c, '/api/payments/subscription'),
      expected: { anonymous: 401, owner: 200, another: 200, admin: 200 },
    },
    {
      label: 'withdraw a change on the owner’s subscription (the current plan again)',
      call: (c) => call(c, `/api/payments/stripe/subscriptions/${subscriptionId}/change`, { priceId: 'price_subscriber_monthly' }),
      // The owner has nothing scheduled: already on this plan.
      expected: { anonymous: 401, owner: 409, another: 403, admin: 403 },
    },
    {
      label: 'list purchases (each their own)',
      call: (c) => call(c, '/api/payments/purchases'),
      expected: { anonymous: 401, owner: 200, another: 200, admin: 200 },
    },
    {
      label: 'start a checkout for oneself',
      call: (c) =>
        call(c, '/api/payments/stripe/create-session', { priceId: 'price_premium_yearly', successUrl: SUCCESS, cancelUrl: '/pricing' }),
      // The owner already has a plan: the second one is refused.
      expected: { anonymous: 401, owner: 409, another: 200, admin: 200 },
    },
    {
      label: 'start a checkout for the owner',
      call: (c) =>
        call(c, '/api/payments/stripe/create-session', {
          priceId: 'price_premium_yearly',
          successUrl: SUCCESS,
          cancelUrl: '/pricing',
          userId: who.owner.id,
        }),
      expected: { anonymous: 401, owner: 409, another: 403, admin: 403 },
    },
    {
      label: 'confirm a session for the owner’s user id',
      call: (c) => call(c, '/api/payments/stripe/confirm', { sessionId: paidSession, userId: who.owner.id }),
      expected: { anonymous: 401, owner: 200, another: 403, admin: 403 },
    },
    // Last: changing and cancelling change the owner's plan.
    {
      label: 'upgrade the owner’s subscription',
      call: (c) => call(c, `/api/payments/stripe/subscriptions/${subscriptionId}/change`, { priceId: 'price_premium_monthly' }),
      expected: { anonymous: 401, owner: 200, another: 403, admin: 403 },
    },
    {
      label: 'cancel the owner’s subscription',
      call: (c) => call(c, `/api/payments/stripe/subscriptions/${subscriptionId}/cancel`, {}),
      expected: { anonymous: 401, owner: 200, another: 403, admin: 403 },
    },
  ];

  it.each(TABLE)('$label', async ({ call: send, expected }) => {
    // The owner goes last, so a refused caller cannot ride on a change the owner made.
    for (const caller of [...CALLERS].sort((a) => (a === 'owner' ? 1 : -1))) {
      const res = await send(caller);
      expect(res.status, `${caller}: ${await res.clone().text()}`).toBe(expected[caller]);
    }
  });

  it('never lets another member cancel or read through a customer they do not own', async () => {
    const another = await call('another', `/api/payments/stripe/subscriptions/${subscriptionId}/cancel`, {});
    expect(another.status).toBe(403);
    const [row] = await t.database.db.select().from(subscriptions).where(eq(subscriptions.id, subscriptionId));
    expect(row!.status).toBe('active');
  });

  it('answers unknown and hostile ids with 4xx, never 5xx', async () => {
    const paths: [string, unknown?][] = [
      ['/api/payments/stripe/subscriptions/cus_nobody'],
      ['/api/payments/stripe/subscriptions/%00'],
      ['/api/payments/stripe/subscriptions/..%2F..'],
      [`/api/payments/stripe/subscriptions/${'x'.repeat(300)}`],
      ['/api/payments/stripe/subscriptions/sub_nobody/cancel', {}],
      ['/api/payments/stripe/subscriptions/%0d%0a/cancel', {}],
      ['/api/payments/stripe/subscriptions/sub_nobody/change', { priceId: 'price_premium_monthly' }],
      [`/api/payments/stripe/subscriptions/${subscriptionId}/change`, { priceId: 'price_premium_monthly', userId: 'x' }],
      [`/api/payments/stripe/subscriptions/${subscriptionId}/change`, {}],
      ['/api/payments/stripe/confirm', { sessionId: 'cs_nobody' }],
      ['/api/payments/stripe/confirm', { sessionId: '../../x' }],
      ['/api/payments/stripe/confirm', { sessionId: 'cs_x', userId: 'not-a-uuid' }],
      ['/api/payments/stripe/create-session', { priceId: 'price_free', successUrl: SUCCESS, cancelUrl: '/pricing' }],
      ['/api/payments/stripe/create-session', { priceId: 'price_gold_monthly', successUrl: SUCCESS, cancelUrl: '/pricing' }],
      [
        '/api/payments/stripe/create-session',
        { priceId: 'price_premium_monthly', successUrl: 'https://evil.example/x', cancelUrl: '/pricing' },
      ],
      ['/api/payments/stripe/create-session', { priceId: 'price_premium_monthly', successUrl: '//evil.example/x', cancelUrl: '/pricing' }],
      [
        '/api/payments/stripe/create-session',
        { priceId: 'price_premium_monthly', successUrl: 'javascript:alert(1)', cancelUrl: '/pricing' },
      ],
      [
        '/api/payments/stripe/create-session',
        { priceId: 'price_premium_monthly', item: { type: 'market', slug: 'x' }, successUrl: SUCCESS, cancelUrl: '/p' },
      ],
      [
        '/api/payments/stripe/create-session',
        { item: { type: 'blog', slug: 'pillar-pages-that-rank' }, successUrl: SUCCESS, cancelUrl: '/p' },
      ],
      ['/api/payments/stripe/create-session', { item: { type: 'market', slug: 'no-such-item' }, successUrl: SUCCESS, cancelUrl: '/p' }],
      ['/api/payments/stripe/create-portal-session', { customerId: customerId, returnUrl: 'https://evil.example/' }],
    ];
    for (const [path, body] of paths) {
      const res = await call('another', path, body);
      expect(res.status, path).toBeGreaterThanOrEqual(400);
      expect(res.status, path).toBeLessThan(500);
    }
  });

  it('serves the test checkout and portal only by their unguessable ids', async () => {
    for (const path of [
      '/api/payments/test/checkout/cs_test_guess',
      '/api/payments/test/checkout/%00',
      '/api/payments/test/portal/bps_test_guessguessguessguess',
    ]) {
      expect((await t.app.request(path)).status, path).toBe(404);
    }
    // A portal session opens only its own customer's subscriptions.
    const res = await call('another', '/api/payments/stripe/create-session', {
      priceId: 'price_premium_monthly',
      successUrl: SUCCESS,
      cancelUrl: '/pricing',
    });
    expect(res.status).toBe(200);
    const anotherCustomer = (await t.database.db.select().from(profiles).where(eq(profiles.id, who.another.id)))[0]!.customerId!;
    const portal = new URL(
      (await t.services.billing.provider.createPortalSession({ customerId: anotherCustomer, returnUrl: '/account' })).url,
    );
    const attempt = await t.app.request(`/api/payments/test/portal/${portal.searchParams.get('session')}/subscriptions/${subscriptionId}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ action: 'cancel' }),
    });
    expect(attempt.status).toBe(404);
  });
});
