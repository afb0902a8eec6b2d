/**
 * `npm run bench -- --only=function`: the app as a serverless function (issue 33's budgets).
 *  1. Size: netlify/functions/api.ts built as it ships (scripts/bundle.ts, bundleFunctions: its own
 *     folder under dist/functions, as `npm run build:netlify` makes it), with the files it reads (content, migrations, the content
 *     index) and the node_modules it loads (traced): zipped, each file deflated as a zip stores it.
 *     Budget: under 15 MB.
 *  2. Cold start: five times, a fresh Node process imports the built function and answers
 *     GET /api/public/blogs over a Postgres pool; spawn to the answer's first byte. Budget: < 800 ms median.
 *  3. Warm: the function behind a bare node:http adapter (@hono/node-server's request listener, as a
 *     platform's runtime hands it requests) against the Node server of the same bundle on the same
 *     database, for GET /api/public/blogs and a premium member's gated body: wrk, alternating which
 *     goes first each round. Budget: the function at >= 0.5x the server.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { deflateRawSync } from 'node:zlib';
import { nodeFileTrace } from '@vercel/nft';
import { openDatabase } from '../../functions/platform/db/client.ts';
import { createLogger } from '../../functions/platform/logger.ts';
import { createTestDatabase, startPostgres } from '../../tests/support/postgres.ts';
import { bundleFunctions, FUNCTIONS_DIR } from '../bundle.ts';
import { ensureWrk, wrk, type LoadResult } from './wrk.ts';

const root = path.resolve(import.meta.dirname, '../..');
const STARTS = 5;
const BUDGET = { zippedMB: 15, coldMs: 800, warmRatio: 0.5 };
const PREMIUM_BODY = '/api/content/blogs/ecommerce-launch-first-90-days/body';

type StartChild = (script: string, env: Record<string, string>) => Promise<{ url: string; child: ChildProcess }>;

const sorted = (values: number[]) => [...values].sort((a, b) => a - b);
const median = (values: number[]) => sorted(values)[Math.floor(values.length / 2)]!;
const spread = (values: number[]) => `${Math.round(sorted(values)[0]!)}-${Math.round(sorted(values).at(-1)!)}`;

/** What a function instance is given: Postgres, and the outside services it requires (never reached here). */
function functionEnv(databaseUrl: string): Record<string, string> {
  return {
    DATABASE_URL: databaseUrl,
    SMTP_URL: 'smtp://127.0.0.1:9',
    S3_BUCKET: 'bench',
    S3_ENDPOINT: 'http://127.0.0.1:9',
    PAYMENTS: 'test',
    SITE_URL: 'https://bench.example',
    LOG_LEVEL: 'warn',
  };
}

