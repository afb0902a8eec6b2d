/**
 * Crash safety of the outbox worker on Postgres (PGlite is single-process): a worker process killed
 * with SIGKILL in the middle of a batch loses no message and, once another worker reclaims its
 * leases, none is accepted twice; two workers running together never send the same message; a
 * SIGTERM at any moment of a worker's start stops it gracefully.
 * (SMTP leaves one unavoidable window: a crash between the server's 250 and our database write.
 * The message is then sent again with the same Message-ID; see functions/email/README.md.)
 */
import { spawn } from 'node:child_process';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Database } from '../../functions/platform/db/client.ts';
import { emails } from '../../functions/email/tables.ts';
import { createEmailService } from '../../functions/email/service.ts';
import { createSmtpTransport } from '../../functions/platform/mail/index.ts';
import { createEmailWorker } from '../../functions/email/worker.ts';
import { pgAdminUrl } from '../support/databases.ts';
import { quietLogger } from '../support/fixtures.ts';
import { createTestDatabase } from '../support/postgres.ts';
import { startTestSmtp } from '../support/smtp.ts';
import { spawnWorker, WORKER_START_MS } from '../support/worker-process.ts';
import { CONTENT_DIR } from '../support/app.ts';

const ROOT = path.resolve(import.meta.dirname, '../..');
const WORKER = path.join(ROOT, 'functions', 'worker.ts');
const RECORDER = path.join(ROOT, 'tests', 'support', 'module-recorder.ts');

async function enqueueMany(database: Database, count: number) {
  const outbox = createEmailService({
    db: database.db,
    from: 'Beacon Growth <hello@beacongrowth.co>',
    siteUrl: 'http://localhost:3000',
    maxAttempts: 6,
    logger: quietLogger(),
  });
  for (let i = 0; i < count; i++) {
    await outbox.enqueue(database.db, {
      to: `reader${i}@example.com`,
      template: 'contact-acknowledgement',
      data: {},
    });
  }
}

/** How many times each Message-ID was accepted. */
const acceptedCounts = (ids: string[]) => ids.reduce((m, id) => m.set(id, (m.get(id) ?? 0) + 1), new Map<string, number>());

