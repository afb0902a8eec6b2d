/**
 * Uploads budget, against the API in its own process (embedded PGlite, local-disk storage):
 *  - a 20 MB upload streamed to storage: the server's peak RSS growth during the upload (sampled in
 *    the server every 2 ms after a garbage collection) must stay under 10 MB, for the first upload
 *    into a fresh server and five more (median and spread);
 *  - uploads per second: ten 20 MB uploads one after another, and 200 uploads of 100 kB with 8 in flight.
 */
import { randomBytes } from 'node:crypto';
import { readFileSync, rmSync } from 'node:fs';
import path from 'node:path';

type StartChild = (
  script: string,
  env: Record<string, string>,
) => Promise<{ url: string; child: { kill(signal?: NodeJS.Signals): boolean } }>;

const MB = 1024 * 1024;
const RUNS = 5;
/** A 1x1 PNG: the head the server sniffs; the rest of the file is padding. */
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==', 'base64');

/** A multipart body with one PNG `file` of `size` bytes, sent in 64 kB chunks (the client never holds the whole body in one piece). */
function uploadBody(size: number) {
  const boundary = `----bench${randomBytes(8).toString('hex')}`;
  const head = Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="bench.png"\r\nContent-Type: image/png\r\n\r\n`,
  );
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  const padding = randomBytes(64 * 1024);
  const length = head.length + size + tail.length;
  let sent = PNG.length;
  const stream = new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(head);
      controller.enqueue(PNG);
    },
    pull(controller) {
      const left = size - sent;
      if (left <= 0) {
        controller.enqueue(tail);
        controller.close();
        return;
      }
      const n = Math.min(left, padding.length);
      controller.enqueue(padding.subarray(0, n));
      sent += n;
    },
  });
  return { stream, length, contentType: `multipart/form-data; boundary=${boundary}` };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const mb = (bytes: number) => `${(bytes / MB).toFixed(1)} MB`;

export async function uploadsBench(tmp: string, startChild: StartChild) {
  console.log('\n## Uploads: a 20 MB upload streamed to local storage (server memory), uploads per second\n');
  const dataDir = path.join(tmp, 'uploads-data');
  const tokensFile = path.join(tmp, 'uploads-editor.json');
  rmSync(dataDir, { recursive: true, force: true });
  const server = await startChild('scripts/bench/uploads-server.ts', {
    PORT: '0',
    DATA_DIR: dataDir,
    LOG_LEVEL: 'warn',
    EMAIL_WORKER: 'false',
    AUTH_SEED_DEMO: 'false',
    AUTH_BCRYPT_COST: '4',
    BENCH_TOKENS_FILE: tokensFile,
    NODE_OPTIONS: `${process.env.NODE_OPTIONS ?? ''} --expose-gc`.trim(),
  });
  try {
    const { token, probe } = JSON.parse(readFileSync(tokensFile, 'utf8')) as { token: string; probe: string };
    const upload = async (size: number) => {
      const { stream, length, contentType } = uploadBody(size);
      const res = await fetch(`${server.url}/api/upload`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': contentType, 'content-length': String(length) },
        body: stream,
        duplex: 'half',
      } as RequestInit);
      if (res.status !== 201) throw new Error(`upload answered ${res.status}: ${await res.text()}`);
      return ((await res.json()) as { url: string }).url;
    };

    // The first upload into a fresh process (pools and code paths warm up), then warm runs.
    await fetch(`${probe}/reset`, { method: 'POST' });
    await upload(20 * MB);
    const cold = (await (await fetch(`${probe}/report`)).json()) as { rssPeakGrowth: number; heapGrowth: number };
    console.log(
      `First 20 MB upload in a fresh server: peak RSS growth ${mb(cold.rssPeakGrowth)}, heap growth after gc ${mb(cold.heapGrowth)}`,
    );
    const growth: number[] = [cold.rssPeakGrowth];
    const heap: number[] = [];
    const seconds: number[] = [];
    let gcExposed = false;
    for (let run = 0; run < RUNS; run++) {
      await fetch(`${probe}/reset`, { method: 'POST' });
      const started = performance.now();
      await upload(20 * MB);
      seconds.push((performance.now() - started) / 1000);
      const report = (await (await fetch(`${probe}/report`)).json()) as { rssPeakGrowth: number; heapGrowth: number; gcExposed: boolean };
      growth.push(report.rssPeakGrowth);
      heap.push(report.heapGrowth);
      gcExposed = report.gcExposed;
    }
    console.log(`20 MB upload, ${RUNS} warm runs (gc before each: ${gcExposed ? 'yes' : 'no'}):`);
    const warm = growth.slice(1);
    console.log(`  server peak RSS growth: median ${mb(median(warm))} (min ${mb(Math.min(...warm))}, max ${mb(Math.max(...warm))})`);
    console.log(`  server heap growth after gc: median ${mb(median(heap))} (min ${mb(Math.min(...heap))}, max ${mb(Math.max(...heap))})`);
    console.log(`  time per upload: median ${median(seconds).toFixed(3)} s (${(20 / median(seconds)).toFixed(0)} MB/s)`);

    let started = performance.now();
    for (let i = 0; i < 10; i++) await upload(20 * MB);
    const bigRate = 10 / ((performance.now() - started) / 1000);
    started = performance.now();
    let next = 0;
    await Promise.all(
      Array.from({ length: 8 }, async () => {
        while (next < 200) {
          next += 1;
          await upload(100 * 1024);
        }
      }),
    );
    const smallRate = 200 / ((performance.now() - started) / 1000);
    console.log(`Uploads per second: ${bigRate.toFixed(1)}/s of 20 MB (one at a time), ${smallRate.toFixed(0)}/s of 100 kB (8 in flight)`);
    const worst = Math.max(...growth);
    console.log(
      `\nServer memory growth for a 20 MB upload under 10 MB (worst of ${growth.length}, the first included: ${mb(worst)}): ${worst < 10 * MB ? 'PASS' : 'FAIL'}`,
    );
  } finally {
    server.child.kill('SIGTERM');
    rmSync(dataDir, { recursive: true, force: true });
  }
}
