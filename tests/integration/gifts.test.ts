/**
 * Gift memberships end to end on the embedded provider, on both databases (issue 34, item 5): bought
 * and paid once (the buyer's receipt now, the recipient's mail at the delivery date), previewed by
 * code without the recipient's address, redeemed once (50 concurrent tries by different members: one
 * wins), running out through the sweep with its mail; a paying member's gift waits for their paid
 * access to end; an expired gift is refused; the bad-input suite for buying and redeeming.
 */
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { emails } from '../../functions/email/tables.ts';
import { gifts } from '../../functions/payments/gifts/tables.ts';
import { accessGrants } from '../../functions/payments/grants/tables.ts';
import { subscriptions } from '../../functions/payments/tables.ts';
import { profiles } from '../../functions/users/tables.ts';
import { createTestApp, type TestApp } from '../support/app.ts';
import { DATABASE_KINDS } from '../support/databases.ts';
import { apiCaller, memberMaker } from '../support/callers.ts';
import { expectNoLevelWithoutAGrant } from '../support/grants.ts';

const DAY = 86_400_000;

describe.each(DATABASE_KINDS)('gifts on %s', (kind) => {
  let t: TestApp;
  let offset = 0;
  const clock = () => new Date(Date.now() + offset);
  let n = 0;
  let member: ReturnType<typeof memberMaker>;

  beforeAll(async () => {
    t = await createTestApp(kind, undefined, { AUTH_BCRYPT_COST: '4', EMAIL_WORKER: 'false' }, { billingClock: clock });
    member = memberMaker(t, `${kind}-gifts`, 'Ana Giver');
    await t.services.connectEvents();
  });
  afterAll(async () => {
    await expectNoLevelWithoutAGrant(t.database.db);
    await t?.close();
  });

  const call = (token: string | undefined, path: string, body?: unknown, method?: string) => apiCaller(t)(token, path, body, method);
  const pay = (sessionId: string) =>
    call(undefined, `/api/payments/test/checkout/${sessionId}/pay`, { cardNumber: '4242 4242 4242 4242', expiry: '12/34', cvc: '123' });
  const levelOf = async (id: string) => (await t.database.db.select().from(profiles).where(eq(profiles.id, id)))[0]!.accessLevel;

  /** A paid gift from a new buyer; answers its code and its buyer. */
  async function paidGift(extra: Record<string, unknown> = {}) {
    const buyer = await member();
    const res = await call(buyer.token, '/api/payments/gifts', {
      accessLevel: 'premium',
      months: 3,
      recipientEmail: `friend${n++}-${kind}@gifts.test`,
      successUrl: '/account?gift=sent',
      cancelUrl: '/gift',
      ...extra,
    });
    expect(res.status, await res.clone().text()).toBe(200);
    const { sessionId } = (await res.json()) as { sessionId: string };
    expect((await pay(sessionId)).status).toBe(200);
    const [gift] = await t.database.db.select().from(gifts).where(eq(gifts.sessionId, sessionId));
    expect(gift!.status).toBe('paid');
    return { code: gift!.code, gift: gift!, buyer };
  }

  it('sells a gift once: the buyer’s receipt now, the recipient’s mail with the link at the delivery date', async () => {
    const deliverAt = new Date(Date.now() + 2 * DAY);
    const { code, gift, buyer } = await paidGift({
      recipientName: 'Bea',
      message: 'For the audit project.\nEnjoy!',
      deliverAt: deliverAt.toISOString(),
    });
    expect(gift).toMatchObject({ accessLevel: 'premium', months: 3, amount: 5997, buyerName: 'Ana Giver' });
    // A year to redeem from the day it arrives, not from the payment.
    expect(Math.round((gift.expiresAt!.getTime() - deliverAt.getTime()) / DAY)).toBe(365);
    const [receipt] = await t.database.db
      .select()
      .from(emails)
      .where(and(eq(emails.userId, buyer.id), eq(emails.template, 'gift-purchased')));
    expect(receipt!.subject).toContain('Premium, 3 months');
    const [mail] = await t.database.db
      .select()
      .from(emails)
      .where(and(eq(emails.to, gift.recipientEmail), eq(emails.template, 'gift-received')));
    expect(mail!.bodyText).toContain(`/gift/redeem?code=${code}`);
    expect(mail!.bodyText).toContain('For the audit project.');
    expect(Math.abs(mail!.nextAttemptAt.getTime() - deliverAt.getTime())).toBeLessThan(1000);
    // The buyer follows it; the preview shows the gift, never the recipient's address.
    expect(await (await call(buyer.token, '/api/payments/gifts')).json()).toEqual([
      expect.objectContaining({ accessLevel: 'premium', months: 3, state: 'scheduled', recipientEmail: gift.recipientEmail }),
    ]);
    const preview = await (await call(undefined, `/api/payments/gifts/${code}`)).text();
    expect(JSON.parse(preview)).toMatchObject({
      accessLevel: 'premium',
      months: 3,
      from: 'Ana Giver',
      recipientName: 'Bea',
      state: 'delivered',
    });
    expect(preview).not.toContain(gift.recipientEmail);
  });

  it('redeems once for a free member, until the months have run; the sweep ends it and mails them', async () => {
    const { code } = await paidGift();
    const bea = await member('Bea');
    const res = await call(bea.token, `/api/payments/gifts/${code}/redeem`, {});
    expect(res.status, await res.clone().text()).toBe(200);
    expect(await res.json()).toMatchObject({ accessLevel: 'premium', source: 'gift', waiting: false });
    expect(await levelOf(bea.id)).toBe('premium');
    const [row] = await t.database.db
      .select()
      .from(accessGrants)
      .where(and(eq(accessGrants.userId, bea.id), eq(accessGrants.source, 'gift')));
    const days = (row!.endsAt!.getTime() - row!.startsAt.getTime()) / DAY;
    expect(days).toBeGreaterThanOrEqual(89);
    expect(days).toBeLessThanOrEqual(92);
    expect(row!.detail).toBe('Ana Giver');
    // Once only, for anyone.
    const other = await member();
    expect((await call(other.token, `/api/payments/gifts/${code}/redeem`, {})).status).toBe(409);
    expect((await call(bea.token, `/api/payments/gifts/${code}/redeem`, {})).status).toBe(409);
    // It runs out: the sweep lowers the level and says so.
    await t.database.db
      .update(accessGrants)
      .set({ startsAt: new Date(Date.now() - 2000), endsAt: new Date(Date.now() - 1000) })
      .where(eq(accessGrants.id, row!.id));
    await t.services.billing.tick();
    expect(await levelOf(bea.id)).toBe('free');
    expect(
      await t.database.db
        .select()
        .from(emails)
        .where(and(eq(emails.userId, bea.id), eq(emails.template, 'access-ended'))),
    ).toHaveLength(1);
  });

  it('keeps a deleted buyer’s gift for its recipient, signed by no name', async () => {
    const { code, buyer } = await paidGift({ fromName: 'Ana Sender' });
    const bea = await member('Bea');
    expect((await call(bea.token, `/api/payments/gifts/${code}/redeem`, {})).status).toBe(200);
    expect(await (await call(bea.token, '/api/payments/grants')).json()).toEqual([
      expect.objectContaining({ source: 'gift', from: 'Ana Sender' }),
    ]);
    expect((await call(buyer.token, '/api/users/me', undefined, 'DELETE')).status).toBe(204);
    expect(await (await call(bea.token, '/api/payments/grants')).json()).toEqual([
      expect.objectContaining({ source: 'gift', from: 'A friend' }),
    ]);
    expect(JSON.stringify(await (await call(undefined, `/api/payments/gifts/${code}`)).json())).not.toContain('Ana Sender');
    expect(await levelOf(bea.id)).toBe('premium');
  });

  it('gives one of 50 concurrent redemptions by different members', async () => {
    const { code } = await paidGift();
    const members = await Promise.all(Array.from({ length: 50 }, () => member()));
    const statuses = (await Promise.all(members.map((m) => call(m.token, `/api/payments/gifts/${code}/redeem`, {})))).map((r) => r.status);
    expect(statuses.filter((s) => s === 200)).toHaveLength(1);
    expect(statuses.filter((s) => s === 409)).toHaveLength(49);
    const [gift] = await t.database.db.select().from(gifts).where(eq(gifts.code, code));
    expect(await t.database.db.select().from(accessGrants).where(eq(accessGrants.sourceId, gift!.id))).toHaveLength(1);
  });

  it('makes a paying member’s gift wait for their paid access to end, then run its full length', async () => {
    const { code } = await paidGift();
    const payer = await member();
    const session = await call(payer.token, '/api/payments/stripe/create-session', {
      priceId: 'price_subscriber_monthly',
      successUrl: '/account',
      cancelUrl: '/pricing',
    });
    await pay(((await session.json()) as { sessionId: string }).sessionId);
    await expect.poll(() => levelOf(payer.id)).toBe('subscriber');
    expect(await (await call(payer.token, `/api/payments/gifts/${code}/redeem`, {})).json()).toMatchObject({
      waiting: true,
      startsAt: null,
    });
    expect(await levelOf(payer.id)).toBe('subscriber');
    const [sub] = await t.database.db.select().from(subscriptions).where(eq(subscriptions.userId, payer.id));
    expect((await call(payer.token, `/api/payments/stripe/subscriptions/${sub!.id}/cancel`, {})).status).toBe(200);
    offset += 32 * DAY;
    await t.services.embeddedBilling!.advance();
    await expect
      .poll(async () => (await t.database.db.select().from(subscriptions).where(eq(subscriptions.userId, payer.id)))[0]!.status)
      .toBe('canceled');
    await expect.poll(() => levelOf(payer.id)).toBe('premium');
    const [row] = await t.database.db
      .select()
      .from(accessGrants)
      .where(and(eq(accessGrants.userId, payer.id), eq(accessGrants.source, 'gift')));
    expect((row!.endsAt!.getTime() - row!.startsAt.getTime()) / DAY).toBeGreaterThanOrEqual(89);
  });

  it('refuses an expired gift, and odd, unknown and unpaid codes alike', async () => {
    const { code, gift } = await paidGift();
    await t.database.db
      .update(gifts)
      .set({ expiresAt: new Date(Date.now() - DAY) })
      .where(eq(gifts.id, gift.id));
    const late = await member();
    const res = await call(late.token, `/api/payments/gifts/${code}/redeem`, {});
    expect(res.status).toBe(409);
    expect(await res.json()).toMatchObject({ error: { message: 'This gift has expired.' } });
    expect(await (await call(undefined, `/api/payments/gifts/${code}`)).json()).toMatchObject({ state: 'expired' });
    for (const odd of ['abc', 'ABCDEFGHJKLMNPQRSTU1', 'O'.repeat(20), '%00', 'x'.repeat(300)]) {
      expect((await call(undefined, `/api/payments/gifts/${odd}`)).status, odd).toBe(404);
      expect((await call(late.token, `/api/payments/gifts/${odd}/redeem`, {})).status, odd).toBe(404);
    }
    expect((await call(late.token, '/api/payments/gifts/ABCDEFGHJKLMNPQRSTUV/redeem', {})).status).toBe(404);
    // Unpaid: a checkout not completed is no gift yet.
    const buyer = await member();
    const started = await call(buyer.token, '/api/payments/gifts', {
      accessLevel: 'subscriber',
      months: 1,
      recipientEmail: 'x@gifts.test',
      successUrl: '/account',
      cancelUrl: '/gift',
    });
    const [pending] = await t.database.db
      .select()
      .from(gifts)
      .where(eq(gifts.sessionId, ((await started.json()) as { sessionId: string }).sessionId));
    expect((await call(undefined, `/api/payments/gifts/${pending!.code}`)).status).toBe(404);
    expect((await call(late.token, `/api/payments/gifts/${pending!.code}/redeem`, {})).status).toBe(404);
    // A visitor cannot redeem.
    expect((await call(undefined, `/api/payments/gifts/${code}/redeem`, {})).status).toBe(401);
  });

  it('refuses bad gift orders with a 422 that writes nothing', async () => {
    const buyer = await member();
    const before = (await t.database.db.select().from(gifts)).length;
    const base = { accessLevel: 'premium', months: 3, recipientEmail: 'ok@gifts.test', successUrl: '/account', cancelUrl: '/gift' };
    const bad: Record<string, unknown>[] = [
      { ...base, accessLevel: 'free' },
      { ...base, accessLevel: 'gold' },
      { ...base, months: 2 },
      { ...base, months: '3' },
      { ...base, months: 24 },
      { ...base, recipientEmail: 'not-an-address' },
      { ...base, recipientEmail: '' },
      { ...base, recipientName: 'a\u0000b' },
      { ...base, message: 'x'.repeat(1001) },
      { ...base, message: 'bell\u0007' },
      { ...base, deliverAt: new Date(Date.now() - 3 * DAY).toISOString() },
      { ...base, deliverAt: new Date(Date.now() + 400 * DAY).toISOString() },
      { ...base, deliverAt: 'tomorrow' },
      { ...base, amount: 1 },
      { ...base, successUrl: 'https://evil.example/' },
    ];
    for (const body of bad) expect((await call(buyer.token, '/api/payments/gifts', body)).status, JSON.stringify(body)).toBe(422);
    expect((await call(undefined, '/api/payments/gifts', base)).status).toBe(401);
    expect((await t.database.db.select().from(gifts)).length).toBe(before);
  });
});
