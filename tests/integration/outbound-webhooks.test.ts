/**
 * Outbound webhooks end to end, on both databases, against a local receiver (node:http on 127.0.0.1,
 * allowed on the embedded defaults) that checks every request with the Standard Webhooks reference
 * library (`standardwebhooks` from npm): real events (a sign-up's member.created, an admin's comp's
 * grant.started and grant.ended, a paid plan's subscription.started and its cancellation's
 * subscription.cancel_scheduled, an event registration, a newsletter issue sent, an account deletion) reach every subscribed
 * endpoint under one webhook-id; a 500 is retried on the backoff's schedule (time driven by the
 * service's injectable clock) and a delivery still failing 3 days after its event fails; a worker
 * killed holding claimed deliveries leaves them to the next, and each event reaches the receiver
 * exactly once; a replay keeps the webhook-id; during a rotation the old and the new secret both
 * verify, and after the overlap only the new one.
 */
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WEBHOOK_EVENTS } from '#shared/webhooks.ts';
import { createOutboundStore } from '../../functions/outbound/store.ts';
import { webhookDeliveries } from '../../functions/outbound/tables.ts';
import type { DeliveryView } from '../../functions/outbound/service.ts';
import { subscriptions } from '../../functions/payments/tables.ts';
import { createTestApp, type TestApp } from '../support/app.ts';
import { apiCaller, memberMaker } from '../support/callers.ts';
import { DATABASE_KINDS } from '../support/databases.ts';
import { createEvent } from '../support/events.ts';
import { answerWith, startReceiver, verified, type Received } from '../support/webhook-receiver.ts';

const DAY = 86_400_000;
const SUCCESS = '/payment/confirmation?session_id={CHECKOUT_SESSION_ID}&payment_status=success';

