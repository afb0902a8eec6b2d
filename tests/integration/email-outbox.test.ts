/**
 * The email outbox on both databases: enqueue commits with the caller's transaction, the mailbox
 * and SMTP transports (a real SMTP server on loopback), retries with backoff, permanent failures,
 * leases, graceful stop, the admin functions and provider delivery events.
 */
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { eq, sql } from 'drizzle-orm';
import PostalMime from 'postal-mime';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { emails } from '../../functions/email/tables.ts';
import { signWebhook } from '../../functions/email/routes.ts';
import { createEmailStore } from '../../functions/email/store.ts';
import { createMailboxTransport, createSmtpTransport, type MailTransport } from '../../functions/platform/mail/index.ts';
import { createRecordingTransport, permanentFailure, temporaryFailure } from '../../functions/platform/mail/recording.ts';
import { createEmailWorker, type WorkerOptions } from '../../functions/email/worker.ts';
import { createTestApp, type TestApp } from '../support/app.ts';
import { DATABASE_KINDS } from '../support/databases.ts';
import { quietLogger } from '../support/fixtures.ts';
import { startTestSmtp, type TestSmtp } from '../support/smtp.ts';
import { tempDir } from '../support/temp.ts';

const WEBHOOK_SECRET = 'test-webhook-secret-123456';

