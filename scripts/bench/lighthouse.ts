/**
 * Lighthouse budgets of the site: the `lighthouse` package driving Debian's Chromium with its default
 * mobile settings (simulated slow 4G, 4x CPU slowdown, phone screen) against the real server on a
 * fresh build. Budgets: performance >= 95, accessibility, best practices and SEO 100. Performance is
 * the median of several runs (Lighthouse varies a little from run to run). Public pages are audited
 * as a visitor; then the premium demo member signs in and their pages are audited with the session
 * (lighthouse-members.ts).
 *
 * Run with `npm run bench` (section "lighthouse"), or alone: `node scripts/bench/lighthouse.ts
 * [--runs=3] [--pages=/community,/account] [--save=folder]`, which builds the site into .tmp/bench/lighthouse-dist first.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import * as chromeLauncher from 'chrome-launcher';
import lighthouse from 'lighthouse';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../../tests/support/chromium.ts';
import { MEMBER_PAGES, PRIVATE_PAGES, prepareMemberPages, signInInBrowser } from './lighthouse-members.ts';

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
  '/search',
  '/search?q=local+seo',
  ...MEMBER_PAGES,
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
  /** A folder to write every run's full report to (JSON, for its traces' long tasks and script costs). */
  save?: string;
}

/**
 * The server, at the lowest CPU priority: on a phone the page's thread shares its cores with no
 * server. On this two-core machine the server's answers (PGlite runs on its thread) preempted the
 * browser's page thread and lengthened the tasks Lighthouse scales fourfold into its blocking time:
 * the same page's TBT moved between 150 and 960 ms from run to run.
 */
