/**
 * The admin API's behaviour (issue 11), on both databases: the email dashboard answers the spec's
 * Email record and resends only failed mail; the Users tab searches members with their billing,
 * changes level and role through the audited user service and refuses an admin's self-demotion;
 * the overview's figures match seeded data. Roles are in functions/admin/admin.security.test.ts.
 */
import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AdminService } from '../../functions/admin/service.ts';
import { auditLog, profiles } from '../../functions/users/tables.ts';
import { emails } from '../../functions/email/tables.ts';
import { leads } from '../../functions/leads/tables.ts';
import { newsletterSubscribers } from '../../functions/newsletter/tables.ts';
import { purchases, subscriptions } from '../../functions/payments/tables.ts';
import { accessGrants } from '../../functions/payments/grants/tables.ts';
import { offerRedemptions, offers } from '../../functions/payments/offers/tables.ts';
import { createTestApp, type TestApp } from '../support/app.ts';
import type { Api, Answer } from '../support/answers.ts';
import { DATABASE_KINDS } from '../support/databases.ts';

const PASSWORD = 'admin api pass';
const DAY = 86_400_000;

describe.each(DATABASE_KINDS)('admin API on %s', (kind) => {
  let t: TestApp;
  let adminId = '';
  let adminToken = '';
  const adminEmail = `boss-${kind}@admin-api.test`;

  beforeAll(async () => {
    t = await createTestApp(kind, undefined, { AUTH_BCRYPT_COST: '4', EMAIL_WORKER: 'false' });
    adminId = await t.services.auth.createConfirmedUser(adminEmail, PASSWORD, 'Boss');
    await t.services.users.assign(adminId, 'admin', 'premium');
    adminToken = (await t.services.auth.signInWithPassword({ email: adminEmail, password: PASSWORD })).access_token;
  });
  afterAll(() => t?.close());

  function call(method: string, path: string, body?: unknown) {
    const headers: Record<string, string> = { authorization: `Bearer ${adminToken}` };
    if (body !== undefined) headers['content-type'] = 'application/json';
    return t.app.request(path, { method, headers, ...(body !== undefined ? { body: JSON.stringify(body) } : {}) });
  }
  const json = async <T>(res: Response | Promise<Response>, status = 200): Promise<T> => {
    const r = await res;
    expect(r.status, await r.clone().text()).toBe(status);
    return (await r.json()) as T;
  };
  const mail = (status: 'queued' | 'sent' | 'delivered' | 'failed', extra: Partial<typeof emails.$inferInsert> = {}) => ({
    subject: `A ${status} mail`,
    bodyHtml: `<p>${status}</p>`,
    bodyText: status,
    to: 'someone@example.com',
    from: 'hello@example.com',
    template: 'welcome',
    status,
    ...extra,
  });

  it('lists the queue and recent mail as Email records, and resends only failed mail', async () => {
    const failedAt = new Date(Date.now() - 60_000);
    const [failed] = await t.database.db
      .insert(emails)
      .values(mail('failed', { failedAt, errorMessage: 'Mailbox unavailable', attempts: 6 }))
      .returning();
    const [sent] = await t.database.db
      .insert(emails)
      .values(mail('sent', { sentAt: new Date() }))
      .returning();
    await t.database.db.insert(emails).values([mail('queued'), mail('queued'), mail('delivered', { deliveredAt: new Date() })]);
    const nextAttemptAt = new Date(Date.now() + 10 * 60_000);
    const [retrying] = await t.database.db
      .insert(emails)
      .values(mail('queued', { attempts: 3, errorMessage: 'connect ECONNREFUSED 127.0.0.1:25', nextAttemptAt }))
      .returning();

    type Rec = Answer<Api['emails']['recent']['$get']>[number];
    const recent = await json<Rec[]>(call('GET', '/api/email/recent?limit=10'));
    expect(recent).toHaveLength(3);
    const failedRecord = recent.find((r) => r.id === failed!.id)!;
    expect(failedRecord).toEqual({
      id: failed!.id,
      subject: 'A failed mail',
      body: '<p>failed</p>',
      // What the dashboard's card shows: the body's visible markup, cleaned on the server.
      preview: '<p>failed</p>',
      to: 'someone@example.com',
      from: 'hello@example.com',
      status: 'failed',
      createdAt: failed!.createdAt.toISOString(),
      sentAt: null,
      deliveredAt: null,
      failedAt: failedAt.toISOString(),
      errorMessage: 'Mailbox unavailable',
      delivery: { attempts: 6, maxAttempts: 6, lastError: 'Mailbox unavailable', nextAttemptAt: null, sending: false },
    });
    expect(await json<Rec[]>(call('GET', '/api/email/recent?limit=2'))).toHaveLength(2);
    const queue = await json<Rec[]>(call('GET', '/api/email/queue'));
    expect(queue.map((r) => r.status)).toEqual(['queued', 'queued', 'queued']);
    // Beyond the spec's record: why a queued mail is still waiting (attempts, last error, next attempt, held by a worker).
    expect(queue.find((r) => r.id === retrying!.id)!.delivery).toEqual({
      attempts: 3,
      maxAttempts: 6,
      lastError: 'connect ECONNREFUSED 127.0.0.1:25',
      nextAttemptAt: nextAttemptAt.toISOString(),
      sending: false,
    });
    const fresh = queue.find((r) => r.id !== retrying!.id)!;
    expect(fresh.delivery).toMatchObject({ attempts: 0, lastError: null, sending: false });
    expect(typeof fresh.delivery.nextAttemptAt).toBe('string');
    await t.database.db
      .update(emails)
      .set({ leaseOwner: 'worker-1', leaseExpiresAt: new Date(Date.now() + 60_000) })
      .where(eq(emails.id, fresh.id));
    const held = (await json<Rec[]>(call('GET', '/api/email/queue'))).find((r) => r.id === fresh.id)!;
    expect(held.delivery).toMatchObject({ sending: true });

    const requeued = await json<Rec>(call('POST', `/api/email/${failed!.id}/resend`));
    expect(requeued).toMatchObject({ id: failed!.id, status: 'queued', failedAt: null, errorMessage: null, subject: 'A failed mail' });
    expect(Object.keys(requeued).sort()).toEqual(Object.keys(failedRecord).sort());
    expect(requeued.delivery).toMatchObject({ attempts: 0, lastError: null, sending: false });
    expect((await json<Rec[]>(call('GET', '/api/email/queue'))).map((r) => r.id)).toContain(failed!.id);

    // Only failed mail: the same one again (now queued), and a sent one, are refused.
    expect((await call('POST', `/api/email/${failed!.id}/resend`)).status).toBe(409);
    expect((await call('POST', `/api/email/${sent!.id}/resend`)).status).toBe(409);
    expect((await call('POST', `/api/email/${randomUUID()}/resend`)).status).toBe(404);
  });

  it('searches members by email or name fragment, paged, with level, role, subscription and purchases', async () => {
    const now = Date.now();
    const ids = [randomUUID(), randomUUID(), randomUUID()];
    await t.database.db.insert(profiles).values([
      { id: ids[0]!, email: `ada-${kind}@search.test`, name: 'Ada Lovelace', accessLevel: 'premium', createdAt: new Date(now - 3000) },
      { id: ids[1]!, email: `grace-${kind}@search.test`, name: 'Grace Hopper', createdAt: new Date(now - 2000) },
      { id: ids[2]!, email: `alan_${kind}@search.test`, name: 'Alan', createdAt: new Date(now - 1000) },
    ]);
    await t.database.db.insert(subscriptions).values([
      {
        id: `sub_old_${kind}`,
        userId: ids[0]!,
        customerId: 'cus_ada',
        status: 'canceled',
        tierId: 'price_subscriber_monthly',
        accessLevel: 'subscriber',
        amount: 999,
        interval: 'month',
        currentPeriodEnd: new Date(now - 40 * DAY),
        endedAt: new Date(now - 40 * DAY),
        createdAt: new Date(now - 70 * DAY),
      },
      {
        id: `sub_now_${kind}`,
        userId: ids[0]!,
        customerId: 'cus_ada',
        status: 'active',
        tierId: 'price_premium_yearly',
        accessLevel: 'premium',
        amount: 19999,
        interval: 'year',
        currentPeriodEnd: new Date(now + 300 * DAY),
        createdAt: new Date(now - 30 * DAY),
      },
    ]);
    // The running subscription's row in the grants ledger, as billing's sync writes it.
    await t.database.db.insert(accessGrants).values({
      userId: ids[0]!,
      accessLevel: 'premium',
      source: 'subscription',
      sourceId: `sub_now_${kind}`,
      startsAt: new Date(now - 30 * DAY),
      createdBy: '00000000-0000-0000-0000-000000000000',
    });
    await t.database.db.insert(purchases).values({
      userId: ids[0]!,
      itemType: 'market',
      itemSlug: 'website-wireframe-kit',
      title: 'Website Wireframe Kit',
      amount: 2900,
      currency: 'usd',
      sessionId: `cs_${kind}`,
    });

    type Page = Awaited<ReturnType<AdminService['searchUsers']>>;
    const all = await json<Page>(call('GET', '/api/admin/users?q=SEARCH.TEST'));
    expect(all.total).toBe(3);
    expect(all.users.map((u) => u.name)).toEqual(['Alan', 'Grace Hopper', 'Ada Lovelace']);
    const ada = await json<Page>(call('GET', '/api/admin/users?q=lovelace'));
    expect(ada.users).toEqual([
      {
        id: ids[0],
        email: `ada-${kind}@search.test`,
        name: 'Ada Lovelace',
        accessLevel: 'premium',
        role: 'member',
        createdAt: expect.any(String),
        lastSeenAt: null,
        labels: [],
        signup: { referrer: null, utmSource: null, utmMedium: null, utmCampaign: null },
        subscription: expect.objectContaining({ subscriptionId: `sub_now_${kind}`, status: 'active', amount: 19999, interval: 'year' }),
        grants: [expect.objectContaining({ accessLevel: 'premium', source: 'subscription', endsAt: null, active: true, note: null })],
        purchases: [expect.objectContaining({ itemSlug: 'website-wireframe-kit', amount: 2900, currency: 'usd' })],
      },
    ]);
    const second = await json<Page>(call('GET', '/api/admin/users?q=search.test&limit=1&page=2'));
    expect(second).toMatchObject({ page: 2, limit: 1, total: 3, users: [{ name: 'Grace Hopper', subscription: null, purchases: [] }] });
    // LIKE wildcards are literal: "_" matches only Alan's underscore, "%" nothing.
    expect((await json<Page>(call('GET', `/api/admin/users?q=_${kind}@`))).users.map((u) => u.name)).toEqual(['Alan']);
    expect((await json<Page>(call('GET', '/api/admin/users?q=%25'))).total).toBe(0);
    // A blank search lists everyone, as no search does.
    const everyone = (await json<Page>(call('GET', '/api/admin/users'))).total;
    expect(everyone).toBeGreaterThanOrEqual(all.total + 1);
    expect((await json<Page>(call('GET', '/api/admin/users?q=%20%20'))).total).toBe(everyone);
  });

  it('changes level and role through the audited user service, and refuses an admin’s self-demotion', async () => {
    const email = `member-${kind}@change.test`;
    const id = await t.services.auth.createConfirmedUser(email, PASSWORD, 'Member');
    const token = (await t.services.auth.signInWithPassword({ email, password: PASSWORD })).access_token;

    expect(await json(call('PATCH', `/api/admin/users/${id}`, { accessLevel: 'subscriber' }))).toMatchObject({
      id,
      accessLevel: 'subscriber',
      role: 'member',
    });
    // Promotion to staff grants premium.
    expect(await json(call('PATCH', `/api/admin/users/${id}`, { role: 'editor' }))).toMatchObject({
      role: 'editor',
      accessLevel: 'premium',
    });
    // The member's next call sees the change (the profile cache is dropped).
    const me = await t.app.request('/api/users/me', { headers: { authorization: `Bearer ${token}` } });
    expect(await me.json()).toMatchObject({ viewer: { role: 'editor', accessLevel: 'premium' } });

    type Entry = Awaited<ReturnType<AdminService['audit']>>[number];
    const entries = await json<Entry[]>(call('GET', `/api/admin/audit?userId=${id}`));
    // Newest first; the promotion's two entries share one transaction time, as do the comp's two.
    expect(entries.slice(0, 2).map((e) => [e.action, e.detail])).toEqual(
      expect.arrayContaining([
        ['role.set', { from: 'member', to: 'editor' }],
        ['access_level.set', { from: 'subscriber', to: 'premium' }],
      ]),
    );
    // The level was a comp in the grants ledger, made by this admin.
    expect(entries.slice(2).map((e) => [e.action, e.detail])).toEqual(
      expect.arrayContaining([
        ['access_level.set', { from: 'free', to: 'subscriber' }],
        ['comp.granted', expect.objectContaining({ accessLevel: 'subscriber', until: null })],
      ]),
    );
    expect(entries).toHaveLength(4);
    for (const entry of entries) expect(entry).toMatchObject({ actor: { id: adminId, email: adminEmail }, target: { id, email } });
    expect((await json<Entry[]>(call('GET', '/api/admin/audit?limit=1'))).length).toBe(1);

    // Lock-out: an admin cannot take away their own admin role; nothing changes or is logged.
    const before = (await t.database.db.select().from(auditLog).where(eq(auditLog.targetId, adminId))).length;
    for (const role of ['member', 'editor']) {
      const res = await call('PATCH', `/api/admin/users/${adminId}`, { role });
      expect(res.status).toBe(409);
      expect(await res.json()).toMatchObject({ error: { code: 'conflict' } });
    }
    expect((await t.database.db.select().from(profiles).where(eq(profiles.id, adminId)))[0]).toMatchObject({ role: 'admin' });
    expect((await t.database.db.select().from(auditLog).where(eq(auditLog.targetId, adminId))).length).toBe(before);
    // Keeping the role is fine.
    expect((await call('PATCH', `/api/admin/users/${adminId}`, { role: 'admin', accessLevel: 'premium' })).status).toBe(200);
  });

  it("gives staff made members again the level their own subscriptions grant, not the role's premium", async () => {
    const paying = await t.services.auth.createConfirmedUser(`paying-${kind}@demote.test`, PASSWORD, 'Paying');
    const unpaid = await t.services.auth.createConfirmedUser(`unpaid-${kind}@demote.test`, PASSWORD, 'Unpaid');
    await t.database.db.insert(subscriptions).values({
      id: `sub_demote_${kind}`,
      userId: paying,
      customerId: `cus_demote_${kind}`,
      status: 'active',
      tierId: 'price_subscriber_monthly',
      accessLevel: 'subscriber',
      amount: 999,
      interval: 'month',
      currentPeriodEnd: new Date(Date.now() + 20 * DAY),
    });
    // Its row in the grants ledger, as billing's sync keeps it.
    await t.database.db.transaction(async (tx) => {
      const [owner] = await tx.select().from(profiles).where(eq(profiles.id, paying));
      const [sub] = await tx
        .select()
        .from(subscriptions)
        .where(eq(subscriptions.id, `sub_demote_${kind}`));
      await t.services.billing.access.ledger.followSubscription(tx, owner!, sub!, { actorId: adminId, action: 'access_level.billing' });
    });
    for (const id of [paying, unpaid]) {
      expect(await json(call('PATCH', `/api/admin/users/${id}`, { role: 'editor' }))).toMatchObject({ accessLevel: 'premium' });
    }
    expect(await json(call('PATCH', `/api/admin/users/${paying}`, { role: 'member' }))).toMatchObject({
      role: 'member',
      accessLevel: 'subscriber',
    });
    expect(await json(call('PATCH', `/api/admin/users/${unpaid}`, { role: 'member' }))).toMatchObject({
      role: 'member',
      accessLevel: 'free',
    });
    // A level given with the change wins.
    await json(call('PATCH', `/api/admin/users/${unpaid}`, { role: 'editor' }));
    expect(await json(call('PATCH', `/api/admin/users/${unpaid}`, { role: 'member', accessLevel: 'premium' }))).toMatchObject({
      accessLevel: 'premium',
    });
    const trail = await t.database.db.select().from(auditLog).where(eq(auditLog.targetId, paying));
    expect(trail.map((e) => [e.action, e.detail])).toEqual(
      expect.arrayContaining([['access_level.set', { from: 'premium', to: 'subscriber' }]]),
    );
  });

  it('answers the overview figures of seeded data', async () => {
    // A database of its own, so the figures are exact.
    const o = await createTestApp(kind, undefined, { AUTH_BCRYPT_COST: '4', EMAIL_WORKER: 'false' });
    try {
      const bossEmail = `overview-${kind}@admin-api.test`;
      const boss = await o.services.auth.createConfirmedUser(bossEmail, PASSWORD, 'Boss');
      await o.services.users.assign(boss, 'admin', 'premium');
      const token = (await o.services.auth.signInWithPassword({ email: bossEmail, password: PASSWORD })).access_token;
      const now = Date.now();
      const db = o.database.db;
      const p = (n: number, accessLevel: 'free' | 'subscriber' | 'premium', daysAgo: number) =>
        ({ id: randomUUID(), email: `p${n}-${kind}@overview.test`, accessLevel, createdAt: new Date(now - daysAgo * DAY) }) as const;
      const people = [p(1, 'subscriber', 5), p(2, 'premium', 5), p(3, 'premium', 20), p(4, 'free', 100), p(5, 'subscriber', 1)];
      await db.insert(profiles).values([...people]);
      const sub = (n: number, userId: string, extra: Partial<typeof subscriptions.$inferInsert>) => ({
        id: `sub_${n}_${kind}`,
        userId,
        customerId: `cus_${n}`,
        status: 'active' as const,
        accessLevel: 'subscriber' as const,
        amount: 999,
        interval: 'month',
        currentPeriodEnd: new Date(now + 20 * DAY),
        ...extra,
      });
      await db.insert(subscriptions).values([
        sub(1, people[0]!.id, {}), // 999, half off below
        sub(2, people[1]!.id, { accessLevel: 'premium', amount: 19999, interval: 'year' }), // 1666.58
        sub(3, people[2]!.id, { status: 'past_due', accessLevel: 'premium', amount: 1999, cancelAtPeriodEnd: true }), // 1999, cancelling
        sub(4, people[3]!.id, { status: 'canceled', endedAt: new Date(now - 3 * DAY) }),
        sub(5, people[3]!.id, { status: 'canceled', endedAt: new Date(now - 120 * DAY) }),
        sub(6, people[4]!.id, { cancelAt: new Date(now - 1000) }), // cancellation already in effect
      ]);
      // Sub 1 runs at half price for good (an offer): it counts 500 (499.5, rounded half up).
      const [half] = await db
        .insert(offers)
        .values({ code: `HALF-${kind}`, kind: 'signup', percentOff: 50, duration: 'forever', couponId: `co_half_${kind}`, createdBy: boss })
        .returning();
      await db.insert(offerRedemptions).values({
        offerId: half!.id,
        userId: people[0]!.id,
        status: 'redeemed',
        subscriptionId: `sub_1_${kind}`,
        redeemedAt: new Date(now - DAY),
      });
      await db.insert(leads).values([
        { email: 'l1@example.com', toolSlug: 'x' },
        { email: 'l2@example.com', toolSlug: 'y' },
      ]);
      await db.insert(newsletterSubscribers).values([
        { email: 'n1@example.com', status: 'confirmed' },
        { email: 'n2@example.com', status: 'pending' },
        { email: 'n3@example.com', status: 'unsubscribed' },
      ]);
      await db.insert(emails).values([mail('failed'), mail('failed'), mail('sent')]);

      const res = await o.app.request('/api/admin/overview', { headers: { authorization: `Bearer ${token}` } });
      type Overview = Awaited<ReturnType<AdminService['overview']>>;
      const view = await json<Overview>(res);
      expect(view.members).toEqual({ total: 6, byLevel: { free: 1, subscriber: 2, premium: 3 } });
      expect(view.payingMembers).toBe(3);
      expect(view.monthlyRecurringRevenue).toEqual({ amount: 500 + 1667 + 1999, currency: 'usd' });
      expect(view.pendingCancellations).toBe(1);
      expect(view.signups).toHaveLength(90);
      expect(view.cancellations).toHaveLength(90);
      const day = (daysAgo: number) => new Date(now - daysAgo * DAY).toISOString().slice(0, 10);
      const countOn = (series: { date: string; count: number }[], daysAgo: number) => series.find((d) => d.date === day(daysAgo))?.count;
      expect(view.signups.at(-1)!.date).toBe(day(0));
      expect(countOn(view.signups, 5)).toBe(2);
      expect(countOn(view.signups, 20)).toBe(1);
      expect(view.signups.reduce((a, d) => a + d.count, 0)).toBe(5); // the 100-day-old member is outside
      expect(countOn(view.cancellations, 3)).toBe(1);
      expect(view.cancellations.reduce((a, d) => a + d.count, 0)).toBe(1);
      expect({ leads: view.leads, newsletterConfirmed: view.newsletterConfirmed, failedEmails: view.failedEmails }).toEqual({
        leads: 2,
        newsletterConfirmed: 1,
        failedEmails: 2,
      });
    } finally {
      await o.close();
    }
  });
});
