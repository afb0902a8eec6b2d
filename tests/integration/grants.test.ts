/**
 * The grants ledger end to end, on both databases (issue 34, item 1, 2 and 6): a level comes only
 * from grants; a comp's end lowers the level on the member's next read (before any sweep) and the
 * sweep then mails them once, three days before and at the end, only when they lose something; a
 * subscription's run is a row with its cadence and renewal; a member reading while their comp ends
 * gets a whole answer every time; and no member holds a level without a grant behind it.
 */
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { describeGrant, type GrantView } from '#shared/payments/grants.ts';
import { emails } from '../../functions/email/tables.ts';
import { accessGrants } from '../../functions/payments/grants/tables.ts';
import { profiles } from '../../functions/users/tables.ts';
import { createTestApp, type TestApp } from '../support/app.ts';
import { DATABASE_KINDS } from '../support/databases.ts';
import { expectNoLevelWithoutAGrant } from '../support/grants.ts';

const PASSWORD = 'grants flow pass';
const DAY = 86_400_000;
const PREMIUM_BODY = '/api/content/blogs/ecommerce-launch-first-90-days/body';
const SUCCESS = '/payment/confirmation?session_id={CHECKOUT_SESSION_ID}&payment_status=success';
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe.each(DATABASE_KINDS)('the grants ledger on %s', (kind) => {
  let t: TestApp;
  let adminId = '';
  let n = 0;

  beforeAll(async () => {
    t = await createTestApp(kind, undefined, { AUTH_BCRYPT_COST: '4', EMAIL_WORKER: 'false' });
    await t.services.connectEvents();
    adminId = await t.services.auth.createConfirmedUser(`boss-${kind}@grants.test`, PASSWORD, 'Boss');
    await t.services.users.assign(adminId, 'admin', 'premium');
  });
  afterAll(() => t?.close());

  async function member(language: 'en' | 'es' | 'fr' = 'en') {
    const email = `member${n++}-${kind}@grants.test`;
    const id = await t.services.auth.createConfirmedUser(email, PASSWORD, 'Ana Member');
    await t.database.db.update(profiles).set({ language }).where(eq(profiles.id, id));
    const { access_token } = await t.services.auth.signInWithPassword({ email, password: PASSWORD });
    return { id, email, token: access_token };
  }
  const call = (token: string, path: string, body?: unknown, method = body === undefined ? 'GET' : 'POST') =>
    t.app.request(path, {
      method,
      headers: { authorization: `Bearer ${token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
  const viewerLevel = async (token: string) =>
    ((await (await call(token, '/api/users/me')).json()) as { viewer: { accessLevel: string } }).viewer.accessLevel;
  const storedLevel = async (id: string) => (await t.database.db.select().from(profiles).where(eq(profiles.id, id)))[0]!.accessLevel;
  const mails = async (id: string, template: string) =>
    t.database.db
      .select()
      .from(emails)
      .where(and(eq(emails.userId, id), eq(emails.template, template)));
  const sweep = () => t.services.billing.access.sweep.tick();

  it('lowers the level on the next read once a comp ends, then the sweep settles it and mails the member once', async () => {
    const m = await member('es');
    const { id } = await t.services.billing.access.comps.add(adminId, m.id, {
      accessLevel: 'premium',
      until: new Date(Date.now() + 1_500),
    });
    expect(await viewerLevel(m.token)).toBe('premium');
    expect((await call(m.token, PREMIUM_BODY)).status).toBe(200);
    await sleep(1_600);
    // No sweep has run: the read after the comp's end derives the level again.
    expect(await viewerLevel(m.token)).toBe('free');
    expect((await call(m.token, PREMIUM_BODY)).status).toBe(403);
    const [row] = await t.database.db.select().from(accessGrants).where(eq(accessGrants.id, id));
    expect(row!.settledAt).toBeNull();

    expect(await sweep()).toBeGreaterThanOrEqual(1);
    await sweep();
    const ended = await mails(m.id, 'access-ended');
    expect(ended).toHaveLength(1);
    // In the member's language, naming the comp.
    expect(ended[0]!.subject).toBe('Tu acceso Premium ha terminado');
    expect(ended[0]!.bodyText).toContain('de cortesía');
  });

  it('falls back within the sweep for a member who does not come back (newsletter cuts read the stored level)', async () => {
    const m = await member();
    await t.services.billing.access.comps.add(adminId, m.id, { accessLevel: 'subscriber', until: new Date(Date.now() + 1_000) });
    expect(await storedLevel(m.id)).toBe('subscriber');
    await sleep(1_100);
    await sweep();
    expect(await storedLevel(m.id)).toBe('free');
  });

  it('mails three days before a comp ends only when it lasted longer and the end lowers the level', async () => {
    const alone = await member('fr');
    const covered = await member();
    const now = Date.now();
    for (const m of [alone, covered]) {
      await t.database.db.insert(accessGrants).values({
        userId: m.id,
        accessLevel: 'subscriber',
        source: 'comp',
        sourceId: adminId,
        startsAt: new Date(now - 10 * DAY),
        endsAt: new Date(now + 2 * DAY),
        createdBy: adminId,
        createdAt: new Date(now - 10 * DAY),
      });
    }
    // The covered member also has premium for a year: the comp's end takes nothing from them.
    await t.services.billing.access.comps.add(adminId, covered.id, { accessLevel: 'premium', until: new Date(now + 365 * DAY) });
    // A short comp (two days from now, made now) is not announced: its mail would come with it.
    const short = await member();
    await t.services.billing.access.comps.add(adminId, short.id, { accessLevel: 'premium', until: new Date(now + 2 * DAY) });
    await sweep();
    await sweep();
    const warned = await mails(alone.id, 'access-ending');
    expect(warned).toHaveLength(1);
    expect(warned[0]!.subject).toMatch(/^Votre accès Abonné se termine le /);
    expect(await mails(covered.id, 'access-ending')).toHaveLength(0);
    expect(await mails(short.id, 'access-ending')).toHaveLength(0);
  });

  it('makes a comp out of an admin’s level change, ends it on free, and adds no row when nothing changes', async () => {
    const m = await member();
    const admin = (await t.services.auth.signInWithPassword({ email: `boss-${kind}@grants.test`, password: PASSWORD })).access_token;
    const patch = (accessLevel: string) => call(admin, `/api/admin/users/${m.id}`, { accessLevel }, 'PATCH');
    expect(await (await patch('subscriber')).json()).toMatchObject({ accessLevel: 'subscriber' });
    expect(await (await patch('subscriber')).json()).toMatchObject({ accessLevel: 'subscriber' });
    const rows = await t.database.db.select().from(accessGrants).where(eq(accessGrants.userId, m.id));
    expect(rows).toEqual([expect.objectContaining({ source: 'comp', accessLevel: 'subscriber', endsAt: null, createdBy: adminId })]);
    expect(await (await patch('free')).json()).toMatchObject({ accessLevel: 'free' });
    const after = await t.database.db.select().from(accessGrants).where(eq(accessGrants.userId, m.id));
    expect(after).toEqual([expect.objectContaining({ endedBy: adminId })]);
    expect(after[0]!.endsAt).not.toBeNull();
    // The staff card shows who made it and the note; the member's own list does not show the note.
    const card = (await (await call(admin, `/api/admin/payments/members/${m.id}/grants`)).json()) as {
      createdBy: string;
      active: boolean;
    }[];
    expect(card).toEqual([expect.objectContaining({ createdBy: adminId, active: false, source: 'comp' })]);
  });

  it('keeps a subscription’s run as a row with its cadence and renewal, shown in words in the member’s language', async () => {
    const m = await member();
    const session = await call(m.token, '/api/payments/stripe/create-session', {
      priceId: 'price_subscriber_monthly',
      successUrl: SUCCESS,
      cancelUrl: '/pricing',
    });
    const { sessionId } = (await session.json()) as { sessionId: string };
    const paid = await t.app.request(`/api/payments/test/checkout/${sessionId}/pay`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ cardNumber: '4242 4242 4242 4242', expiry: '12/34', cvc: '123' }),
    });
    expect(paid.status).toBe(200);
    await expect.poll(() => storedLevel(m.id)).toBe('subscriber');
    const grants = (await (await call(m.token, '/api/payments/grants')).json()) as GrantView[];
    expect(grants).toEqual([
      expect.objectContaining({ source: 'subscription', accessLevel: 'subscriber', interval: 'month', active: true, endsAt: null }),
    ]);
    expect(describeGrant(grants[0]!, 'en')).toMatch(/^Subscriber, monthly, renews \d{1,2} [A-Z][a-z]+( \d{4})?$/);
    expect(describeGrant(grants[0]!, 'es')).toMatch(/^Suscriptor, mensual, se renueva el /);
    // A comp on top: premium from the comp, the subscription's row unchanged; the active ones first.
    await t.services.billing.access.comps.add(adminId, m.id, { accessLevel: 'premium', until: new Date(Date.now() + 60 * DAY) });
    expect(await viewerLevel(m.token)).toBe('premium');
    const both = (await (await call(m.token, '/api/payments/grants')).json()) as GrantView[];
    expect(both.map((g) => g.source).sort()).toEqual(['comp', 'subscription']);
    expect(both.every((g) => g.active)).toBe(true);
  });

  it('gives a member reading while their comp ends a whole answer every time', async () => {
    const m = await member();
    await t.services.billing.access.comps.add(adminId, m.id, { accessLevel: 'premium', until: new Date(Date.now() + 800) });
    const statuses: number[] = [];
    const until = Date.now() + 1_600;
    while (Date.now() < until) {
      const batch = await Promise.all(Array.from({ length: 4 }, () => call(m.token, PREMIUM_BODY)));
      statuses.push(...batch.map((r) => r.status));
      await Promise.all(batch.map((r) => r.arrayBuffer()));
      void sweep();
    }
    expect(statuses.filter((s) => s !== 200 && s !== 403)).toEqual([]);
    expect(statuses[0]).toBe(200);
    expect(statuses.at(-1)).toBe(403);
  });

  it('holds no member at a level without an active grant behind it', async () => {
    await sleep(50);
    await expectNoLevelWithoutAGrant(t.database.db);
  });
});
