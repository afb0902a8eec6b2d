/**
 * Scale-out (`npm run test:scale`, part of `npm test`): three server processes, each in its own
 * working folder and DATA_DIR, on one Postgres database, one S3 server and one SMTP server, behind
 * Debian's nginx as a round-robin balancer (tests/support/cluster.ts). Whatever one instance does,
 * the others see and honour; and when one is SIGKILLed under load and replaced, no read fails, no
 * acknowledged write is lost and every mail those writes queued is sent exactly once.
 */
import { randomUUID } from 'node:crypto';
import Stripe from 'stripe';
import { and, eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { embeddedWebhookSecret } from '../../functions/payments/index.ts';
import { openDatabase, type Database } from '../../functions/platform/db/client.ts';
import { contactMessages } from '../../functions/contact/tables.ts';
import { emails } from '../../functions/email/tables.ts';
import { lessonCompletions } from '../../functions/content/progress/tables.ts';
import { newsletterSubscribers } from '../../functions/newsletter/tables.ts';
import { profiles } from '../../functions/users/tables.ts';
import { testBillingEvents, testBillingSubscriptions } from '../../functions/payments/embedded/tables.ts';
import { webhookEvents } from '../../functions/platform/webhooks/tables.ts';
import { DEMO_PASSWORD } from '../../functions/users/demo.ts';
import { CLUSTER_SECRET, startCluster, type Cluster } from '../support/cluster.ts';
import { pgAdminUrl } from '../support/databases.ts';
import { makeBlogInput, makeMarketInput, quietLogger } from '../support/fixtures.ts';
import { createTestDatabase } from '../support/postgres.ts';
import { multipart, PDF, PNG } from '../support/uploads.ts';
import { DEFAULT_READERS, runScaleOutLoad } from '../support/scale-load.ts';

const COURSE = 'ai-automation-playbook';

describe('three instances behind a balancer', () => {
  let cluster: Cluster;
  let database: Database;
  /** An address as the balancer would pass it on (client, then the balancer's hop). */
  const from = (ip: string) => ({ 'x-forwarded-for': `${ip}, 127.0.0.1` });

  beforeAll(async () => {
    const databaseUrl = await createTestDatabase(pgAdminUrl(), 'scale');
    cluster = await startCluster({ size: 3, databaseUrl, distDir: inject('testEnv').distDir });
    database = await openDatabase({ kind: 'postgres', url: databaseUrl, poolSize: 2 }, quietLogger());
    // Each instance loads its page renderer with the first page it must render (a few hundred ms,
    // once): rendered here, so the timings below are about what crosses instances.
    for (const instance of cluster.instances) await fetch(`${instance.url}/blog/renderer-warm-up`).then((r) => r.arrayBuffer());
  }, 120_000);
  afterAll(async () => {
    await database?.close();
    await cluster?.stop();
  });

  const at = (index: number) => cluster.instances[index]!.url;
  async function signIn(base: string, email: string): Promise<{ access_token: string; refresh_token: string }> {
    const res = await fetch(`${base}/auth/v1/token?grant_type=password`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...from(`10.9.${Math.floor(Math.random() * 250)}.1`) },
      body: JSON.stringify({ email, password: DEMO_PASSWORD }),
    });
    expect(res.status, `sign in as ${email}`).toBe(200);
    return (await res.json()) as { access_token: string; refresh_token: string };
  }
  const json = (token: string, extra: Record<string, string> = {}) => ({
    'content-type': 'application/json',
    authorization: `Bearer ${token}`,
    ...extra,
  });
  /** Polls until `check` holds on every instance but the writer, answering how long it took (ms). */
  async function seenEverywhere(check: (base: string) => Promise<boolean>, except: number): Promise<number> {
    const started = Date.now();
    for (const [index, instance] of cluster.instances.entries()) {
      if (index === except) continue;
      for (;;) {
        if (await check(instance.url)) break;
        if (Date.now() - started > 5_000) throw new Error(`${instance.name} never saw it`);
        await new Promise((r) => setTimeout(r, 25));
      }
    }
    return Date.now() - started;
  }

  it('lists, renders and maps content written through one instance on the others within a second', async () => {
    const editor = await signIn(at(0), 'editor@demo.beacongrowth.co');
    const input = makeBlogInput({ slug: `scale-out-${randomUUID().slice(0, 8)}`, title: 'Written On One, Seen On All' });
    const created = await fetch(`${at(0)}/api/content/blogs`, {
      method: 'POST',
      headers: json(editor.access_token),
      body: JSON.stringify(input),
    });
    expect(created.status).toBe(201);
    const { item } = (await created.json()) as { item: { slug: string } };
    const took = await seenEverywhere(async (base) => {
      const [list, page, sitemap] = await Promise.all([
        fetch(`${base}/api/public/blogs`).then((r) => r.text()),
        fetch(`${base}/blog/${item.slug}`).then((r) => (r.status === 200 ? r.text() : '')),
        fetch(`${base}/sitemap.xml`).then((r) => r.text()),
      ]);
      return list.includes(item.slug) && page.includes('Written On One, Seen On All') && sitemap.includes(`/blog/${item.slug}`);
    }, 0);
    expect(took).toBeLessThan(1_000);
  });

  it('serves public and protected uploads made through one instance from the others', async () => {
    const editor = await signIn(at(0), 'editor@demo.beacongrowth.co');
    const image = multipart([{ field: 'file', filename: 'a.png', type: 'image/png', body: PNG }]);
    const publicUpload = await fetch(`${at(0)}/api/upload`, {
      method: 'POST',
      headers: { authorization: `Bearer ${editor.access_token}`, 'content-type': image.contentType },
      body: image.body,
    });
    expect(publicUpload.status).toBe(201);
    const { url } = (await publicUpload.json()) as { url: string };
    for (const index of [1, 2]) {
      const res = await fetch(new URL(url, at(index)));
      expect(res.status, `public upload on instance ${index}`).toBe(200);
      expect(Buffer.from(await res.arrayBuffer()).equals(PNG)).toBe(true);
    }

    const pdf = multipart([{ field: 'file', filename: 'kit.pdf', type: 'application/pdf', body: PDF }]);
    const protectedUpload = await fetch(`${at(0)}/api/upload?area=protected`, {
      method: 'POST',
      headers: { authorization: `Bearer ${editor.access_token}`, 'content-type': pdf.contentType },
      body: pdf.body,
    });
    expect(protectedUpload.status).toBe(201);
    const { url: key } = (await protectedUpload.json()) as { url: string };
    const slug = `scale-kit-${randomUUID().slice(0, 8)}`;
    const item = makeMarketInput({ slug, accessLevel: 'premium', price: undefined, downloadUrl: key });
    const written = await fetch(`${at(0)}/api/content/market`, {
      method: 'POST',
      headers: json(editor.access_token),
      body: JSON.stringify(item),
    });
    expect(written.status).toBe(201);
    const premium = await signIn(at(1), 'premium@demo.beacongrowth.co');
    const link = await fetch(`${at(1)}/api/content/market/${slug}/download`, { headers: json(premium.access_token) });
    expect(link.status).toBe(200);
    const signed = new URL(((await link.json()) as { url: string }).url);
    const file = await fetch(`${at(2)}${signed.pathname}${signed.search}`);
    expect(file.status, 'protected upload on instance 2').toBe(200);
    expect(Buffer.from(await file.arrayBuffer()).equals(PDF)).toBe(true);
  });

  it('signs in through one, refreshes through another, signs out through a third: the token is refused everywhere', async () => {
    const first = await signIn(at(0), 'subscriber@demo.beacongrowth.co');
    const refreshed = await fetch(`${at(1)}/auth/v1/token?grant_type=refresh_token`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ refresh_token: first.refresh_token }),
    });
    expect(refreshed.status).toBe(200);
    const second = (await refreshed.json()) as { access_token: string };
    expect((await fetch(`${at(2)}/auth/v1/logout`, { method: 'POST', headers: json(second.access_token) })).status).toBe(204);
    for (const index of [0, 1, 2]) {
      for (const token of [first.access_token, second.access_token]) {
        const patch = await fetch(`${at(index)}/api/users/me`, { method: 'PATCH', headers: json(token), body: '{"name":"Gone"}' });
        expect(patch.status, `PATCH me on instance ${index}`).toBe(401);
        expect((await fetch(`${at(index)}/api/users/me/feed`, { headers: json(token) })).status, `feed on ${index}`).toBe(401);
      }
    }
  });

  it('counts a rate limit across instances', async () => {
    // Ten newsletter sign-ups per client address an hour, wherever they land.
    const ip = `10.77.${Math.floor(Math.random() * 250)}.9`;
    const statuses: number[] = [];
    for (let i = 0; i < 11; i += 1) {
      const res = await fetch(`${at(i % 3)}/api/newsletter/subscribe`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...from(ip) },
        body: JSON.stringify({ email: `limit-${i}-${randomUUID().slice(0, 6)}@example.com`, source: '/' }),
      });
      statuses.push(res.status);
    }
    expect(statuses.slice(0, 10)).toEqual(Array(10).fill(202));
    expect(statuses[10]).toBe(429);
  });

  it('sends every queued mail exactly once with a worker in every instance', async () => {
    const batch = `scale-batch-${randomUUID().slice(0, 8)}`;
    const rows = Array.from({ length: 60 }, (_, i) => {
      const id = randomUUID();
      // The stable Message-ID the outbox gives every message (retries of one mail keep it).
      return { id, headers: { 'Message-ID': `<${id}@scale.test>` }, ...mailOf(i) };
    });
    function mailOf(i: number) {
      return {
        subject: `${batch} ${i}`,
        bodyHtml: '<p>Hi</p>',
        bodyText: 'Hi',
        to: `mail-${i}@example.com`,
        from: 'Beacon Growth <hello@beacongrowth.co>',
        template: 'welcome',
      };
    }
    const inserted = await database.db.insert(emails).values(rows).returning({ id: emails.id });
    const ids = new Set(inserted.map((r) => r.id));
    const deadline = Date.now() + 20_000;
    for (;;) {
      const sent = await database.db
        .select({ status: emails.status })
        .from(emails)
        .where(inArray(emails.id, [...ids]));
      if (sent.every((r) => r.status === 'sent')) break;
      if (Date.now() > deadline) throw new Error('the mail was not all sent');
      await new Promise((r) => setTimeout(r, 100));
    }
    const deliveries = cluster.smtp.received.filter((m) => [...ids].some((id) => m.messageId.includes(id)));
    expect(deliveries).toHaveLength(60);
    expect(new Set(deliveries.map((m) => m.messageId)).size).toBe(60);
  });

  it('renews an ended period once with the billing clock running in every instance, and applies a webhook delivered twice at once once', async () => {
    const member = await signIn(at(0), 'free@demo.beacongrowth.co');
    const session = await fetch(`${cluster.url}/api/payments/stripe/create-session`, {
      method: 'POST',
      headers: json(member.access_token),
      body: JSON.stringify({ priceId: 'price_subscriber_monthly', successUrl: '/payment/confirmation', cancelUrl: '/pricing' }),
    });
    expect(session.status).toBe(200);
    const { sessionId } = (await session.json()) as { sessionId: string };
    const paid = await fetch(`${cluster.url}/api/payments/test/checkout/${sessionId}/pay`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ cardNumber: '4242 4242 4242 4242', expiry: '12/40', cvc: '123' }),
    });
    expect(paid.status).toBe(200);
    const [profile] = await database.db.select().from(profiles).where(eq(profiles.email, 'free@demo.beacongrowth.co'));
    const [sub] = await database.db
      .select()
      .from(testBillingSubscriptions)
      .where(eq(testBillingSubscriptions.customerId, profile!.customerId!));
    if (!sub) throw new Error('no subscription was made');
    const invoicesOf = async () =>
      (await database.db.select().from(testBillingEvents).where(eq(testBillingEvents.type, 'invoice.paid'))).filter((e) =>
        JSON.stringify(e.object).includes(sub.id),
      ).length;
    const invoicedBefore = await invoicesOf();
    // The period ends now: every instance's clock (each second here) finds it due.
    const ended = new Date(Date.now() - 1_000);
    await database.db
      .update(testBillingSubscriptions)
      .set({ currentPeriodStart: new Date(ended.getTime() - 30 * 86_400_000), currentPeriodEnd: ended })
      .where(eq(testBillingSubscriptions.id, sub.id));
    const deadline = Date.now() + 10_000;
    let renewed;
    for (;;) {
      [renewed] = await database.db.select().from(testBillingSubscriptions).where(eq(testBillingSubscriptions.id, sub.id));
      if (renewed!.currentPeriodEnd > new Date()) break;
      if (Date.now() > deadline) throw new Error('the period was never renewed');
      await new Promise((r) => setTimeout(r, 100));
    }
    await new Promise((r) => setTimeout(r, 2_500)); // every clock has ticked again since
    [renewed] = await database.db.select().from(testBillingSubscriptions).where(eq(testBillingSubscriptions.id, sub.id));
    const oneMonthLater = new Date(ended);
    oneMonthLater.setUTCMonth(oneMonthLater.getUTCMonth() + 1);
    expect(renewed!.currentPeriodEnd.toISOString()).toBe(oneMonthLater.toISOString());
    expect((await invoicesOf()) - invoicedBefore, 'renewal invoices').toBe(1);

    // One signed event, delivered to two instances at the same moment: stored once, applied once.
    const event = {
      id: `evt_scale_${randomUUID().replaceAll('-', '')}`,
      object: 'event',
      type: 'invoice.paid',
      created: Math.floor(Date.now() / 1000),
      data: { object: { id: 'in_scale', object: 'invoice', parent: { subscription_details: { subscription: sub.id } } } },
    };
    const body = JSON.stringify(event);
    const secret = embeddedWebhookSecret(new TextEncoder().encode(CLUSTER_SECRET));
    const signature = new Stripe('sk_test_signing_only').webhooks.generateTestHeaderString({ payload: body, secret });
    const answers = await Promise.all(
      [0, 1].map((index) =>
        fetch(`${at(index)}/api/payments/stripe/webhook`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'stripe-signature': signature },
          body,
        }).then(async (r) => ({ status: r.status, ...((await r.json()) as { applied?: number }) })),
      ),
    );
    expect(answers.map((a) => a.status)).toEqual([200, 200]);
    expect(answers.reduce((n, a) => n + (a.applied ?? 0), 0)).toBe(1);
    const stored = await database.db
      .select()
      .from(webhookEvents)
      .where(and(eq(webhookEvents.source, 'payments'), eq(webhookEvents.id, event.id)));
    expect(stored).toHaveLength(1);
    expect(stored[0]!.processedAt).not.toBeNull();
  });

  /** EMAIL_CONCURRENCY's default (the cluster does not set it): the sends one worker has in flight at most. */
  const KILLED_WORKER_IN_FLIGHT = 16;

  it('loses nothing when an instance is SIGKILLed under load and replaced', async () => {
    const premium = await signIn(cluster.url, 'premium@demo.beacongrowth.co');
    const outcome = await runScaleOutLoad(cluster, {
      seconds: 8,
      killAfterSeconds: 2.5,
      memberToken: premium.access_token,
      course: COURSE,
    });
    expect(outcome.reads.failed, JSON.stringify(outcome.reads.failures.slice(0, 5))).toBe(0);
    expect(outcome.reads.ok).toBeGreaterThan(200);
    // A retry only for a connection the reload closed, at most one per reader's connection.
    expect(outcome.reads.retried).toBeLessThanOrEqual(DEFAULT_READERS);

    // Every acknowledged write is stored.
    const subscribers = await database.db
      .select({ email: newsletterSubscribers.email })
      .from(newsletterSubscribers)
      .where(inArray(newsletterSubscribers.email, outcome.writes.newsletter));
    expect(subscribers).toHaveLength(outcome.writes.newsletter.length);
    const messages = await database.db
      .select({ subject: contactMessages.subject })
      .from(contactMessages)
      .where(inArray(contactMessages.subject, outcome.writes.contact));
    expect(messages).toHaveLength(outcome.writes.contact.length);
    const lessons = await database.db.select({ lessonId: lessonCompletions.lessonId }).from(lessonCompletions);
    for (const lesson of outcome.writes.progress) expect(lessons.map((l) => l.lessonId)).toContain(lesson);
    expect(outcome.writes.newsletter.length + outcome.writes.contact.length).toBeGreaterThan(20);

    // Every mail those writes queued is sent exactly once (a killed worker's lease runs out, another sends).
    const mail = await outcome.settleMail(database, 30_000);
    expect(mail.queued).toBeGreaterThan(20);
    expect(mail.missing).toEqual([]);
    // SMTP's one window (functions/email/README.md): a mail the killed worker
    // had handed over (the server answered 250) but not yet marked sent goes out again, with the same
    // Message-ID, which receivers use to drop it; never more than that worker had in flight at once.
    expect(mail.duplicated.length).toBeLessThanOrEqual(KILLED_WORKER_IN_FLIGHT);
    // Each such mail went out twice, never more, and only because a second worker claimed it after the first's
    // lease ran out (a mail claimed once and sent twice would be the worker's own bug).
    for (const copy of mail.duplicated) {
      expect(copy.copies, copy.id).toBe(2);
      expect(copy.attempts, copy.id).toBeGreaterThanOrEqual(2);
    }
  });
});