describe('email worker crash safety (Postgres)', () => {
  let url: string;
  let database: Database;

  beforeAll(async () => {
    url = await createTestDatabase(pgAdminUrl(), 'crash');
    database = await openDatabase({ kind: 'postgres', url, poolSize: 4 }, quietLogger());
  });
  afterAll(() => database?.close());

  it('loses nothing and sends nothing twice when a worker is killed mid-batch', async () => {
    await database.db.delete(emails);
    const TOTAL = 40;
    let releaseHeld!: () => void;
    const held = new Promise<void>((r) => (releaseHeld = r));
    let accepted = 0;
    // The first 10 messages are accepted at once; the rest are held in flight until the kill.
    const smtp = await startTestSmtp({ beforeAccept: () => (accepted++ < 10 ? Promise.resolve() : held) });
    await enqueueMany(database, TOTAL);

    const child = spawnWorker({ DATABASE_URL: url, SMTP_URL: smtp.url, EMAIL_LEASE_SECONDS: '2', EMAIL_CONCURRENCY: '8' });
    // Mid-batch: ten messages accepted and recorded as sent, the others waiting for the server's answer.
    const sentCount = async () => (await database.db.select().from(emails)).filter((e) => e.status === 'sent').length;
    await expect.poll(async () => (await sentCount()) === 10 && smtp.held() > 0, { timeout: WORKER_START_MS }).toBe(true);
    await child.kill();
    // Answer the held DATA commands only once the server has seen the dead client's connections close.
    await expect.poll(() => smtp.openSessions()).toBe(0);
    releaseHeld();

    const leased = await database.db.select().from(emails);
    expect(leased.filter((e) => e.status === 'queued' && e.leaseOwner).length).toBeGreaterThan(0);

    // A second worker reclaims the dead worker's messages once their leases expire.
    const transport = createSmtpTransport(smtp.url);
    const rescuer = createEmailWorker({ db: database.db, transport, logger: quietLogger(), pollMs: 100, concurrency: 8 });
    await rescuer.start();
    await expect
      .poll(async () => (await database.db.select().from(emails)).filter((e) => e.status === 'sent').length, { timeout: 20_000 })
      .toBe(TOTAL);
    await rescuer.stop();
    await transport.close();
    await smtp.close();

    const counts = acceptedCounts(smtp.received.map((m) => m.messageId));
    const rows = await database.db.select().from(emails);
    expect(counts.size).toBe(TOTAL);
    for (const e of rows) expect(counts.get(e.headers['Message-ID']!), e.to).toBe(1);
  }, 120_000);

  it('sends a killed worker’s claimed mail once its short default lease runs out, exactly once', async () => {
    await database.db.delete(emails);
    const TOTAL = 6;
    let releaseHeld!: () => void;
    const held = new Promise<void>((r) => (releaseHeld = r));
    // Every message stays in flight (DATA unanswered) until the worker is dead.
    const smtp = await startTestSmtp({ beforeAccept: () => held });
    await enqueueMany(database, TOTAL);
    // The worker as deployed: EMAIL_LEASE_SECONDS left at its default.
    const child = spawnWorker({ DATABASE_URL: url, SMTP_URL: smtp.url });
    await expect.poll(() => smtp.held(), { timeout: WORKER_START_MS }).toBe(TOTAL);

    // Seconds each claim has left, by the database's clock: never more than about 15 while the worker lives...
    const leaseLeft = async () =>
      (
        await database.db
          .select({ id: emails.id, left: sql<number>`extract(epoch from ${emails.leaseExpiresAt} - now())`.mapWith(Number) })
          .from(emails)
      ).map((r) => r.left);
    const first = await leaseLeft();
    expect(first).toHaveLength(TOTAL);
    for (const left of first) expect(left).toBeLessThanOrEqual(15);
    // ...and renewed while it does: the sends outlast the first lease and nobody else may take them.
    const expiries = async () => (await database.db.select().from(emails)).map((e) => e.leaseExpiresAt!.getTime());
    const claimed = Math.max(...(await expiries()));
    await expect.poll(async () => Math.min(...(await expiries())) > claimed, { timeout: 20_000 }).toBe(true);
    for (const left of await leaseLeft()) expect(left).toBeLessThanOrEqual(15);

    await child.kill();
    await expect.poll(() => smtp.openSessions()).toBe(0);
    releaseHeld();
    const dead = await database.db.select().from(emails);
    expect(dead.every((e) => e.status === 'queued' && e.leaseOwner !== null && e.attempts === 1)).toBe(true);
    const deadline = Math.max(...dead.map((e) => e.leaseExpiresAt!.getTime()));

    const transport = createSmtpTransport(smtp.url);
    const rescuer = createEmailWorker({ db: database.db, transport, logger: quietLogger(), pollMs: 100 });
    await rescuer.start();
    await expect
      .poll(async () => (await database.db.select().from(emails)).filter((e) => e.status === 'sent').length, { timeout: 30_000 })
      .toBe(TOTAL);
    await rescuer.stop();
    await transport.close();
    await smtp.close();

    const rows = await database.db.select().from(emails);
    // Reclaimed only once the dead worker's last renewal had run out, each on a second attempt, each accepted once.
    for (const e of rows) expect(e).toMatchObject({ attempts: 2, errorMessage: null });
    for (const e of rows) expect(e.sentAt!.getTime()).toBeGreaterThanOrEqual(deadline);
    const counts = acceptedCounts(smtp.received.map((m) => m.messageId));
    expect(counts.size).toBe(TOTAL);
    for (const e of rows) expect(counts.get(e.headers['Message-ID']!), e.to).toBe(1);
    // The worker's start, and the default lease (12 s) waited out twice: once renewed, once run out.
  }, 150_000);

  it('never lets two workers send the same message', async () => {
    await database.db.delete(emails);
    const TOTAL = 300;
    const smtp = await startTestSmtp();
    await enqueueMany(database, TOTAL);
    const second = await openDatabase({ kind: 'postgres', url, poolSize: 4 }, quietLogger());
    const transports = [createSmtpTransport(smtp.url), createSmtpTransport(smtp.url)];
    const workers = [database, second].map((db, i) =>
      createEmailWorker({ db: db.db, transport: transports[i]!, logger: quietLogger(), batchSize: 10, concurrency: 4, pollMs: 50 }),
    );
    await Promise.all(workers.map((w) => w.start()));
    await expect
      .poll(async () => (await database.db.select().from(emails)).filter((e) => e.status === 'sent').length, { timeout: 30_000 })
      .toBe(TOTAL);
    await Promise.all(workers.map((w) => w.stop()));
    for (const t of transports) await t.close();
    await second.close();
    await smtp.close();

    const counts = acceptedCounts(smtp.received.map((m) => m.messageId));
    expect(smtp.received).toHaveLength(TOTAL);
    expect([...counts.values()].every((n) => n === 1)).toBe(true);
    expect(workers.every((w) => w.stats.sent > 0)).toBe(true);
  });

  it('stops gracefully (exit 0) on a SIGTERM at any moment of its start', async () => {
    const smtp = await startTestSmtp();
    try {
      for (const delay of [0, 300, 1500]) {
        // Timed from the moment the process asks for worker-run.ts, the start after the signal handlers.
        const child = spawn(process.execPath, ['--import', RECORDER, WORKER], {
          cwd: ROOT,
          env: {
            PATH: process.env.PATH ?? '',
            CONTENT_DIR,
            LOG_LEVEL: 'silent',
            DATABASE_URL: url,
            SMTP_URL: smtp.url,
            ANNOUNCE_RESOLVED: '/functions/worker-run.ts',
          },
          stdio: ['ignore', 'pipe', 'pipe'],
        });
        let stdout = '';
        let stderr = '';
        child.stdout.on('data', (d) => (stdout += d));
        child.stderr.on('data', (d) => (stderr += d));
        const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
          child.once('exit', (code, signal) => resolve({ code, signal })),
        );
        await expect
          .poll(() => stderr.includes('resolved ') || child.exitCode !== null, { timeout: WORKER_START_MS, interval: 2 })
          .toBe(true);
        await new Promise((r) => setTimeout(r, delay));
        child.kill('SIGTERM');
        expect(await exited, `SIGTERM ${delay} ms after worker-run.ts was asked for:\n${stderr}`).toEqual({ code: 0, signal: null });
        if (delay === 0) expect(stdout).not.toContain('started');
      }
    } finally {
      await smtp.close();
    }
  }, 120_000);
});
