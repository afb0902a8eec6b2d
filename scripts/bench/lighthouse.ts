/**
 * Lighthouse budgets of the marketing site: the `lighthouse` package driving Debian's Chromium with
 * its default mobile settings (simulated slow 4G, 4x CPU slowdown, phone screen) against the real
 * server on a fresh build. Budgets: performance >= 95, accessibility, best practices and SEO 100.
 * Performance is the median of several runs (Lighthouse varies a little from run to run).
 *
 * Run with `npm run bench` (section "lighthouse"), or alone: `node scripts/bench/lighthouse.ts
 * [--runs=3] [--pages=/community,/events]`, which builds the site into .tmp/bench/lighthouse-dist first.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import * as chromeLauncher from 'chrome-launcher';
import lighthouse from 'lighthouse';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../../tests/support/chromium.ts';

const root = path.resolve(import.meta.dirname, '../..');

/** A thread of the demo `general` category (its id is made when the server seeds it): resolved through the API. */
const GENERAL_THREAD = '/community/threads/{a general thread}';

/** The address of a listed page on the running server. */
async function pathOf(page: string, url: string): Promise<string> {
  if (page !== GENERAL_THREAD) return page;
  const res = await fetch(`${url}/api/community/threads?category=general`);
  const { items } = (await res.json()) as { items: { id: string }[] };
  if (!items[0]) throw new Error('no thread in the demo general category');
  return `/community/threads/${items[0].id}`;
}

export const LIGHTHOUSE_PAGES = [
  '/',
  '/services/seo-optimization',
  '/pricing',
  '/events',
  '/events/premium-growth-strategy-workshop',
  '/newsletter',
  '/newsletter/email-that-sells',
  '/community',
  GENERAL_THREAD,
];
export const LIGHTHOUSE_BUDGETS = { performance: 95, accessibility: 100, 'best-practices': 100, seo: 100 } as const;
type Category = keyof typeof LIGHTHOUSE_BUDGETS;
const CATEGORIES = Object.keys(LIGHTHOUSE_BUDGETS) as Category[];
const CHROME_FLAGS = CHROMIUM_ARGS;
const METRICS = ['first-contentful-paint', 'largest-contentful-paint', 'total-blocking-time', 'cumulative-layout-shift', 'speed-index'];

export interface LighthouseOptions {
  /** A complete site build (dist folder with client/ and server/). */
  distDir: string;
  /** Runs per page; performance is their median. Default 3. */
  runs?: number;
  /** Only these of LIGHTHOUSE_PAGES (default all). */
  pages?: string[];
}

function startServer(distDir: string, dataDir: string): Promise<{ url: string; child: ChildProcess }> {
  const env = { ...process.env, PORT: '0', DATA_DIR: dataDir, DIST_DIR: distDir, LOG_LEVEL: 'warn' };
  const child = spawn(process.execPath, ['functions/server.ts'], { cwd: root, env, stdio: ['ignore', 'pipe', 'inherit'] });
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (d) => {
      out += d;
      const url = /running at (http:\/\/[\d.:a-z]+)/.exec(out)?.[1];
      if (url) resolve({ url, child });
    });
    child.on('exit', (code) => reject(new Error(`server exited with ${code}:\n${out}`)));
  });
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

type Report = NonNullable<Awaited<ReturnType<typeof lighthouse>>>['lhr'];

/** One Lighthouse run; a run whose trace recording fails (it happens now and then) is retried. */
async function audit(url: string, port: number, attempts = 3): Promise<Report> {
  const result = await lighthouse(url, { port, output: 'json', logLevel: 'error', onlyCategories: CATEGORIES });
  const problem = !result ? 'no result' : result.lhr.runtimeError?.message;
  if (!problem) return result!.lhr;
  if (attempts > 1) return audit(url, port, attempts - 1);
  throw new Error(`${url}: ${problem}`);
}

/** Audits that cost points in a category, for the table's notes. */
function losses(lhr: Report, category: Category): string[] {
  return lhr.categories[category]!.auditRefs.filter((ref) => ref.weight > 0 && (lhr.audits[ref.id]?.score ?? 1) < 1).map(
    (ref) => `${ref.id} (${lhr.audits[ref.id]!.displayValue ?? lhr.audits[ref.id]!.score})`,
  );
}

/** Runs the audits and prints a table against the budgets; returns whether every budget holds. */
export async function lighthouseBench({ distDir, runs = 3, pages = LIGHTHOUSE_PAGES }: LighthouseOptions): Promise<boolean> {
  console.log(`\n## Lighthouse, mobile (median performance of ${runs} runs)\n`);
  const dataDir = path.join(root, '.tmp', 'bench', 'lighthouse-data');
  rmSync(dataDir, { recursive: true, force: true });
  const server = await startServer(distDir, dataDir);
  const chrome = await chromeLauncher.launch({ chromePath: CHROMIUM_PATH, chromeFlags: CHROME_FLAGS });
  let pass = true;
  const notes: string[] = [];
  try {
    console.log('| page | performance | accessibility | best practices | SEO | FCP | LCP | TBT | CLS | SI |');
    console.log('|---|---|---|---|---|---|---|---|---|---|');
    for (const page of pages) {
      const address = await pathOf(page, server.url);
      const reports: Report[] = [];
      for (let i = 0; i < runs; i++) reports.push(await audit(`${server.url}${address}`, chrome.port));
      const perf = reports.map((r) => Math.round((r.categories.performance!.score ?? 0) * 100));
      const mid = reports[perf.indexOf(median(perf))]!;
      const score = (c: Category) => (c === 'performance' ? median(perf) : Math.round((mid.categories[c]!.score ?? 0) * 100));
      const cells = CATEGORIES.map((c) => {
        const ok = score(c) >= LIGHTHOUSE_BUDGETS[c];
        pass &&= ok;
        if (!ok) notes.push(`${page} ${c}: ${losses(mid, c).join(', ')}`);
        return `${score(c)} ${ok ? '✓' : `✗ (budget ${LIGHTHOUSE_BUDGETS[c]})`}`;
      });
      const metrics = METRICS.map((m) => mid.audits[m]?.displayValue ?? '-');
      console.log(`| ${page} | ${cells.join(' | ')} | ${metrics.join(' | ')} |`);
    }
  } finally {
    await chrome.kill();
    server.child.kill('SIGTERM');
  }
  for (const note of notes) console.log(`- ${note}`);
  console.log(`\nBudgets (performance >= 95, accessibility, best practices, SEO 100): ${pass ? 'PASS' : 'FAIL'}`);
  return pass;
}

if (import.meta.filename === path.resolve(process.argv[1] ?? '')) {
  const args = new Map(process.argv.slice(2).map((a) => a.replace(/^--/, '').split('=') as [string, string]));
  const distDir = path.join(root, '.tmp', 'bench', 'lighthouse-dist');
  mkdirSync(path.dirname(distDir), { recursive: true });
  console.log('Building the site...');
  const built = spawnSync('npx', ['astro', 'build'], {
    cwd: root,
    stdio: ['ignore', 'ignore', 'inherit'],
    env: {
      ...process.env,
      DIST_DIR: distDir,
      DATA_DIR: path.join(root, '.tmp', 'bench', 'build-data'),
      LOG_LEVEL: 'warn',
      ASTRO_TELEMETRY_DISABLED: '1',
    },
  });
  if (built.status !== 0) throw new Error('build failed');
  const only = args.get('pages')?.split(',');
  const ok = await lighthouseBench({ distDir, runs: Number(args.get('runs') ?? 3), ...(only ? { pages: only } : {}) });
  process.exitCode = ok ? 0 : 1;
}