/** Files under `dir`, relative to `base`. */
const filesUnder = (base: string, dir: string) =>
  readdirSync(path.join(base, dir), { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => path.relative(base, path.join(entry.parentPath, entry.name)));

/**
 * The function's files in `bundle` and their zipped size (deflate per file, plus zip's headers): the
 * modules its entry, the body renderer's thread and the site's server build load (traced, as
 * `npm run build:netlify` copies them), the content and its index, the migrations (checked, not
 * applied) and the site's build (the pages no CDN file answers).
 */
async function zippedSize(bundle: string, entry: string): Promise<{ files: number; bytes: number; zipped: number }> {
  const siteModules = filesUnder(bundle, 'dist/server')
    .filter((file) => file.endsWith('.mjs'))
    .map((file) => path.join(bundle, file));
  const { fileList } = await nodeFileTrace([entry, path.join(path.dirname(entry), 'render-worker.mjs'), ...siteModules], {
    base: bundle,
    processCwd: bundle,
  });
  const files = new Set([
    ...fileList,
    ...filesUnder(bundle, 'content'),
    ...filesUnder(bundle, 'functions/platform/db/migrations'),
    'functions/content/content-index.bin',
    ...filesUnder(bundle, 'dist').filter(
      (file) => !file.startsWith(`${FUNCTIONS_DIR}/`) || file.startsWith(path.relative(bundle, path.dirname(entry))),
    ),
  ]);
  let bytes = 0;
  let zipped = 0;
  for (const file of files) {
    const data = readFileSync(path.join(bundle, file));
    bytes += data.length;
    zipped += deflateRawSync(data).length + 76 + 2 * file.length;
  }
  return { files: files.size, bytes, zipped };
}

/** Bytes of the function's own bundled modules (its entry, chunks and thread). */
const functionCode = (entry: string) =>
  readdirSync(path.dirname(entry))
    .filter((name) => name.endsWith('.mjs'))
    .reduce((sum, name) => sum + statSync(path.join(path.dirname(entry), name)).size, 0);

/** One cold start: a new Node process imports the function and answers one request; spawn to first byte, in ms. */
async function coldStart(bundle: string, env: Record<string, string>): Promise<number> {
  const script = `const { default: handle } = await import('./${FUNCTIONS_DIR}/api/api.mjs');
const answer = await handle(new Request('https://bench.example/api/public/blogs'), { ip: '127.0.0.1', waitUntil() {} });
process.stdout.write('status ' + answer.status + '\\n');
await answer.arrayBuffer();
process.exit(0);`;
  const started = performance.now();
  const child = spawn(process.execPath, ['--input-type=module', '-e', script], { cwd: bundle, env: { PATH: process.env.PATH, ...env } });
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const status = /status (\d+)/.exec(out)?.[1];
      if (status === '200') resolve(performance.now() - started);
      else if (status) reject(new Error(`the function answered ${status}`));
    });
    child.stderr.on('data', (chunk: Buffer) => (out += chunk.toString()));
    child.once('exit', (code) => code !== 0 && reject(new Error(`the function exited with ${code}:\n${out}`)));
  });
}

/** The built function behind node:http, as a platform's runtime calls it; prints its URL. */
function adapterScript(tmp: string, entry: string): string {
  const file = path.join(tmp, 'function-server.ts');
  writeFileSync(
    file,
    `import { createServer } from 'node:http';
import { getRequestListener } from '@hono/node-server';
const { default: handle } = await import(${JSON.stringify(entry)});
const server = createServer(getRequestListener((request) => handle(request, { ip: '127.0.0.1', waitUntil() {} })));
server.listen(0, '127.0.0.1', () => console.log('function running at http://127.0.0.1:' + server.address().port));\n`,
  );
  return file;
}

async function signIn(url: string): Promise<string> {
  const answer = await fetch(`${url}/auth/v1/token?grant_type=password`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: 'premium@demo.beacongrowth.co', password: 'beacon-demo-2026' }),
  });
  if (answer.status !== 200) throw new Error(`sign-in failed: ${answer.status}`);
  return ((await answer.json()) as { access_token: string }).access_token;
}

