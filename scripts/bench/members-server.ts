/**
 * The members import bench's server: the product's API (no site) on the configured database, mail kept
 * in the outbox (EMAIL_WORKER=false), and one signed-in admin. It writes the admin's token and the
 * address of a probe to BENCH_TOKENS_FILE: a second loopback listener answering POST /reset (collect
 * garbage, take the baseline) and GET /report (the peak RSS growth since the reset, and what is left
 * after a collection), so the bench reads the server's memory from before a request to its answer.
 * RSS is sampled every 2 ms on a thread of its own: on PGlite the import's queries settle as microtasks
 * and can hold the main thread's timers off for seconds, which would miss the peak.
 */
import { writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { getHeapStatistics } from 'node:v8';
import { Worker } from 'node:worker_threads';
import { benchMembers, startBenchApi } from './api-server.ts';

const { services, ready } = await startBenchApi('members', () => probe.close());
const [admin] = await benchMembers(services, 'members', 1, 'admin');

const collect = () => (globalThis as { gc?: () => void }).gc?.();
let before = process.memoryUsage();
/** The highest RSS the sampling thread has seen since the last reset (it only raises it). */
const peak = new Float64Array(new SharedArrayBuffer(8));
const sampler = new Worker(
  `const peak = new Float64Array(require('node:worker_threads').workerData);
   setInterval(() => { const rss = process.memoryUsage.rss(); if (rss > peak[0]) peak[0] = rss; }, 2);`,
  { eval: true, workerData: peak.buffer },
);
sampler.unref();
const probe = createServer((req, res) => {
  res.setHeader('content-type', 'application/json');
  if (req.method === 'POST' && req.url === '/reset') {
    collect();
    before = process.memoryUsage();
    peak[0] = before.rss;
    res.end('{}');
    return;
  }
  const highest = Math.max(peak[0]!, process.memoryUsage.rss());
  collect();
  const now = process.memoryUsage();
  res.end(
    JSON.stringify({
      rssPeakGrowth: highest - before.rss,
      // What stays after a collection, and how much of it is the JavaScript heap (on PGlite, the rest is mostly the database's).
      rssGrowth: now.rss - before.rss,
      heapGrowth: now.heapUsed - before.heapUsed,
      gcExposed: typeof (globalThis as { gc?: unknown }).gc === 'function',
      // How far V8 lets the heap grow before it must collect (from the machine's memory): garbage counts in RSS until then.
      heapLimit: getHeapStatistics().heap_size_limit,
    }),
  );
});
await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
writeFileSync(
  process.env.BENCH_TOKENS_FILE!,
  JSON.stringify({ token: admin!.token, probe: `http://127.0.0.1:${(probe.address() as AddressInfo).port}` }),
);
ready();
