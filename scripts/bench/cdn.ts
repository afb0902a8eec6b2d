/**
 * `npm run bench -- --only=cdn`: Debian's nginx with `proxy_cache` (tests/support/nginx.ts, standing
 * in for a CDN that honours Cache-Control) in front of one server process on the sample build. Anonymous
 * visitors load pages and lists through it for the run's duration (home, the four lists and their
 * public API answers, a prebuilt page, a detail page, the sitemap); printed: requests, failures, the
 * share served from the cache's store (nginx's X-Cache-Status HIT, STALE or UPDATING; goal >= 95%)
 * and the requests the origin itself answered (its access log, background refreshes included). Once
 * with the default staleness bound (60 s) and once with 4 s, so copies expire and are refreshed
 * several times during the run.
 */
import { spawn } from 'node:child_process';
import { closeSync, mkdirSync, openSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { startNginx } from '../../tests/support/nginx.ts';
import { freePort } from '../../tests/support/postgres.ts';

const root = path.resolve(import.meta.dirname, '../..');
const URLS = [
  '/',
  '/blog',
  '/courses',
  '/tools',
  '/market',
  '/api/public/blogs',
  '/api/public/courses',
  '/api/public/tools',
  '/api/public/market',
  '/about',
  '/blog/pillar-pages-that-rank',
  '/sitemap.xml',
];
const CONCURRENCY = 32;
const FROM_CACHE = new Set(['HIT', 'STALE', 'UPDATING']);

interface Outcome {
  requests: number;
  failures: number;
  fromCache: number;
  byStatus: Map<string, number>;
  originRequests: number;
}

/** Requests the origin logged (access lines) in its log file. */
const accessLines = (file: string) => (readFileSync(file, 'utf8').match(/"msg":"request"/g) ?? []).length;

async function run(distDir: string, tmp: string, seconds: number, bound: number): Promise<Outcome> {
  const dataDir = path.join(tmp, `cdn-data-${bound}`);
  rmSync(dataDir, { recursive: true, force: true });
  mkdirSync(dataDir, { recursive: true });
  const [port, cdnPort] = [await freePort(), await freePort()];
  const logFile = path.join(tmp, `cdn-origin-${bound}.log`);
  const out = openSync(logFile, 'w');
  const child = spawn(process.execPath, ['functions/server.ts'], {
    cwd: root,
    env: {
      ...process.env,
      PORT: String(port),
      SITE_URL: `http://127.0.0.1:${cdnPort}`,
      TRUST_PROXY: '1',
      DATA_DIR: dataDir,
      DIST_DIR: distDir,
      LOG_LEVEL: 'info',
      EMAIL_WORKER: 'false',
      STRIPE_SECRET_KEY: '',
      PAYMENTS: 'test',
      CDN_STALENESS_SECONDS: String(bound),
    },
    stdio: ['ignore', out, 'inherit'],
  });
  closeSync(out);
  const origin = `http://127.0.0.1:${port}`;
  for (let waited = 0; ; waited += 100) {
    if (
      (await fetch(`${origin}/readyz`).then(
        (r) => r.status,
        () => 0,
      )) === 200
    )
      break;
    if (child.exitCode !== null || waited > 60_000) throw new Error(`the origin did not start:\n${readFileSync(logFile, 'utf8')}`);
    await new Promise((r) => setTimeout(r, 100));
  }
  const cdn = await startNginx({ upstreams: [`127.0.0.1:${port}`], cache: true, port: cdnPort });
  try {
    await new Promise((r) => setTimeout(r, 500)); // the start-up lines reach the log
    const before = accessLines(logFile);
    const outcome: Outcome = { requests: 0, failures: 0, fromCache: 0, byStatus: new Map(), originRequests: 0 };
    const until = performance.now() + seconds * 1000;
    let next = 0;
    const visitor = async () => {
      while (performance.now() < until) {
        const url = URLS[next++ % URLS.length]!;
        try {
          const res = await fetch(`${cdn.url}${url}`, { headers: { 'accept-encoding': 'br, gzip' } });
          await res.arrayBuffer();
          const status = res.headers.get('x-cache-status') ?? 'none';
          outcome.byStatus.set(status, (outcome.byStatus.get(status) ?? 0) + 1);
          if (FROM_CACHE.has(status)) outcome.fromCache++;
          if (res.status !== 200) outcome.failures++;
        } catch {
          outcome.failures++;
        }
        outcome.requests++;
      }
    };
    await Promise.all(Array.from({ length: CONCURRENCY }, visitor));
    await new Promise((r) => setTimeout(r, 600)); // the access log flushes every 250 ms
    outcome.originRequests = accessLines(logFile) - before;
    return outcome;
  } finally {
    await cdn.stop();
    child.kill('SIGTERM');
    await new Promise((r) => child.once('exit', r));
  }
}

export async function cdnBench(distDir: string, tmp: string, seconds: number): Promise<void> {
  console.log(
    `\n## A CDN in front: nginx proxy_cache before one instance, ${CONCURRENCY} anonymous visitors for ${seconds} s on ${URLS.length} pages and lists\n`,
  );
  console.log('| staleness bound | requests | req/s | failures | from the cache | origin requests | cache statuses | goal >= 95% |');
  console.log('|---|---|---|---|---|---|---|---|');
  for (const bound of [60, 4]) {
    const o = await run(distDir, tmp, seconds, bound);
    const share = o.fromCache / o.requests;
    const statuses = [...o.byStatus].map(([k, v]) => `${k} ${v}`).join(', ');
    console.log(
      `| ${bound} s | ${o.requests} | ${Math.round(o.requests / seconds)} | ${o.failures} | ${(share * 100).toFixed(2)}% | ${o.originRequests} | ${statuses} | ${share >= 0.95 && o.failures === 0 ? 'PASS' : 'FAIL'} |`,
    );
  }
}