function startServer(distDir: string, dataDir: string): Promise<{ url: string; child: ChildProcess }> {
  const env = { ...process.env, PORT: '0', DATA_DIR: dataDir, DIST_DIR: distDir, LOG_LEVEL: 'warn' };
  // Through nice(1), so every thread of the server (V8's, libuv's, its workers') starts at that priority.
  const child = spawn('nice', ['-n', '19', process.execPath, 'functions/server.ts'], {
    cwd: root,
    env,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
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

/**
 * What Lighthouse clears before each run. Its default clears the HTTP cache and these (not
 * localStorage), so a member's session, which supabase-js keeps in localStorage, survives every run
 * of the member pages while each run still starts with a cold cache; a visitor's page clears
 * localStorage too, so it is never audited signed in.
 */
const MEMBER_CLEARS = ['file_systems', 'shader_cache', 'service_workers', 'cache_storage'] as const;
const VISITOR_CLEARS = [...MEMBER_CLEARS, 'local_storage'] as const;

/** One Lighthouse run; a run whose trace recording fails (it happens now and then) is retried. */
async function audit(url: string, port: number, signedIn: boolean, attempts = 3): Promise<Report> {
  const clearStorageTypes = [...(signedIn ? MEMBER_CLEARS : VISITOR_CLEARS)];
  const result = await lighthouse(url, { port, output: 'json', logLevel: 'error', onlyCategories: CATEGORIES, clearStorageTypes });
  const problem = !result ? 'no result' : result.lhr.runtimeError?.message;
  if (!problem) return result!.lhr;
  if (attempts > 1) return audit(url, port, signedIn, attempts - 1);
  throw new Error(`${url}: ${problem}`);
}

/** Audits that cost points in a category, for the table's notes. */
function losses(lhr: Report, category: Category): string[] {
  return lhr.categories[category]!.auditRefs.filter((ref) => ref.weight > 0 && (lhr.audits[ref.id]?.score ?? 1) < 1).map(
    (ref) => `${ref.id} (${lhr.audits[ref.id]!.displayValue ?? lhr.audits[ref.id]!.score})`,
  );
}

/** Where each layout shift of a run happened (the element that moved most, and its score). */
function shifts(lhr: Report): string {
  const items = (lhr.audits['layout-shifts']?.details as { items?: { node?: { selector?: string }; score: number }[] } | undefined)?.items;
  return (items ?? []).map((i) => `${i.node?.selector ?? '?'} ${i.score.toFixed(3)}`).join('; ');
}

/**
 * A category's score without some audits, weighted as Lighthouse weighs it. The member's own pages'
 * SEO leaves out `is-crawlable`: they are `noindex` on purpose (nothing there is for a search
 * engine), which that audit always fails.
 */
function scoreWithout(lhr: Report, category: Category, skip: readonly string[]): number {
  const refs = lhr.categories[category]!.auditRefs.filter((ref) => ref.weight > 0 && !skip.includes(ref.id));
  const weight = refs.reduce((sum, ref) => sum + ref.weight, 0);
  return refs.reduce((sum, ref) => sum + ref.weight * (lhr.audits[ref.id]?.score ?? 0), 0) / weight;
}

/** A page's row of the table (medians of its runs) and notes on what cost points. */
function pageRow(page: string, reports: Report[]): { row: string; pass: boolean; notes: string[] } {
  const perf = reports.map((r) => Math.round((r.categories.performance!.score ?? 0) * 100));
  const mid = reports[perf.indexOf(median(perf))]!;
  const skip = PRIVATE_PAGES.includes(page) ? ['is-crawlable'] : [];
  const score = (c: Category) => (c === 'performance' ? median(perf) : Math.round(scoreWithout(mid, c, c === 'seo' ? skip : []) * 100));
  let pass = true;
  const notes: string[] = [];
  const cells = CATEGORIES.map((c) => {
    const ok = score(c) >= LIGHTHOUSE_BUDGETS[c];
    pass &&= ok;
    if (!ok) notes.push(`${page} ${c}: ${losses(mid, c).join(', ')}`);
    return `${score(c)} ${ok ? '✓' : `✗ (budget ${LIGHTHOUSE_BUDGETS[c]})`}`;
  });
  // CLS is the median of the runs too (with each run's figure), since layout shifts are what the member pages are watched for.
  const cls = reports.map((r) => r.audits['cumulative-layout-shift']?.numericValue ?? 0);
  const metrics = METRICS.map((m) =>
    m === 'cumulative-layout-shift'
      ? `${median(cls).toFixed(3)} (${cls.map((v) => v.toFixed(3)).join(', ')})`
      : (mid.audits[m]?.displayValue ?? '-'),
  );
  if (median(cls) > 0) notes.push(`${page} layout shifts: ${shifts(mid)}`);
  return { row: `| ${page} | ${cells.join(' | ')} | ${metrics.join(' | ')} |`, pass, notes };
}

/** Runs the audits and prints a table against the budgets; returns whether every budget holds. */
export async function lighthouseBench({ distDir, runs = 3, pages = LIGHTHOUSE_PAGES, save }: LighthouseOptions): Promise<boolean> {
  console.log(`\n## Lighthouse, mobile (median performance and CLS of ${runs} runs)\n`);
  const dataDir = path.join(root, '.tmp', 'bench', 'lighthouse-data');
  rmSync(dataDir, { recursive: true, force: true });
  const server = await startServer(distDir, dataDir);
  const chrome = await chromeLauncher.launch({ chromePath: CHROMIUM_PATH, chromeFlags: CHROME_FLAGS });
  let pass = true;
  const notes: string[] = [];
  try {
    console.log('| page | performance | accessibility | best practices | SEO | FCP | LCP | TBT | CLS (runs) | SI |');
    console.log('|---|---|---|---|---|---|---|---|---|---|');
    // Visitors' pages first: the member signs in after them.
    const signedIn = (page: string) => MEMBER_PAGES.includes(page);
    let memberPaths: Map<string, string> | undefined;
    for (const page of [...pages.filter((p) => !signedIn(p)), ...pages.filter(signedIn)]) {
      if (signedIn(page) && !memberPaths) {
        memberPaths = await prepareMemberPages(server.url);
        await signInInBrowser(chrome.port, server.url);
      }
      const address = memberPaths?.get(page) ?? (await pathOf(page, server.url));
      const reports: Report[] = [];
      for (let i = 0; i < runs; i++) reports.push(await audit(`${server.url}${address}`, chrome.port, signedIn(page)));
      if (save) {
        mkdirSync(save, { recursive: true });
        const name = page.replace(/[^a-z0-9]+/gi, '-').replace(/^-|-$/g, '') || 'home';
        reports.forEach((report, i) => writeFileSync(path.join(save, `${name}.${i + 1}.json`), JSON.stringify(report)));
      }
      const result = pageRow(page, reports);
      pass &&= result.pass;
      notes.push(...result.notes);
      console.log(result.row);
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
  const save = args.get('save');
  const ok = await lighthouseBench({
    distDir,
    runs: Number(args.get('runs') ?? 3),
    ...(only ? { pages: only } : {}),
    ...(save ? { save } : {}),
  });
  process.exitCode = ok ? 0 : 1;
}
