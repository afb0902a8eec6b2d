/**
 * Outbound webhooks' routes and targets, on both databases: the role table (admins only, from a live
 * session, for every route), the bad-input suite (bad URLs, unknown events, a list of 100 events,
 * unknown fields, odd ids and limits, the endpoint cap), and the SSRF policy switched on as outside
 * the embedded defaults: private, loopback, link-local, CGNAT, multicast, unspecified and IPv4-mapped
 * addresses refused at registration, a name resolving to loopback refused again at delivery (after
 * DNS, so nothing connects), plain http refused; and on the embedded defaults' policy, a redirect is
 * not followed and a slow endpoint times out, both retried later.
 */
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_WEBHOOK_ENDPOINTS, WEBHOOK_EVENTS } from '#shared/webhooks.ts';
import { createTestApp, type TestApp } from '../../tests/support/app.ts';
import { DATABASE_KINDS } from '../../tests/support/databases.ts';
import { quietLogger } from '../../tests/support/fixtures.ts';
import {
  ADMIN_ONLY,
  apiCaller,
  ROLE_ACCOUNTS,
  ROLE_CALLERS,
  roleAccounts,
  type RoleCaller,
  type RoleMember,
} from '../../tests/support/callers.ts';
import { answerWith, startReceiver } from '../../tests/support/webhook-receiver.ts';
import { createOutboundService } from './service.ts';
import { webhookDeliveries, webhookEndpoints } from './tables.ts';
import { PRODUCTION_TARGETS } from './targets.ts';

const UUID = '00000000-0000-4000-8000-000000000001';