describe.each(DATABASE_KINDS)('email outbox on %s', (kind) => {
  let t: TestApp;
  const workers: { stop(): Promise<void> }[] = [];

  beforeAll(async () => {
    t = await createTestApp(kind, undefined, { EMAIL_WEBHOOK_SECRET: WEBHOOK_SECRET });
  });
  afterEach(async () => {
    for (const w of workers.splice(0)) await w.stop();
    await t.database.db.delete(emails);
  });
  afterAll(() => t?.close());

  const outbox = () => t.services.outbox;
  const rows = () => t.database.db.select().from(emails);
  const row = async (id: string) => (await t.database.db.select().from(emails).where(eq(emails.id, id)))[0]!;
  const enqueueAck = (to = 'reader@example.com', tx = t.database.db) =>
    outbox().enqueue(tx, {
      to,
      template: 'contact-notification',
      data: { name: 'Ada', email: 'ada@example.com', subject: 'Hello', message: 'Line one\n\nLine <b>two</b>', receivedAt: 'now' },
    });
  const worker = (transport: MailTransport, extra: Partial<WorkerOptions> = {}) => {
    const w = createEmailWorker({ db: t.database.db, transport, logger: quietLogger(), pollMs: 20, ...extra });
    workers.push(w);
    return w;
  };

  it('commits a queued email with the caller’s transaction, and drops it on rollback', async () => {
    await expect(
      t.database.db.transaction(async (tx) => {
        await enqueueAck('rolled-back@example.com', tx);
        throw new Error('the state change failed');
      }),
    ).rejects.toThrow('the state change failed');
    expect(await rows()).toHaveLength(0);
    await t.database.db.transaction((tx) => enqueueAck('committed@example.com', tx));
    expect((await rows()).map((r) => r.to)).toEqual(['committed@example.com']);
  });

  it('writes mail into the local mailbox as .eml with HTML and text parts, status delivered', async () => {
    const dir = await tempDir('mailbox');
    const email = await enqueueAck();
    expect(await worker(createMailboxTransport(dir, quietLogger())).runOnce()).toBe(1);
    const files = await readdir(dir);
    expect(files).toEqual([expect.stringMatching(new RegExp(`${email.id}\\.eml$`))]);
    const parsed = await PostalMime.parse(await readFile(path.join(dir, files[0]!), 'utf8'));
    expect(parsed.subject).toBe('New enquiry: Hello');
    expect(parsed.text).toContain('Line <b>two</b>');
    expect(parsed.html).toContain('Line &lt;b&gt;two&lt;/b&gt;');
    expect(parsed.messageId).toBe(email.headers['Message-ID']);
    const done = await row(email.id);
    expect(done).toMatchObject({ status: 'delivered', attempts: 1, leaseOwner: null, errorMessage: null });
    expect(done.sentAt).toBeInstanceOf(Date);
    expect(done.deliveredAt).toBeInstanceOf(Date);
  });

  describe('over SMTP', () => {
    let smtp: TestSmtp;
    const transports: MailTransport[] = [];
    const smtpTransport = (url: string) => {
      const transport = createSmtpTransport(url);
      transports.push(transport);
      return transport;
    };
    afterEach(async () => {
      // Close pooled client connections first, or the server waits for them before closing.
      for (const transport of transports.splice(0)) await transport.close();
      await smtp?.close();
    });

    it('hands over both parts and the list headers; the message is sent', async () => {
      smtp = await startTestSmtp();
      await t.services.newsletter.subscribe('list@example.com', '/blog');
      const [queued] = await rows();
      await worker(smtpTransport(smtp.url)).runOnce();
      expect(smtp.received).toHaveLength(1);
      const mail = await smtp.parse(smtp.received[0]!);
      expect(mail.text).toContain('/newsletter/confirm?token=');
      expect(mail.html).toContain('Confirm my subscription');
      const header = (name: string) => mail.headers.find((h) => h.key === name)?.value;
      expect(header('list-unsubscribe')).toMatch(/^<http:\/\/.+\/api\/newsletter\/unsubscribe\?token=.+>, <mailto:/);
      expect(header('list-unsubscribe-post')).toBe('List-Unsubscribe=One-Click');
      expect(smtp.received[0]!.messageId).toBe(queued!.headers['Message-ID']);
      expect(await row(queued!.id)).toMatchObject({ status: 'sent', deliveredAt: null, errorMessage: null });
    });

    it('fails a rejected recipient at once with the server’s message', async () => {
      smtp = await startTestSmtp({ rejectRecipients: ['nobody@example.com'] });
      const email = await enqueueAck('nobody@example.com');
      await worker(smtpTransport(smtp.url)).runOnce();
      const failed = await row(email.id);
      expect(failed.status).toBe('failed');
      expect(failed.attempts).toBe(1);
      expect(failed.errorMessage).toContain('No such user here');
      expect(failed.failedAt).toBeInstanceOf(Date);
    });

    it('retries while the server is down with growing delays, then delivers once it is back', async () => {
      smtp = await startTestSmtp();
      const port = smtp.port;
      await smtp.close();
      const delays: number[] = [];
      const backoff = (attempt: number) => {
        const ms = 40 * 2 ** (attempt - 1);
        delays.push(ms);
        return ms;
      };
      const email = await enqueueAck();
      const w = worker(smtpTransport(`smtp://127.0.0.1:${port}`), { backoff });
      const tried = Date.now();
      await w.runOnce();
      let waiting = await row(email.id);
      expect(waiting).toMatchObject({ status: 'queued', attempts: 1, leaseOwner: null });
      expect(waiting.errorMessage).toMatch(/ECONNREFUSED|connect/i);
      // The failure came after `tried`, and the next attempt is the backoff after the failure.
      expect(waiting.nextAttemptAt.getTime()).toBeGreaterThanOrEqual(tried + 40);
      await new Promise((r) => setTimeout(r, 60));
      await w.runOnce();
      waiting = await row(email.id);
      expect(waiting.attempts).toBe(2);
      expect(delays).toEqual([40, 80]);
      smtp = await startTestSmtp({ port });
      await new Promise((r) => setTimeout(r, 120));
      await w.runOnce();
      expect(await row(email.id)).toMatchObject({ status: 'sent', attempts: 3, errorMessage: null });
      expect(smtp.received).toHaveLength(1);
    });

    it('gives up after the maximum attempts and records the last error', async () => {
      smtp = await startTestSmtp();
      await smtp.close();
      const email = await enqueueAck();
      await t.database.db.update(emails).set({ maxAttempts: 2 }).where(eq(emails.id, email.id));
      const w = worker(smtpTransport(`smtp://127.0.0.1:${smtp.port}`), { backoff: () => 0 });
      await w.runOnce();
      await w.runOnce();
      expect(await w.runOnce()).toBe(0);
      expect(await row(email.id)).toMatchObject({ status: 'failed', attempts: 2 });
    });
  });

  it('leases a claimed message to one worker until the lease expires, and fences late results', async () => {
    const email = await enqueueAck();
    const store = createEmailStore(t.database.db);
    expect(await store.claim('worker-a', 10, 200)).toHaveLength(1);
    expect(await store.claim('worker-b', 10, 200)).toHaveLength(0);
    await new Promise((r) => setTimeout(r, 250));
    const reclaimed = await store.claim('worker-b', 10, 60_000);
    expect(reclaimed.map((e) => e.id)).toEqual([email.id]);
    expect(reclaimed[0]!.attempts).toBe(2);
    expect(await store.settle(email.id, 'worker-a', { status: 'sent' })).toBe(false);
    expect(await store.settle(email.id, 'worker-b', { status: 'sent' })).toBe(true);
  });

  /** Whether the database's clock, which leases are measured on, has passed `than`. */
  const later = async (than: Date) => {
    const [{ past } = { past: false }] = await t.database.db
      .select({ past: sql<boolean>`now() > ${than.toISOString()}::timestamptz` })
      .from(sql`(select 1) as one`);
    return past;
  };

  it('renews the lease of a send that outlasts it, so no other worker takes the message and it goes out once', async () => {
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const slow = createRecordingTransport({ before: () => gate });
    const email = await enqueueAck();
    const holder = worker(slow, { leaseMs: 600 });
    const holding = holder.runOnce();
    await expect.poll(() => slow.attemptsFor(email.id)).toBe(1);
    const first = (await row(email.id)).leaseExpiresAt!;
    // The first lease has run out, by the database's clock, while the send is still in flight.
    await expect.poll(() => later(first), { timeout: 5000 }).toBe(true);
    expect(await createEmailStore(t.database.db).claim('worker-b', 10, 60_000)).toHaveLength(0);
    const renewed = await row(email.id);
    expect(renewed.leaseOwner).toBe(holder.owner);
    expect(renewed.leaseExpiresAt!.getTime()).toBeGreaterThan(first.getTime());
    release();
    expect(await holding).toBe(1);
    expect(slow.sent).toHaveLength(1);
    expect(await row(email.id)).toMatchObject({ status: 'sent', attempts: 1, leaseOwner: null, leaseExpiresAt: null });
  });

  it('does not start a message whose lease another worker took meanwhile', async () => {
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const slow = createRecordingTransport({ before: () => gate });
    const [a, b] = [await enqueueAck('first@example.com'), await enqueueAck('second@example.com')];
    const holder = worker(slow, { leaseMs: 600, concurrency: 1 });
    const holding = holder.runOnce();
    await expect.poll(() => slow.attemptsFor(a.id) + slow.attemptsFor(b.id)).toBe(1);
    const [inFlight, waiting] = slow.attemptsFor(a.id) ? [a, b] : [b, a];
    // As if its lease had run out and another worker had claimed it.
    await t.database.db.update(emails).set({ leaseOwner: 'worker-b' }).where(eq(emails.id, waiting.id));
    const before = (await row(inFlight.id)).leaseExpiresAt!;
    // A renewal after the theft: the holder now knows.
    await expect.poll(async () => (await row(inFlight.id)).leaseExpiresAt!.getTime() > before.getTime(), { timeout: 5000 }).toBe(true);
    release();
    expect(await holding).toBe(2);
    expect(slow.sent.map((m) => m.to)).toEqual([inFlight.to]);
    expect(slow.attemptsFor(waiting.id)).toBe(0);
    expect(await row(waiting.id)).toMatchObject({ status: 'queued', leaseOwner: 'worker-b' });
    expect(await row(inFlight.id)).toMatchObject({ status: 'sent', leaseOwner: null });
  });

  it('claims transactional mail before bulk mail queued earlier, so a big issue never delays a password reset', async () => {
    const bulk = Array.from({ length: 500 }, (_, i) => ({ to: `reader${i}@example.com`, fill: `token-${i}` }));
    const rendered = { subject: 'Issue', html: '<p>For TOKEN</p>', text: 'For TOKEN' };
    await outbox().enqueueCopies(t.database.db, 'newsletter-issue', rendered, 'TOKEN', bulk, { bulk: true, batch: 'newsletter:test' });
    const urgent = await enqueueAck('reset@example.com');
    const first = await createEmailStore(t.database.db).claim('worker-a', 50, 60_000);
    expect(first).toHaveLength(50);
    expect(first.map((e) => e.id)).toContain(urgent.id);
    expect(first.filter((e) => e.bulk)).toHaveLength(49);
    // The copies themselves are the batch's, each with its own fill.
    expect((await outbox().tally(['newsletter:test'])).get('newsletter:test')).toEqual({ queued: 500, sent: 0, failed: 0 });
    const [copy] = await t.database.db.select().from(emails).where(eq(emails.to, 'reader7@example.com'));
    expect(copy).toMatchObject({ bodyText: 'For token-7', bulk: true, batch: 'newsletter:test' });
  });

  it('stops gracefully: finishes the message in flight and gives back the rest at once', async () => {
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    let started = 0;
    const slow = createRecordingTransport({
      before: () => {
        started += 1;
        return gate;
      },
    });
    for (let i = 0; i < 5; i++) await enqueueAck(`reader${i}@example.com`);
    const w = createEmailWorker({ db: t.database.db, transport: slow, logger: quietLogger(), concurrency: 1, pollMs: 20 });
    await w.start();
    await expect.poll(() => started).toBe(1);
    const stopping = w.stop(5000);
    setTimeout(release, 50);
    await stopping;
    const all = await rows();
    expect(slow.sent).toHaveLength(1);
    expect(all.filter((e) => e.status === 'sent')).toHaveLength(1);
    const back = all.filter((e) => e.status === 'queued');
    expect(back).toHaveLength(4);
    for (const e of back) expect(e).toMatchObject({ leaseOwner: null, leaseExpiresAt: null, attempts: 0 });
  });

  describe('through the mail port (recording fake)', () => {
    it('hands the transport a message, not the stored row, and records the result', async () => {
      const email = await enqueueAck('port@example.com');
      const transport = createRecordingTransport();
      expect(await worker(transport).runOnce()).toBe(1);
      expect(transport.sent).toHaveLength(1);
      const message = transport.sent[0]!;
      expect(message).toMatchObject({
        id: email.id,
        to: 'port@example.com',
        subject: email.subject,
        html: email.bodyHtml,
        text: email.bodyText,
      });
      for (const column of ['bodyHtml', 'status', 'attempts', 'leaseOwner']) expect(message).not.toHaveProperty(column);
      const messageId = email.headers['Message-ID'];
      expect(messageId).toMatch(/^<.+@.+>$/);
      expect(message.headers['Message-ID']).toBe(messageId);
      expect(await row(email.id)).toMatchObject({ status: 'sent', attempts: 1, providerMessageId: messageId, errorMessage: null });
    });

    it('retries a temporary failure later and gives up on a permanent one at once', async () => {
      const flaky = await enqueueAck('flaky@example.com');
      const gone = await enqueueAck('gone@example.com');
      const transport = createRecordingTransport({
        fail: (message, attempt) =>
          message.to === 'gone@example.com' ? permanentFailure() : attempt === 1 ? temporaryFailure() : undefined,
      });
      const w = worker(transport, { backoff: () => 0 });
      await w.runOnce();
      expect(await row(flaky.id)).toMatchObject({ status: 'queued', attempts: 1, errorMessage: '451 try again later' });
      expect(await row(gone.id)).toMatchObject({ status: 'failed', attempts: 1, errorMessage: '550 no such user' });
      await w.runOnce();
      expect(await row(flaky.id)).toMatchObject({ status: 'sent', attempts: 2, errorMessage: null });
      expect(transport.sent.map((m) => m.to)).toEqual(['flaky@example.com']);
      expect(transport.attemptsFor(gone.id)).toBe(1);
    });
  });

  describe('admin functions', () => {
    it('lists the queue and recent emails with a default limit of 10', async () => {
      for (let i = 0; i < 12; i++) await enqueueAck(`q${i}@example.com`);
      expect(await outbox().queue()).toHaveLength(10);
      expect(await outbox().queue(3)).toHaveLength(3);
      expect(await outbox().recent()).toHaveLength(0);
      await worker(createMailboxTransport(await tempDir('admin-mailbox'), quietLogger()), { batchSize: 5 }).runOnce();
      expect(await outbox().recent()).toHaveLength(5);
      expect(await outbox().queue(100)).toHaveLength(7);
    });

    it('resends a failed email as a new attempt of the same message', async () => {
      const email = await enqueueAck();
      await t.database.db
        .update(emails)
        .set({ status: 'failed', attempts: 6, errorMessage: 'boom', failedAt: new Date() })
        .where(eq(emails.id, email.id));
      const resent = await outbox().resend(email.id);
      expect(resent).toMatchObject({ id: email.id, status: 'queued', attempts: 0, errorMessage: null, failedAt: null });
      expect(resent.subject).toBe(email.subject);
      await expect(outbox().resend(email.id)).rejects.toMatchObject({ code: 'conflict' });
      await expect(outbox().resend('00000000-0000-4000-8000-000000000000')).rejects.toMatchObject({ code: 'not_found' });
      await expect(outbox().resend('not-a-uuid')).rejects.toMatchObject({ code: 'not_found' });
    });
  });

  describe('delivery events webhook', () => {
    const post = (body: unknown, signature?: string) => {
      const text = JSON.stringify(body);
      return t.app.request('/api/email/events', {
        method: 'POST',
        body: text,
        headers: { 'content-type': 'application/json', 'x-webhook-signature': signature ?? signWebhook(WEBHOOK_SECRET, text) },
      });
    };
    const sentEmail = async () => {
      const email = await enqueueAck();
      await t.database.db.update(emails).set({ status: 'sent', providerMessageId: '<provider-1@mail>' }).where(eq(emails.id, email.id));
      return email;
    };

    it('marks a sent email delivered, once per event id', async () => {
      const email = await sentEmail();
      const event = { id: 'evt-1', type: 'delivered', messageId: '<provider-1@mail>', occurredAt: '2026-11-21T10:00:00Z' };
      const res = await post(event);
      expect(res.status).toBe(200);
      expect(await res.json()).toEqual({ received: 1, applied: 1 });
      expect(await row(email.id)).toMatchObject({ status: 'delivered', deliveredAt: new Date('2026-11-21T10:00:00Z') });
      expect(await (await post(event)).json()).toEqual({ received: 1, applied: 0 });
    });

    it('applies events in any order: a bounce after delivery fails it, a late delivery does not revive it', async () => {
      const email = await sentEmail();
      await post([
        { id: 'evt-a', type: 'delivered', messageId: '<provider-1@mail>', occurredAt: '2026-11-21T10:00:00Z' },
        { id: 'evt-b', type: 'bounced', messageId: '<provider-1@mail>', occurredAt: '2026-11-21T10:05:00Z', detail: 'Mailbox full' },
      ]);
      expect(await row(email.id)).toMatchObject({ status: 'failed', errorMessage: 'Mailbox full' });
      await post({ id: 'evt-c', type: 'delivered', messageId: '<provider-1@mail>', occurredAt: '2026-11-21T10:06:00Z' });
      expect((await row(email.id)).status).toBe('failed');
    });

    it('rejects a missing or wrong signature with 401, and bad events with 422', async () => {
      const event = { id: 'evt-x', type: 'delivered', messageId: 'x', occurredAt: '2026-11-21T10:00:00Z' };
      expect((await post(event, 'sha256=deadbeef')).status).toBe(401);
      const unsigned = await t.app.request('/api/email/events', {
        method: 'POST',
        body: JSON.stringify(event),
        headers: { 'content-type': 'application/json' },
      });
      expect(unsigned.status).toBe(401);
      const bad = await post({ id: 'evt-y', type: 'exploded', messageId: 'x', occurredAt: 'yesterday' });
      expect(bad.status).toBe(422);
      expect(await bad.json()).toMatchObject({ error: { code: 'validation_failed', fields: expect.any(Object) } });
    });
  });
});
