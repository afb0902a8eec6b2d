/**
 * An issue's delivery survives a worker dying mid-send, on both databases: every copy reaches the
 * mail server exactly once and the account adds up at every moment (recipients = sent + failed +
 * suppressed + pending). On Postgres a real worker process is killed with SIGKILL while messages are
 * in flight, and a worker started afterwards reclaims its leases; PGlite is one process, so there the
 * rest of the issue is left claimed as a dead worker leaves it (a live one, however slow its sends,
 * renews its leases) until the leases expire.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEmailStore } from '../../functions/email/store.ts';
import { createEmailWorker } from '../../functions/email/worker.ts';
import { createRecordingTransport } from '../../functions/platform/mail/recording.ts';
import { createSmtpTransport } from '../../functions/platform/mail/index.ts';
import { openDatabase, type Database } from '../../functions/platform/db/client.ts';
import { newsletterSubscribers, newsletterSuppressions } from '../../functions/newsletter/tables.ts';
import { profiles } from '../../functions/users/tables.ts';
import { createTestApp, type TestApp } from '../support/app.ts';
import { pgAdminUrl } from '../support/databases.ts';
import { quietLogger } from '../support/fixtures.ts';
import { createTestDatabase } from '../support/postgres.ts';
import { startTestSmtp } from '../support/smtp.ts';
import { spawnWorker, WORKER_START_MS } from '../support/worker-process.ts';
const MEMBERS = 40;
const VISITORS = 30;
const SUPPRESSED = 2;
const MAILED = MEMBERS + VISITORS - SUPPRESSED;

/** An issue to premium members and the list, some list addresses suppressed; answers its id. */
async function sendIssue(t: TestApp, tag: string): Promise<string> {
  const db = t.database.db;
  await db.insert(profiles).values(
    Array.from({ length: MEMBERS }, (_, i) => ({
      id: randomUUID(),
      email: `member${i}-${tag}@crash.test`,
      accessLevel: 'premium' as const,
    })),
  );
  await db
    .insert(newsletterSubscribers)
    .values(Array.from({ length: VISITORS }, (_, i) => ({ email: `reader${i}-${tag}@crash.test`, status: 'confirmed' as const })));
  await db
    .insert(newsletterSuppressions)
    .values(Array.from({ length: SUPPRESSED }, (_, i) => ({ address: `reader${i}-${tag}@crash.test`, reason: 'bounced' })));
  const staff = { id: randomUUID(), email: `editor-${tag}@crash.test`, role: 'editor' as const, accessLevel: 'premium' as const };
  const { id } = await t.services.newsletterIssues.create(staff, {
    subject: 'Crash-proof notes',
    previewText: 'One copy each',
    body: 'Public.\n\n<!-- preview -->\n\nFor premium members.',
    accessLevel: 'premium',
    audience: ['newsletter', 'premium'],
  });
  await t.services.newsletterIssues.send(id);
  return id;
}

/** The issue's account, checked against the audience it must cover. */
async function account(t: TestApp, id: string) {
  const { stats } = await t.services.newsletterIssues.get(id);
  expect(stats.recipients).toBe(MEMBERS + VISITORS);
  expect(stats.sent + stats.failed + stats.suppressed + stats.pending).toBe(stats.recipients);
  expect(stats.suppressed).toBe(SUPPRESSED);
  return stats;
}

const counts = (values: string[]) => values.reduce((m, v) => m.set(v, (m.get(v) ?? 0) + 1), new Map<string, number>());

describe('a newsletter issue when a worker dies mid-send', () => {
  describe('on Postgres (a worker process killed with SIGKILL)', () => {
    let t: TestApp;
    let url: string;
    let database: Database;
    beforeAll(async () => {
      url = await createTestDatabase(pgAdminUrl(), 'newsletter_crash');
      database = await openDatabase({ kind: 'postgres', url, poolSize: 4 }, quietLogger());
      t = await createTestApp('postgres', database);
    });
    afterAll(async () => {
      await t?.close();
      await database?.close();
    });

    it('delivers each copy exactly once after a second worker takes over', async () => {
      const id = await sendIssue(t, 'pg');
      let releaseHeld!: () => void;
      const held = new Promise<void>((r) => (releaseHeld = r));
      let accepted = 0;
      const smtp = await startTestSmtp({ beforeAccept: () => (accepted++ < 20 ? Promise.resolve() : held) });
      const child = spawnWorker({ DATABASE_URL: url, SMTP_URL: smtp.url, EMAIL_LEASE_SECONDS: '2', EMAIL_CONCURRENCY: '8' });
      await expect.poll(async () => (await account(t, id)).sent === 20 && smtp.held() > 0, { timeout: WORKER_START_MS }).toBe(true);
      await child.kill();
      await expect.poll(() => smtp.openSessions()).toBe(0);
      releaseHeld();
      expect((await account(t, id)).pending).toBe(MAILED - 20);

      const transport = createSmtpTransport(smtp.url);
      const rescuer = createEmailWorker({ db: t.database.db, transport, logger: quietLogger(), pollMs: 100, concurrency: 8 });
      await rescuer.start();
      await expect.poll(async () => (await account(t, id)).pending, { timeout: 20_000 }).toBe(0);
      await rescuer.stop();
      await transport.close();
      await smtp.close();

      expect(await account(t, id)).toMatchObject({ sent: MAILED, failed: 0, pending: 0 });
      const perAddress = counts(smtp.received.flatMap((m) => m.to));
      expect(perAddress.size).toBe(MAILED);
      expect([...perAddress.values()].every((n) => n === 1)).toBe(true);
      await t.services.newsletterSender.tick();
      expect((await t.services.newsletterIssues.get(id)).status).toBe('sent');
    }, 120_000);
  });

  describe('on PGlite (a worker’s claims left as a dead one leaves them, to expire)', () => {
    let pglite: TestApp;
    beforeAll(async () => {
      pglite = await createTestApp('pglite');
    });
    afterAll(() => pglite?.close());

    it('delivers each copy exactly once after a second worker takes over', async () => {
      const id = await sendIssue(pglite, 'pglite');
      const first = createRecordingTransport();
      await createEmailWorker({ db: pglite.database.db, transport: first, logger: quietLogger(), batchSize: 20 }).runOnce();
      expect((await account(pglite, id)).sent).toBe(20);
      // The rest claimed by a worker that then died: an attempt counted, a one-second lease nobody renews, nothing recorded.
      expect(await createEmailStore(pglite.database.db).claim('dead-worker', MAILED, 1000)).toHaveLength(MAILED - 20);
      const live = createRecordingTransport();
      const rescuer = createEmailWorker({ db: pglite.database.db, transport: live, logger: quietLogger(), pollMs: 100, leaseMs: 60_000 });
      await rescuer.start();
      await expect.poll(async () => (await account(pglite, id)).pending, { timeout: 20_000 }).toBe(0);
      await rescuer.stop();
      const perAddress = counts([...first.sent, ...live.sent].map((m) => m.to));
      expect(perAddress.size).toBe(MAILED);
      expect([...perAddress.values()].every((n) => n === 1)).toBe(true);
      expect(await account(pglite, id)).toMatchObject({ sent: MAILED, failed: 0, pending: 0 });
    });
  });
});
