/**
 * The newsletter bench's server: the product's API (no site) on the configured database, mail into the
 * embedded mailbox under DATA_DIR, one signed-in editor, and 10,000 generated recipients (premium and
 * subscriber members, whose plans include the newsletter, and confirmed list readers without an
 * account: three cuts). It writes the editor's token and the address of a probe to BENCH_TOKENS_FILE:
 * a second loopback listener answering POST /reset (collect garbage, start sampling RSS every 2 ms),
 * POST /deliver (start the outbox worker) and GET /report (the peak RSS growth since the reset, and
 * what is left after a collection).
 */
import { randomUUID } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { newsletterSubscribers } from '../../functions/newsletter/tables.ts';
import { profiles } from '../../functions/users/tables.ts';
import { benchMembers, startBenchApi } from './api-server.ts';

const RECIPIENTS = { premium: 4000, subscriber: 3000, list: 3000 };

const { services, ready } = await startBenchApi('newsletter', () => probe.close());
const [editor] = await benchMembers(services, 'newsletter', 1, 'editor');
const db = services.database.db;
const chunks = <T>(rows: T[], size = 1000) =>
  Array.from({ length: Math.ceil(rows.length / size) }, (_, i) => rows.slice(i * size, (i + 1) * size));
const members = (level: 'premium' | 'subscriber', n: number) =>
  Array.from({ length: n }, (_, i) => ({ id: randomUUID(), email: `${level}-${i}@newsletter.bench`, accessLevel: level }));
for (const rows of chunks([...members('premium', RECIPIENTS.premium), ...members('subscriber', RECIPIENTS.subscriber)]))
  await db.insert(profiles).values(rows);
const readers = Array.from({ length: RECIPIENTS.list }, (_, i) => ({
  email: `reader-${i}@newsletter.bench`,
  status: 'confirmed' as const,
}));
for (const rows of chunks(readers)) await db.insert(newsletterSubscribers).values(rows);

const collect = () => (globalThis as { gc?: () => void }).gc?.();
let before = process.memoryUsage();
let baseline = before.rss;
let peak = baseline;
let sampler: NodeJS.Timeout | undefined;
const probe = createServer((req, res) => {
  res.setHeader('content-type', 'application/json');
  if (req.method === 'POST' && req.url === '/reset') {
    collect();
    before = process.memoryUsage();
    baseline = before.rss;
    peak = baseline;
    clearInterval(sampler);
    sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage.rss())), 2);
    res.end('{}');
    return;
  }
  if (req.method === 'POST' && req.url === '/deliver') {
    void services.mail.worker.start().then(() => res.end('{}'));
    return;
  }
  peak = Math.max(peak, process.memoryUsage.rss());
  collect();
  const now = process.memoryUsage();
  res.end(
    JSON.stringify({
      rssPeakGrowth: peak - baseline,
      // What stays after a collection, and how much of it is the JavaScript heap (on PGlite, the rest is mostly the database's).
      rssGrowth: now.rss - before.rss,
      heapGrowth: now.heapUsed - before.heapUsed,
      gcExposed: typeof (globalThis as { gc?: unknown }).gc === 'function',
    }),
  );
});
await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
writeFileSync(
  process.env.BENCH_TOKENS_FILE!,
  JSON.stringify({ token: editor!.token, probe: `http://127.0.0.1:${(probe.address() as AddressInfo).port}` }),
);
ready();
