/**
 * Email budgets: outbox worker throughput to a loopback SMTP server over 5,000 messages (none lost,
 * none duplicated), and the latency that enqueueing adds inside a request's transaction. Runs on
 * embedded PGlite and on a real Postgres server started from the local binaries.
 */
import { fork } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { pino } from 'pino';
import { openDatabase, type Database } from '../../functions/platform/db/client.ts';
import { emails } from '../../functions/email/tables.ts';
import { createEmailService } from '../../functions/email/service.ts';
import { createSmtpTransport } from '../../functions/platform/mail/index.ts';
import { createEmailWorker } from '../../functions/email/worker.ts';
import { createTestDatabase, startPostgres } from '../../tests/support/postgres.ts';

const MESSAGES = 5000;
const logger = pino({ level: 'silent' });

/** The SMTP server runs in its own process, as a real one would, counting Message-IDs it accepts. */
function startSmtpProcess(tmp: string): Promise<{ url: string; stats(): Promise<{ accepted: number; unique: number }>; stop(): void }> {
  const file = path.join(tmp, 'smtp-sink.ts');
  writeFileSync(
    file,
    `import { startTestSmtp } from ${JSON.stringify(path.resolve(import.meta.dirname, '../../tests/support/smtp.ts'))};
const smtp = await startTestSmtp();
process.send!({ url: smtp.url });
process.on('message', () => {
  const ids = smtp.received.map((m) => m.messageId);
  process.send!({ accepted: ids.length, unique: new Set(ids).size });
});\n`,
  );
  const child = fork(file, { stdio: 'inherit' });
  return new Promise((resolve) => {
    child.once('message', (m: { url: string }) =>
      resolve({
        url: m.url,
        stats: () =>
          new Promise((r) => {
            child.once('message', r as never);
            child.send('stats');
          }),
        stop: () => child.kill(),
      }),
    );
  });
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

async function measureEnqueue(database: Database) {
  const outbox = createEmailService({
    db: database.db,
    from: 'Beacon Growth <hello@beacongrowth.co>',
    siteUrl: 'http://localhost:3000',
    maxAttempts: 6,
    logger,
  });
  const timings: number[] = [];
  for (let i = 0; i < MESSAGES; i++) {
    await database.db.transaction(async (tx) => {
      const started = performance.now();
      await outbox.enqueue(tx, {
        to: `reader${i}@example.com`,
        template: 'contact-acknowledgement',
        data: {},
      });
      timings.push(performance.now() - started);
    });
  }
  timings.sort((a, b) => a - b);
  return { p50: percentile(timings, 50), p99: percentile(timings, 99) };
}

async function run(label: string, database: Database, smtpUrl: string, stats: () => Promise<{ accepted: number; unique: number }>) {
  await database.db.delete(emails);
  const enqueue = await measureEnqueue(database);
  const transport = createSmtpTransport(smtpUrl, { maxConnections: 10 });
  const worker = createEmailWorker({ db: database.db, transport, logger, batchSize: 100, concurrency: 32, pollMs: 50 });
  const before = await stats();
  const started = performance.now();
  await worker.start();
  for (;;) {
    const rows = await database.db.select({ status: emails.status }).from(emails);
    if (rows.every((r) => r.status !== 'queued')) break;
    await new Promise((r) => setTimeout(r, 50));
  }
  const seconds = (performance.now() - started) / 1000;
  await worker.stop();
  await transport.close();
  const after = await stats();
  const rows = await database.db.select({ status: emails.status }).from(emails);
  const accepted = after.accepted - before.accepted;
  return {
    label,
    rate: MESSAGES / seconds,
    seconds,
    sent: rows.filter((r) => r.status === 'sent').length,
    accepted,
    duplicates: accepted - (after.unique - before.unique),
    enqueue,
  };
}

export async function emailBench(tmp: string): Promise<void> {
  console.log(`\n## Email outbox: ${MESSAGES} messages to a loopback SMTP server\n`);
  const smtp = await startSmtpProcess(tmp);
  const pgServer = await startPostgres();
  const results = [];
  try {
    const pglite = await openDatabase({ kind: 'pglite', dataDir: 'memory://' }, logger);
    results.push(await run('PGlite (embedded)', pglite, smtp.url, smtp.stats));
    await pglite.close();
    const url = await createTestDatabase(pgServer.adminUrl, 'bench_email');
    const postgres = await openDatabase({ kind: 'postgres', url, poolSize: 10 }, logger);
    results.push(await run('Postgres 15', postgres, smtp.url, smtp.stats));
    await postgres.close();
  } finally {
    smtp.stop();
    await pgServer.stop();
  }
  console.log('| database | emails/s | total | sent | accepted by SMTP | duplicates | enqueue p50 | enqueue p99 |');
  console.log('|---|---|---|---|---|---|---|---|');
  for (const r of results) {
    console.log(
      `| ${r.label} | ${Math.round(r.rate)} | ${r.seconds.toFixed(1)} s | ${r.sent} | ${r.accepted} | ${r.duplicates} | ${r.enqueue.p50.toFixed(2)} ms | ${r.enqueue.p99.toFixed(2)} ms |`,
    );
  }
  const ok = results.every(
    (r) => r.rate >= 100 && r.sent === MESSAGES && r.accepted === MESSAGES && r.duplicates === 0 && r.enqueue.p99 < 5,
  );
  console.log(`\nBudgets: >= 100 emails/s, none lost or duplicated, enqueue p99 < 5 ms: ${ok ? 'PASS' : 'FAIL'}`);
}