describe.each(DATABASE_KINDS)('outbound webhooks on %s', (kind) => {
  let t: TestApp;
  let tokens = {} as Record<RoleMember, string>;
  let ids = {} as Record<RoleMember, string>;
  let receiver: Awaited<ReturnType<typeof startReceiver>>;
  let offset = 0;
  const clock = () => new Date(Date.now() + offset);

  beforeAll(async () => {
    receiver = await startReceiver();
    t = await createTestApp(kind, undefined, { AUTH_BCRYPT_COST: '4', EMAIL_WORKER: 'false' }, { webhooks: { clock, timeoutMs: 400 } });
    ({ tokens, ids } = await roleAccounts(t, `webhooks-${kind}`, ROLE_ACCOUNTS));
  });
  afterAll(async () => {
    await t?.close();
    await receiver?.close();
  });

  const call = (who: RoleCaller, method: string, path: string, body?: unknown) =>
    apiCaller(t)(who === 'anonymous' ? undefined : tokens[who], path, body, method);
  const endpointCount = async () => (await t.database.db.select().from(webhookEndpoints)).length;
  const deliveryOf = async (endpointId: string) =>
    (await t.database.db.select().from(webhookDeliveries).where(eq(webhookDeliveries.endpointId, endpointId)))[0]!;
  /** An endpoint made by the service (not the routes), and one delivery queued to it. */
  async function endpointWithDelivery(url = receiver.url) {
    const made = await t.services.webhooks.create(ids.admin, { url, events: ['member.created'] });
    const queued = await t.services.webhooks.test(made.id, ids.admin);
    return { id: made.id, deliveryId: queued.id };
  }

  it.each(ROLE_CALLERS)(
    'lets only admins register, list, change, rotate, test, read the log of, replay and delete endpoints (%s)',
    async (who) => {
      const status = (admin: number) => (who === 'admin' ? admin : ADMIN_ONLY[who]);
      const made = await call(who, 'POST', '/api/admin/outbound', { url: receiver.url, events: ['member.created'] });
      expect(made.status).toBe(status(201));
      if (who === 'admin') expect(((await made.json()) as { secret: string }).secret).toMatch(/^whsec_[A-Za-z0-9+/=]{40,}$/);
      const { id, deliveryId } = await endpointWithDelivery();
      const base = `/api/admin/outbound/${id}`;
      expect((await call(who, 'GET', '/api/admin/outbound')).status).toBe(status(200));
      expect((await call(who, 'PATCH', base, { events: ['member.updated'] })).status).toBe(status(200));
      expect((await call(who, 'POST', `${base}/rotate`)).status).toBe(status(200));
      expect((await call(who, 'POST', `${base}/test`)).status).toBe(status(202));
      expect((await call(who, 'GET', `${base}/deliveries?limit=5`)).status).toBe(status(200));
      expect((await call(who, 'POST', `${base}/deliveries/${deliveryId}/replay`)).status).toBe(status(202));
      expect((await call(who, 'DELETE', base)).status).toBe(status(204));
      // The list never shows a secret.
      if (who === 'admin') expect(await (await call(who, 'GET', '/api/admin/outbound')).text()).not.toMatch(/whsec_/);
      for (const e of await t.services.webhooks.list()) await t.services.webhooks.remove(e.id);
    },
  );

  it('refuses bad endpoints with a 4xx that writes nothing', async () => {
    const before = await endpointCount();
    const events = ['member.created'];
    const bad: unknown[] = [
      {},
      { events },
      { url: receiver.url },
      { url: '', events },
      { url: 'not a url', events },
      { url: 'example.com/hook', events },
      { url: 'ftp://127.0.0.1/hook', events },
      { url: 'javascript:alert(1)', events },
      { url: 'file:///etc/passwd', events },
      { url: 'data:text/plain,hi', events },
      { url: 'http://user:secret@127.0.0.1/hook', events },
      { url: 'http://127.0.0.1/ho\u0000ok', events },
      { url: 'http://127.0.0.1/ho\nok', events },
      { url: 'http://127.0.0.1/ho ok', events },
      { url: `http://127.0.0.1/${'a'.repeat(2100)}`, events },
      { url: 42, events },
      { url: receiver.url, events: [] },
      { url: receiver.url, events: 'member.created' },
      { url: receiver.url, events: ['member.exploded'] },
      { url: receiver.url, events: ['MEMBER.CREATED'] },
      { url: receiver.url, events: ['webhook.test'] },
      { url: receiver.url, events: [42] },
      { url: receiver.url, events: Array.from({ length: 100 }, (_, i) => WEBHOOK_EVENTS[i % WEBHOOK_EVENTS.length]) },
      { url: receiver.url, events, secret: 'whsec_mine' },
      { url: receiver.url, events, enabled: false },
    ];
    for (const body of bad) {
      const res = await call('admin', 'POST', '/api/admin/outbound', body);
      expect([400, 422], JSON.stringify(body).slice(0, 120)).toContain(res.status);
    }
    expect(await endpointCount()).toBe(before);
    const { id, deliveryId } = await endpointWithDelivery();
    const base = `/api/admin/outbound/${id}`;
    for (const body of [{}, { enabled: 'yes' }, { events: [] }, { url: 'gopher://127.0.0.1' }, { secret: 'x' }])
      expect([400, 422], JSON.stringify(body)).toContain((await call('admin', 'PATCH', base, body)).status);
    for (const limit of ['0', '51', 'abc', '-1', '1.5'])
      expect((await call('admin', 'GET', `${base}/deliveries?limit=${limit}`)).status, limit).toBe(422);
    // Odd or unknown ids: 404 (an odd one before any query).
    const unknown: [string, string][] = [
      ['PATCH', 'not-a-uuid'],
      ['PATCH', UUID],
      ['POST', `${UUID}/rotate`],
      ['POST', `not-a-uuid/rotate`],
      ['POST', `${UUID}/test`],
      ['GET', `${UUID}/deliveries`],
      ['GET', `not-a-uuid/deliveries`],
    ];
    for (const [method, path] of unknown)
      expect(
        (await call('admin', method, `/api/admin/outbound/${path}`, method === 'PATCH' ? { enabled: true } : undefined)).status,
        path,
      ).toBe(404);
    expect((await call('admin', 'DELETE', `/api/admin/outbound/${UUID}`)).status).toBe(404);
    expect((await call('admin', 'POST', `${base}/deliveries/${UUID}/replay`)).status).toBe(404);
    expect((await call('admin', 'POST', `${base}/deliveries/nope/replay`)).status).toBe(404);
    // Another endpoint's delivery is not this one's.
    const other = await endpointWithDelivery();
    expect((await call('admin', 'POST', `${base}/deliveries/${other.deliveryId}/replay`)).status).toBe(404);
    expect((await call('admin', 'POST', `/api/admin/outbound/${other.id}/deliveries/${deliveryId}/replay`)).status).toBe(404);
    for (const e of await t.services.webhooks.list()) await t.services.webhooks.remove(e.id);
  });

  it(`keeps at most ${MAX_WEBHOOK_ENDPOINTS} endpoints`, async () => {
    for (let i = await endpointCount(); i < MAX_WEBHOOK_ENDPOINTS; i++)
      await t.services.webhooks.create(ids.admin, { url: `${receiver.url}/${i}`, events: ['member.created'] });
    expect((await call('admin', 'POST', '/api/admin/outbound', { url: receiver.url, events: ['member.created'] })).status).toBe(409);
    expect(await endpointCount()).toBe(MAX_WEBHOOK_ENDPOINTS);
    for (const e of await t.services.webhooks.list()) await t.services.webhooks.remove(e.id);
  });

  it('refuses non-public targets outside the embedded defaults, at registration and again at delivery after DNS', async () => {
    const strict = createOutboundService({ db: t.database.db, logger: quietLogger(), policy: PRODUCTION_TARGETS, clock, timeoutMs: 400 });
    const refused = [
      'http://93.184.215.14/hook', // plain http
      'https://127.0.0.1/hook',
      'https://127.8.9.10/hook',
      'https://10.0.0.1/hook',
      'https://172.16.5.4/hook',
      'https://192.168.1.1/hook',
      'https://169.254.169.254/latest/meta-data',
      'https://100.64.0.1/hook',
      'https://0.0.0.0/hook',
      'https://224.0.0.1/hook',
      'https://255.255.255.255/hook',
      'https://2130706433/hook', // 127.0.0.1 as one number
      'https://0x7f.0.0.1/hook',
      'https://[::1]/hook',
      'https://[::]/hook',
      'https://[fe80::1]/hook',
      'https://[fc00::1]/hook',
      'https://[fd12:3456::1]/hook',
      'https://[::ffff:127.0.0.1]/hook',
      'https://[::ffff:a00:1]/hook',
      'https://[::127.0.0.1]/hook',
      'https://[64:ff9b::a9fe:a9fe]/hook',
      'https://localhost/hook',
      'https://anything.localhost/hook',
    ];
    const before = await endpointCount();
    for (const url of refused)
      await expect(strict.create(ids.admin, { url, events: ['member.created'] }), url).rejects.toMatchObject({ code: 'validation_failed' });
    expect(await endpointCount()).toBe(before);
    // A public address is accepted (no request is made at registration).
    const accepted = await strict.create(ids.admin, { url: 'https://93.184.215.14/hook', events: ['member.created'] });
    expect(accepted.url).toBe('https://93.184.215.14/hook');
    await strict.remove(accepted.id);

    // At delivery: a name that now resolves to loopback (DNS rebinding), and a row whose address the policy no longer allows.
    const rebound = createOutboundService({
      db: t.database.db,
      logger: quietLogger(),
      policy: { allowPrivate: false, allowHttp: true },
      clock,
      timeoutMs: 400,
    });
    const [byName] = await t.database.db
      .insert(webhookEndpoints)
      .values({
        url: `http://localhost:${receiver.port}/hooks`,
        events: ['member.created'],
        secret: 'whsec_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA',
        createdBy: ids.admin,
      })
      .returning();
    const [byAddress] = await t.database.db
      .insert(webhookEndpoints)
      .values({ url: receiver.url, events: ['member.created'], secret: 'whsec_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA', createdBy: ids.admin })
      .returning();
    await rebound.test(byName!.id, ids.admin);
    await rebound.test(byAddress!.id, ids.admin);
    const seen = receiver.received.length;
    expect(await rebound.worker.runOnce()).toBe(2);
    expect(receiver.received.length, 'nothing reached the loopback receiver').toBe(seen);
    for (const endpoint of [byName!, byAddress!]) {
      const row = await deliveryOf(endpoint.id);
      expect(row).toMatchObject({ status: 'queued', attempts: 1, lastStatus: null });
      expect(row.lastError).toMatch(/not a public address|not public/);
      await rebound.remove(endpoint.id);
    }
  });

  it('does not follow a redirect: a 3xx is a failure, retried later, and the redirect target gets nothing', async () => {
    const elsewhere = await startReceiver();
    try {
      receiver.answer(answerWith(302, { location: elsewhere.url }));
      const { id } = await endpointWithDelivery();
      await t.services.webhooks.worker.runOnce();
      const row = await deliveryOf(id);
      expect(row).toMatchObject({ status: 'queued', attempts: 1, lastStatus: 302 });
      expect(row.lastError).toMatch(/redirect \(302\) is not followed/);
      expect(elsewhere.received).toHaveLength(0);
      await t.services.webhooks.remove(id);
    } finally {
      receiver.answer(answerWith(204));
      await elsewhere.close();
    }
  });

  it('gives up on a slow endpoint at the time limit and retries it later, when it answers in time', async () => {
    receiver.answer((_req, res) => {
      const timer = setTimeout(() => res.writeHead(200).end('late'), 5_000);
      res.on('close', () => clearTimeout(timer));
    });
    const { id } = await endpointWithDelivery();
    await t.services.webhooks.worker.runOnce();
    const row = await deliveryOf(id);
    expect(row).toMatchObject({ status: 'queued', attempts: 1, lastStatus: null });
    expect(row.lastError).toMatch(/No answer within 0.4 s/);
    expect(row.nextAttemptAt.getTime()).toBeGreaterThan(clock().getTime() + 20_000);
    receiver.answer(answerWith(200));
    offset += 60_000;
    await t.services.webhooks.worker.runOnce();
    expect(await deliveryOf(id)).toMatchObject({ status: 'delivered', attempts: 2, lastStatus: 200, lastError: null });
    await t.services.webhooks.remove(id);
  });
});
