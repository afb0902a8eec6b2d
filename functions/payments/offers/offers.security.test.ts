/**
 * Offers' routes, on both databases: the role table (admins only for creating, listing, archiving
 * offers and setting trials, from a live session; the public terms for anyone; a subscription's
 * retention offer for its owner only) and the bad-input suite: codes with odd characters, negative,
 * zero and 100 %+ discounts, both or neither discount, months without a repeating duration, unknown
 * plans, amounts at or above a plan's price, past and far dates, a reused code; odd codes at checkout
 * and the public route. Bad input is a 4xx that writes nothing.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../tests/support/app.ts';
import { DATABASE_KINDS } from '../../../tests/support/databases.ts';
import {
  ADMIN_ONLY,
  apiCaller,
  ROLE_ACCOUNTS,
  ROLE_CALLERS,
  roleAccounts,
  type RoleCaller,
  type RoleMember,
} from '../../../tests/support/callers.ts';
import { offers } from './tables.ts';

const DAY = 86_400_000;

describe.each(DATABASE_KINDS)('offer routes on %s', (kind) => {
  let t: TestApp;
  let tokens = {} as Record<RoleMember, string>;

  beforeAll(async () => {
    t = await createTestApp(kind, undefined, { AUTH_BCRYPT_COST: '4', EMAIL_WORKER: 'false' });
    ({ tokens } = await roleAccounts(t, `offers-${kind}`, ROLE_ACCOUNTS));
  });
  afterAll(() => t?.close());

  const call = (who: RoleCaller, method: string, path: string, body?: unknown) =>
    apiCaller(t)(who === 'anonymous' ? undefined : tokens[who], path, body, method);
  const count = async () => (await t.database.db.select().from(offers)).length;

  it.each(ROLE_CALLERS)('lets only admins create, list and archive offers and set trials (%s)', async (who) => {
    const code = `ROLE-${who}`.toUpperCase();
    const made = await call(who, 'POST', '/api/admin/payments/offers', { code, kind: 'signup', percentOff: 10, duration: 'forever' });
    expect(made.status).toBe(who === 'admin' ? 201 : ADMIN_ONLY[who]);
    expect((await call(who, 'GET', '/api/admin/payments/offers')).status).toBe(ADMIN_ONLY[who]);
    expect((await call(who, 'PUT', '/api/admin/payments/offers/trials/price_subscriber_yearly', { days: 0 })).status).toBe(ADMIN_ONLY[who]);
    const { id } =
      who === 'admin'
        ? ((await made.json()) as { id: string })
        : await t.services.billing.offers.create('00000000-0000-4000-8000-000000000009', {
            code,
            kind: 'signup',
            percentOff: 10,
            duration: 'forever',
          });
    // Anyone reads a sign-up offer's terms.
    expect((await call(who, 'GET', `/api/payments/offers/${code}`)).status).toBe(200);
    expect((await call(who, 'DELETE', `/api/admin/payments/offers/${id}`)).status).toBe(who === 'admin' ? 204 : ADMIN_ONLY[who]);
    if (who !== 'admin') await t.services.billing.offers.archive(id);
    // Archived: gone from the public route.
    expect((await call(who, 'GET', `/api/payments/offers/${code}`)).status).toBe(404);
  });

  it('refuses bad offers with a 422 that writes nothing, and a code in use with a 409', async () => {
    const before = await count();
    const base = { code: 'GOOD-CODE', kind: 'signup', duration: 'once' };
    const bad: Record<string, unknown>[] = [
      {},
      { ...base, code: 'no spaces', percentOff: 10 },
      { ...base, code: 'ab', percentOff: 10 },
      { ...base, code: 'x'.repeat(41), percentOff: 10 },
      { ...base, code: 'CODE;DROP', percentOff: 10 },
      { ...base, code: 'CÓDIGO', percentOff: 10 },
      { ...base, code: '-DASHFIRST', percentOff: 10 },
      { ...base, code: 'NUL\u0000CODE', percentOff: 10 },
      { ...base, percentOff: -5 },
      { ...base, percentOff: 0 },
      { ...base, percentOff: 100 },
      { ...base, percentOff: 150 },
      { ...base, percentOff: 12.5 },
      { ...base, percentOff: '10' },
      { ...base, amountOff: -100 },
      { ...base, amountOff: 0 },
      { ...base, amountOff: 999 },
      { ...base, amountOff: 5000 },
      { ...base, percentOff: 10, amountOff: 100 },
      { ...base },
      { ...base, percentOff: 10, durationInMonths: 3 },
      { ...base, percentOff: 10, duration: 'repeating' },
      { ...base, percentOff: 10, duration: 'repeating', durationInMonths: 0 },
      { ...base, percentOff: 10, duration: 'repeating', durationInMonths: 37 },
      { ...base, percentOff: 10, duration: 'weekly' },
      { ...base, percentOff: 10, kind: 'winback' },
      { ...base, percentOff: 10, priceIds: [] },
      { ...base, percentOff: 10, priceIds: ['price_free'] },
      { ...base, percentOff: 10, priceIds: ['price_gold_monthly'] },
      { ...base, percentOff: 10, priceIds: 'price_premium_monthly' },
      { ...base, percentOff: 10, maxRedemptions: 0 },
      { ...base, percentOff: 10, maxRedemptions: -1 },
      { ...base, percentOff: 10, expiresAt: new Date(Date.now() - DAY).toISOString() },
      { ...base, percentOff: 10, expiresAt: new Date(Date.now() + 6 * 365 * DAY).toISOString() },
      { ...base, percentOff: 10, expiresAt: '+275760-09-13T00:00:00.000Z' },
      { ...base, percentOff: 10, expiresAt: 'next week' },
      { ...base, percentOff: 10, couponId: 'mine' },
    ];
    for (const body of bad) {
      const res = await call('admin', 'POST', '/api/admin/payments/offers', body);
      expect([400, 422], JSON.stringify(body)).toContain(res.status);
    }
    expect(await count()).toBe(before);
    expect((await call('admin', 'POST', '/api/admin/payments/offers', { ...base, percentOff: 10 })).status).toBe(201);
    // The same code, in any case: 409.
    expect((await call('admin', 'POST', '/api/admin/payments/offers', { ...base, code: 'good-code', percentOff: 20 })).status).toBe(409);
    expect(await count()).toBe(before + 1);
    // Trials: 0-90 whole days, for a paid plan.
    for (const days of [-1, 91, 1.5, '7'])
      expect((await call('admin', 'PUT', '/api/admin/payments/offers/trials/price_premium_monthly', { days })).status).toBe(422);
    expect((await call('admin', 'PUT', '/api/admin/payments/offers/trials/price_free', { days: 7 })).status).toBe(404);
    expect((await call('admin', 'PUT', '/api/admin/payments/offers/trials/price_gold_monthly', { days: 7 })).status).toBe(404);
    expect((await call('admin', 'DELETE', '/api/admin/payments/offers/not-a-uuid')).status).toBe(404);
    expect((await call('admin', 'DELETE', '/api/admin/payments/offers/00000000-0000-4000-8000-000000000001')).status).toBe(404);
  });

  it('answers odd, unknown, expired and retention codes alike: 404 on the public route, a 4xx at checkout', async () => {
    await t.services.billing.offers.create('00000000-0000-4000-8000-000000000009', {
      code: 'KEEPME',
      kind: 'retention',
      percentOff: 30,
      duration: 'once',
    });
    for (const code of ['NOPE-NOPE', 'KEEPME', 'a%20b', '..', 'x'.repeat(300), '%00', 'ÜBER']) {
      expect((await call('anonymous', 'GET', `/api/payments/offers/${code}`)).status, code).toBe(404);
    }
    const checkout = (offerCode: unknown) =>
      call('free', 'POST', '/api/payments/stripe/create-session', {
        priceId: 'price_premium_monthly',
        successUrl: '/account',
        cancelUrl: '/pricing',
        offerCode,
      });
    for (const code of ['no spaces', 'ab', 'x'.repeat(41), 42, ['GOOD-CODE'], 'NUL\u0000X'])
      expect((await checkout(code)).status, String(code)).toBe(422);
    expect((await checkout('NOPE-NOPE')).status).toBe(404);
    // A retention code is not a sign-up offer.
    expect((await checkout('KEEPME')).status).toBe(404);
    // An offer on a one-time item is refused.
    const item = await call('free', 'POST', '/api/payments/stripe/create-session', {
      item: { type: 'market', slug: 'website-wireframe-kit' },
      successUrl: '/account',
      cancelUrl: '/market',
      offerCode: 'GOOD-CODE',
    });
    expect(item.status).toBe(422);
  });

  it('keeps a subscription’s retention offer to its owner, and refuses odd codes', async () => {
    const path = '/api/payments/stripe/subscriptions/sub_missing/retention-offer';
    expect((await call('anonymous', 'GET', path)).status).toBe(401);
    expect((await call('anonymous', 'POST', path, { code: 'KEEPME' })).status).toBe(401);
    expect((await call('free', 'GET', path)).status).toBe(404);
    expect((await call('free', 'POST', path, { code: 'KEEPME' })).status).toBe(404);
    for (const body of [{}, { code: 'no spaces' }, { code: 'KEEPME', extra: 1 }])
      expect((await call('free', 'POST', path, body)).status).toBe(422);
    expect((await call('free', 'GET', '/api/payments/stripe/subscriptions/sub%20bad/retention-offer')).status).toBe(404);
  });
});
