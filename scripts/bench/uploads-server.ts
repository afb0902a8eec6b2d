/**
 * The uploads bench's server: the product's API (no site) on embedded PGlite, local-disk storage
 * under DATA_DIR, one signed-in editor whose token it writes to BENCH_TOKENS_FILE with the address
 * of a memory probe: a second loopback listener in this process that answers `process.memoryUsage()`
 * figures. POST /reset collects garbage and starts sampling RSS every 2 ms; GET /report answers the
 * peak RSS growth since the reset and the heap growth left after another collection (run with --expose-gc, through NODE_OPTIONS).
 */
import { writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { benchMembers, startBenchApi } from './api-server.ts';

const { services, ready } = await startBenchApi('uploads', () => probe.close());
const [editor] = await benchMembers(services, 'uploads', 1, 'editor');

const collect = () => (globalThis as { gc?: () => void }).gc?.();
let baseline = process.memoryUsage();
let peakRss = baseline.rss;
let sampler: NodeJS.Timeout | undefined;
const probe = createServer((req, res) => {
  if (req.method === 'POST' && req.url === '/reset') {
    collect();
    baseline = process.memoryUsage();
    peakRss = baseline.rss;
    clearInterval(sampler);
    sampler = setInterval(() => (peakRss = Math.max(peakRss, process.memoryUsage.rss())), 2);
    res.end('{}');
    return;
  }
  clearInterval(sampler);
  peakRss = Math.max(peakRss, process.memoryUsage.rss());
  // What the upload left behind once its garbage is collected.
  collect();
  const now = process.memoryUsage();
  res.setHeader('content-type', 'application/json');
  res.end(
    JSON.stringify({
      rssPeakGrowth: peakRss - baseline.rss,
      heapGrowth: now.heapUsed - baseline.heapUsed,
      externalGrowth: now.external + now.arrayBuffers - (baseline.external + baseline.arrayBuffers),
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