async function warm(opts: {
  tmp: string;
  bundle: string;
  entry: string;
  databaseUrl: string;
  startChild: StartChild;
  seconds: number;
  rounds: number;
}) {
  const { startChild } = opts;
  // The server seeds the demo accounts; the function, like any function instance, seeds nothing.
  const server = await startChild(path.join(opts.bundle, 'server/server.mjs'), {
    PORT: '0',
    DATABASE_URL: opts.databaseUrl,
    DATA_DIR: path.join(opts.tmp, 'fn-server-data'),
    AUTH_SEED_DEMO: 'true',
    LOG_LEVEL: 'info',
  });
  const fn = await startChild(adapterScript(opts.tmp, opts.entry), { ...functionEnv(opts.databaseUrl), LOG_LEVEL: 'info' });
  try {
    const bin = ensureWrk();
    // Each side's own token (each is its own issuer: its SITE_URL).
    const tokens = new Map([server, fn].map((side) => [side.url, signIn(side.url)] as const));
    const bearer = async (url: string) => [`Authorization: Bearer ${await tokens.get(url)!}`];
    const targets = [
      { label: 'GET /api/public/blogs', path: '/api/public/blogs', headers: async () => [] as string[] },
      { label: 'gated body (premium member)', path: PREMIUM_BODY, headers: bearer },
    ];
    console.log(`\nWarm, through the handler (wrk, 1 thread, 50 connections, ${opts.seconds}s, ${opts.rounds} alternating rounds):\n`);
    console.log('| answer | round | Node server req/s | function req/s | ratio | errors (server / function) |\n|---|---|---|---|---|---|');
    const verdicts: string[] = [];
    for (const target of targets) {
      for (const url of [server.url, fn.url]) wrk(bin, `${url}${target.path}`, 3, await target.headers(url));
      const ratios: number[] = [];
      for (let round = 1; round <= opts.rounds; round += 1) {
        const order = round % 2 ? [server, fn] : [fn, server];
        const results = new Map<string, LoadResult>();
        for (const side of order)
          results.set(side.url, wrk(bin, `${side.url}${target.path}`, opts.seconds, await target.headers(side.url)));
        const [ours, theirs] = [results.get(fn.url)!, results.get(server.url)!];
        ratios.push(ours.rps / theirs.rps);
        console.log(
          `| ${target.label} | ${round} | ${Math.round(theirs.rps)} | ${Math.round(ours.rps)} | ${ratios.at(-1)!.toFixed(2)} | ${theirs.errors} / ${ours.errors} |`,
        );
      }
      const m = median(ratios);
      verdicts.push(
        `${target.label}: median ${m.toFixed(2)}x (spread ${(Math.max(...ratios) - Math.min(...ratios)).toFixed(2)}), budget >= ${BUDGET.warmRatio}x ${m >= BUDGET.warmRatio ? 'PASS' : 'FAIL'}`,
      );
    }
    console.log(`\n${verdicts.join('\n')}`);
  } finally {
    server.child.kill('SIGTERM');
    fn.child.kill('SIGTERM');
  }
}

export async function functionBench(tmp: string, distDir: string, startChild: StartChild, seconds: number, rounds: number): Promise<void> {
  const bundle = path.join(tmp, 'fn-bundle');
  const made = spawnSync(process.execPath, ['scripts/bundle.ts', '--dist', distDir, '--out', bundle], { cwd: root, stdio: 'ignore' });
  if (made.status !== 0) throw new Error('npm run bundle failed');
  const [entry] = (await bundleFunctions(path.join(bundle, FUNCTIONS_DIR))).filter((file) => file.endsWith('api.mjs'));
  console.log('\n## The app as a serverless function\n');
  const size = await zippedSize(bundle, entry!);
  console.log(
    `Function size: ${size.files} files, ${(size.bytes / 1e6).toFixed(1)} MB, zipped ${(size.zipped / 1e6).toFixed(1)} MB ` +
      `(its own modules ${(functionCode(entry!) / 1e6).toFixed(1)} MB); budget < ${BUDGET.zippedMB} MB ${size.zipped / 1e6 < BUDGET.zippedMB ? 'PASS' : 'FAIL'}`,
  );
  const postgres = await startPostgres();
  try {
    // One migrated database (the deploy's step), then the starts: an instance only checks the migrations.
    const databaseUrl = await createTestDatabase(postgres.adminUrl, 'function_bench');
    await (await openDatabase({ kind: 'postgres', url: databaseUrl, poolSize: 1 }, createLogger('silent'))).close();
    const starts: number[] = [];
    for (let i = 0; i < STARTS; i += 1) starts.push(await coldStart(bundle, functionEnv(databaseUrl)));
    console.log(
      `Cold start (a new Node process: import, start, GET /api/public/blogs on Postgres), median (spread) of ${STARTS}: ` +
        `${Math.round(median(starts))} ms (${spread(starts)}); budget < ${BUDGET.coldMs} ms ${median(starts) < BUDGET.coldMs ? 'PASS' : 'FAIL'}`,
    );
    await warm({ tmp, bundle, entry: entry!, databaseUrl, startChild, seconds, rounds });
  } finally {
    await postgres.stop();
    rmSync(bundle, { recursive: true, force: true });
  }
}