describe.each(DATABASE_KINDS)('outbound webhooks end to end on %s', (kind) => {
  let t: TestApp;
  let receiver: Awaited<ReturnType<typeof startReceiver>>;
  let offset = 0;
  const clock = () => new Date(Date.now() + offset);
  let member: ReturnType<typeof memberMaker>;
  let admin = { id: '', token: '' };

  beforeAll(async () => {
    receiver = await startReceiver();
    t = await createTestApp(kind, undefined, { AUTH_BCRYPT_COST: '4', EMAIL_WORKER: 'false' }, { webhooks: { clock } });
    await t.services.connectEvents();
    member = memberMaker(t, `${kind}-hooks`, 'Wanda Hook');
    const boss = await member('Boss Hook');
    await t.services.users.assign(boss.id, 'admin', 'premium');
    admin = { id: boss.id, token: boss.token };
  });
  afterAll(async () => {
    await t?.close();
    await receiver?.close();
  });

  const call = (token: string | undefined, path: string, body?: unknown, method?: string) => apiCaller(t)(token, path, body, method);
  const deliver = () => t.services.webhooks.worker.drain();
  async function register(url: string, events: readonly string[] = WEBHOOK_EVENTS) {
    const res = await call(admin.token, '/api/admin/outbound', { url, events });
    expect(res.status, await res.clone().text()).toBe(201);
    return (await res.json()) as { id: string; secret: string };
  }
  const log = async (id: string) =>
    (await (await call(admin.token, `/api/admin/outbound/${id}/deliveries?limit=50`)).json()) as DeliveryView[];
  /** What the receiver got since `from`, each verified with `secret` (the reference library throws otherwise). */
  const bodies = (secret: string, from = 0) =>
    receiver.received.slice(from).map((r) => ({ id: r.headers['webhook-id'], ...verified(secret, r) }));
  const removeAll = async () => {
    for (const e of await t.services.webhooks.list()) await t.services.webhooks.remove(e.id);
  };

  it('queues nothing without endpoints, then sends real events, signed, to every subscribed endpoint under one webhook-id', async () => {
    await member('Nobody Listens');
    expect(await t.database.db.select().from(webhookDeliveries)).toHaveLength(0);
    const all = await register(receiver.url);
    const second = await startReceiver();
    try {
      const onlyMembers = await register(second.url, ['member.created']);
      const from = receiver.received.length;
      // Sign-up: member.created, with the name and address.
      const ana = await member('Ana Hook');
      // An admin's comp through the route: grant.started (and member.updated for the level), then its end.
      const until = new Date(Date.now() + 30 * DAY).toISOString();
      const comp = await call(admin.token, `/api/admin/payments/members/${ana.id}/comps`, {
        accessLevel: 'premium',
        until,
        note: 'Partner seat',
      });
      expect(comp.status, await comp.clone().text()).toBe(201);
      const { id: compId } = (await comp.json()) as { id: string };
      expect((await call(admin.token, `/api/admin/payments/members/${ana.id}/comps/${compId}`, undefined, 'DELETE')).status).toBe(204);
      // A registration for an event.
      const event = await createEvent(t, 24 * 60, { accessLevel: 'free' });
      expect((await call(ana.token, `/api/events/${event.slug}/registration`, {})).status).toBe(200);
      expect(await deliver()).toBeGreaterThan(0);

      // Deliveries run side by side: no order is promised (each body carries its event's time).
      const got = bodies(all.secret, from);
      const types = ['member.created', 'grant.started', 'member.updated', 'grant.ended', 'member.updated', 'event.registered'];
      expect(got.map((b) => b.type).sort()).toEqual([...types].sort());
      const one = (type: string) => got.find((b) => b.type === type)!;
      const memberShape = { id: ana.id, email: ana.email, name: 'Ana Hook' };
      expect(one('member.created').data).toMatchObject({ member: memberShape });
      expect(one('grant.started').data).toMatchObject({
        member: memberShape,
        grant: { id: compId, source: 'comp', accessLevel: 'premium', endsAt: until, note: 'Partner seat' },
      });
      expect(got.filter((b) => b.type === 'member.updated').map((b) => b.data)).toEqual(
        expect.arrayContaining([
          expect.objectContaining({
            member: expect.objectContaining({ ...memberShape, accessLevel: 'premium' }),
            previous: { accessLevel: 'free' },
          }),
          expect.objectContaining({
            member: expect.objectContaining({ ...memberShape, accessLevel: 'free' }),
            previous: { accessLevel: 'premium' },
          }),
        ]),
      );
      expect(one('grant.ended').data).toMatchObject({ grant: { id: compId } });
      expect(one('event.registered').data).toMatchObject({ member: memberShape, event: { slug: event.slug } });
      for (const b of got) {
        expect(b.id).toMatch(/^msg_[A-Za-z0-9_-]{22}$/);
        expect(Date.parse(b.timestamp)).not.toBeNaN();
      }
      expect(new Set(got.map((b) => b.id)).size).toBe(got.length);
      // The other endpoint subscribed to member.created only: that one event, the same id, its own secret.
      expect(second.received).toHaveLength(1);
      expect(verified(onlyMembers.secret, second.received[0]!)).toMatchObject({ type: 'member.created', data: { member: memberShape } });
      expect(second.received[0]!.headers['webhook-id']).toBe(one('member.created').id);
      expect(() => verified(onlyMembers.secret, receiver.received[from]!)).toThrow();
      // The log: newest first, each delivered with its status.
      const entries = await log(all.id);
      expect(entries.map((e) => Date.parse(e.createdAt))).toEqual(entries.map((e) => Date.parse(e.createdAt)).sort((a, b) => b - a));
      expect(entries.map((e) => e.type).sort()).toEqual([...types].sort());
      expect(entries.every((e) => e.status === 'delivered' && e.lastStatus === 204 && e.attempts === 1)).toBe(true);
      expect((await (await call(admin.token, '/api/admin/outbound')).json()) as unknown[]).toContainEqual(
        expect.objectContaining({ id: all.id, stats: expect.objectContaining({ delivered: 6, failed: 0, queued: 0 }) }),
      );
      // An issue sent to the newsletter: newsletter.sent, once, with its counts.
      const editor = { id: admin.id, email: 'boss', role: 'admin' as const, accessLevel: 'premium' as const };
      const issue = await t.services.newsletterIssues.create(editor, {
        subject: 'Hook notes',
        previewText: '',
        body: 'Short.',
        accessLevel: 'free',
        audience: ['newsletter'],
      });
      await t.services.newsletterIssues.send(issue.id);
      await t.services.newsletterIssues.send(issue.id).catch(() => undefined);
      const sentFrom = receiver.received.length;
      await deliver();
      expect(bodies(all.secret, sentFrom)).toEqual([
        expect.objectContaining({
          type: 'newsletter.sent',
          data: { issue: expect.objectContaining({ id: issue.id, subject: 'Hook notes' }) },
        }),
      ]);
      // A deletion: member.deleted still goes out after the member's data is erased.
      const before = receiver.received.length;
      expect((await call(ana.token, '/api/users/me', undefined, 'DELETE')).status).toBeLessThan(300);
      await deliver();
      expect(bodies(all.secret, before)).toEqual([expect.objectContaining({ type: 'member.deleted', data: { member: memberShape } })]);
    } finally {
      await second.close();
      await removeAll();
    }
  });

  it('sends subscription.started for a paid plan and subscription.cancel_scheduled when the member cancels', async () => {
    const { secret } = await register(receiver.url, ['subscription.started', 'subscription.cancel_scheduled', 'subscription.resumed']);
    const from = receiver.received.length;
    const m = await member('Sam Payer');
    const res = await call(m.token, '/api/payments/stripe/create-session', {
      priceId: 'price_premium_monthly',
      successUrl: SUCCESS,
      cancelUrl: '/pricing',
    });
    const { sessionId } = (await res.json()) as { sessionId: string };
    const paid = await call(undefined, `/api/payments/test/checkout/${sessionId}/pay`, {
      cardNumber: '4242 4242 4242 4242',
      expiry: '12/34',
      cvc: '123',
    });
    expect(paid.status).toBe(200);
    await t.services.embeddedBilling!.deliverPending();
    const subscription = async () => (await t.database.db.select().from(subscriptions).where(eq(subscriptions.userId, m.id)))[0];
    await expect.poll(async () => (await subscription())?.status).toBe('active');
    expect((await call(m.token, `/api/payments/stripe/subscriptions/${(await subscription())!.id}/cancel`, {})).status).toBe(200);
    await t.services.embeddedBilling!.deliverPending();
    await deliver();
    const got = bodies(secret, from);
    expect(got.map((b) => b.type).sort()).toEqual(['subscription.cancel_scheduled', 'subscription.started']);
    expect(got.find((b) => b.type === 'subscription.cancel_scheduled')!.data).toMatchObject({
      member: { id: m.id, email: m.email, name: 'Sam Payer' },
      subscription: { plan: 'price_premium_monthly', status: 'active', cancelAtPeriodEnd: true },
    });
    await removeAll();
  });

  it('retries a 500 on the backoff schedule with the same webhook-id, and fails a delivery still failing 3 days after its event', async () => {
    const { id, secret } = await register(receiver.url, ['member.created']);
    receiver.answer(answerWith(500));
    const from = receiver.received.length;
    await member('Retry Hook');
    const at = clock().getTime();
    await deliver();
    let [row] = await log(id);
    expect(row).toMatchObject({ status: 'queued', attempts: 1, lastStatus: 500 });
    const first = Date.parse(row!.nextAttemptAt!) - at;
    expect(first).toBeGreaterThanOrEqual(27_000);
    expect(first).toBeLessThanOrEqual(34_000);
    // Not due yet: nothing is sent.
    expect(await deliver()).toBe(0);
    offset += 35_000;
    await deliver();
    [row] = await log(id);
    expect(row).toMatchObject({ status: 'queued', attempts: 2, lastStatus: 500 });
    const second = Date.parse(row!.nextAttemptAt!) - clock().getTime();
    expect(second).toBeGreaterThanOrEqual(108_000 - 1_000);
    expect(second).toBeLessThanOrEqual(132_000 + 1_000);
    receiver.answer(answerWith(200));
    offset += 135_000;
    await deliver();
    [row] = await log(id);
    expect(row).toMatchObject({ status: 'delivered', attempts: 3, lastStatus: 200, lastError: null });
    const got = bodies(secret, from);
    expect(got).toHaveLength(3);
    expect(new Set(got.map((b) => b.id)).size).toBe(1);

    // Failing for good: the next failed attempt after the event's third day fails it.
    receiver.answer(answerWith(503));
    await member('Doomed Hook');
    await deliver();
    offset += 3 * DAY;
    await deliver();
    [row] = await log(id);
    expect(row).toMatchObject({ status: 'failed', attempts: 2, lastStatus: 503 });
    expect(row!.failedAt).not.toBeNull();
    receiver.answer(answerWith(204));
    await removeAll();
  });

  it('delivers each event exactly once when a worker dies holding its claim, with the same webhook-id', async () => {
    const { id, secret } = await register(receiver.url, ['member.created']);
    const from = receiver.received.length;
    for (const name of ['One Hook', 'Two Hook', 'Three Hook']) await member(name);
    // A worker claims them and dies before sending: its leases hold them meanwhile.
    const claimed = await createOutboundStore(t.database.db).claim('dead-worker', 10, 60_000, clock());
    expect(claimed).toHaveLength(3);
    expect(await deliver()).toBe(0);
    expect(receiver.received.length).toBe(from);
    // The leases run out: the next worker sends each once.
    offset += 61_000;
    expect(await deliver()).toBe(3);
    expect(await deliver()).toBe(0);
    const got = bodies(secret, from);
    expect(got.map((b) => b.id).sort()).toEqual(claimed.map((d) => d.eventId).sort());
    expect((await log(id)).map((d) => [d.status, d.attempts])).toEqual(Array(3).fill(['delivered', 2]));
    // The dead worker's late result is fenced off: its lease is gone.
    expect(await createOutboundStore(t.database.db).settle(claimed[0]!.id, 'dead-worker', { status: 'failed' })).toBe(false);
    await removeAll();
  });

  it('replays a delivery with the same webhook-id, and signs with both secrets while a rotation overlaps', async () => {
    const { id, secret: old } = await register(receiver.url, ['member.created']);
    const from = receiver.received.length;
    await member('Replay Hook');
    await deliver();
    const [done] = await log(id);
    expect((await call(admin.token, `/api/admin/outbound/${id}/deliveries/${done!.id}/replay`, {})).status).toBe(202);
    await deliver();
    const replayed = bodies(old, from);
    expect(replayed).toHaveLength(2);
    expect(replayed[1]!.id).toBe(replayed[0]!.id);
    expect((await log(id))[0]).toMatchObject({ id: done!.id, status: 'delivered', attempts: 2 });

    const rotated = await call(admin.token, `/api/admin/outbound/${id}/rotate`, {});
    const { secret: fresh } = (await rotated.json()) as { secret: string };
    expect(fresh).not.toBe(old);
    const during = receiver.received.length;
    await member('Rotation Hook');
    await deliver();
    const overlap: Received = receiver.received[during]!;
    expect(String(overlap.headers['webhook-signature']).split(' ')).toHaveLength(2);
    expect(verified(old, overlap).type).toBe('member.created');
    expect(verified(fresh, overlap).type).toBe('member.created');
    // After the 24 hours, the old secret signs no more.
    offset += DAY + 60_000;
    const after = receiver.received.length;
    await member('Later Hook');
    await deliver();
    const late = receiver.received[after]!;
    expect(verified(fresh, late).type).toBe('member.created');
    expect(() => verified(old, late)).toThrow(/No matching signature/);
    await removeAll();
  });
});
