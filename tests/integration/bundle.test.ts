/**
 * The production bundle (`npm run bundle`), as a host runs it: made from the test build, copied
 * to an empty folder and started there with Node alone (`node server/server.mjs`, no npm, no
 * dev tooling) against Postgres and against PGlite with a fresh DATA_DIR. Pages, the public API,
 * sign-in, a gated body, a mailed message and /readyz answer; SIGTERM stops it cleanly, and its separate
 * mail worker (`node server/worker.mjs`) starts and stops the same way; nothing in
 * the bundle folder changes (it may be read-only); it holds no dev dependency and no test, stays
 * within its size budget, and still holds every adapter that is loaded only when configured.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { cpSync, existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { BUNDLE_COMMANDS } from '../../scripts/bundle.ts';
import type { SearchAnswer } from '#shared/search.ts';
import { DEMO_PASSWORD } from '../../functions/users/demo.ts';
import type { Api, Answer, SessionAnswer } from '../support/answers.ts';
import type { PublicItem } from '#shared/content/registry.ts';
import { pgAdminUrl } from '../support/databases.ts';
import { createTestDatabase } from '../support/postgres.ts';
import { ROOT } from '../support/site.ts';
import { tempDir } from '../support/temp.ts';

const PREMIUM_ARTICLE = 'ecommerce-launch-first-90-days';
/** The address the Postgres run is started under, which the test build never knew. */
const SITE = 'https://bundle.beacongrowth.example';
/** The bundle's budget (issue 32): bytes of every file, and how many files a host copies. */
const MAX_BYTES = 150 * 1000 * 1000;
const MAX_FILES = 8_000;

/** Every file under `dir` with its size and modification time (node_modules included). */
function snapshot(dir: string): Map<string, string> {
  const files = new Map<string, string>();
  for (const entry of readdirSync(dir, { recursive: true, withFileTypes: true })) {
    const file = path.join(entry.parentPath, entry.name);
    const info = statSync(file);
    files.set(path.relative(dir, file), entry.isDirectory() ? 'dir' : `${info.size}:${info.mtimeMs}`);
  }
  return files;
}

/** Every package name an installed package declares as a dependency (of any kind but dev). */
function neededByInstalled(modules: string): Set<string> {
  const names = new Set<string>();
  for (const entry of readdirSync(modules, { recursive: true, withFileTypes: true })) {
    if (entry.name !== 'package.json' || !entry.isFile()) continue;
    const manifest = JSON.parse(readFileSync(path.join(entry.parentPath, entry.name), 'utf8')) as Record<string, unknown>;
    for (const field of ['dependencies', 'optionalDependencies', 'peerDependencies'])
      for (const name of Object.keys((manifest[field] as Record<string, string> | undefined) ?? {})) names.add(name);
  }
  return names;
}

interface Started {
  url: string;
  child: ChildProcess;
  output: () => string;
}

/**
 * Starts the bundle's web command in `folder` with only `env` (and PATH), as a container would, on a
 * port it picks itself: the URL is the one it prints (a port chosen here could be taken by another
 * suite's server first, which would then answer for it).
 */
async function start(folder: string, env: Record<string, string>): Promise<Started> {
  let output = '';
  const [command, ...args] = BUNDLE_COMMANDS.web;
  const child = spawn(command === 'node' ? process.execPath : command, args, {
    cwd: folder,
    env: { PATH: process.env.PATH, HOST: '127.0.0.1', PORT: '0', LOG_LEVEL: 'warn', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  for (let waited = 0; waited < 60_000; waited += 100) {
    const url = /running at (http:\/\/127\.0\.0\.1:\d+)/.exec(output)?.[1];
    if (
      url &&
      (await fetch(`${url}/readyz`).then(
        (r) => r.status === 200,
        () => false,
      ))
    )
      return { url, child, output: () => output };
    if (child.exitCode !== null) throw new Error(`the bundle exited with ${child.exitCode}:\n${output}`);
    await new Promise((r) => setTimeout(r, 100));
  }
  child.kill('SIGKILL');
  throw new Error(`the bundle did not get ready:\n${output}`);
}

/** SIGTERM, as a container stop sends it: the graceful stop exits 0. */
async function stop(started: Started): Promise<number | null> {
  started.child.kill('SIGTERM');
  if (started.child.exitCode === null) await new Promise((r) => started.child.once('exit', r));
  return started.child.exitCode;
}

/** What a host checks once it runs: pages, the public API, sign-in, a gated body. */
async function exercise(url: string) {
  const home = await fetch(`${url}/`);
  expect(home.status).toBe(200);
  expect(await home.text()).toContain('</html>');
  expect((await fetch(`${url}/blog/${PREMIUM_ARTICLE}`)).status).toBe(200);
  const list = (await (await fetch(`${url}/api/public/blogs`)).json()) as PublicItem[];
  expect(list.some((item) => item.slug === PREMIUM_ARTICLE)).toBe(true);
  const signIn = await fetch(`${url}/auth/v1/token?grant_type=password`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: 'premium@demo.beacongrowth.co', password: DEMO_PASSWORD }),
  });
  expect(signIn.status).toBe(200);
  const { access_token: token } = (await signIn.json()) as SessionAnswer;
  const body = await fetch(`${url}/api/content/blogs/${PREMIUM_ARTICLE}/body`, { headers: { authorization: `Bearer ${token}` } });
  expect(body.status).toBe(200);
  expect(((await body.json()) as Answer<Api['gated']['blogs'][':slug']['body']['$get']>).html.length).toBeGreaterThan(500);
  // A community reply is rendered on the members' renderer thread, a file no import leads to.
  const { items } = (await (await fetch(`${url}/api/community/threads?category=general`)).json()) as { items: { id: string }[] };
  const reply = await fetch(`${url}/api/community/threads/${items[0]!.id}/replies`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ body: '**Rendered** by the bundle' }),
  });
  expect(reply.status).toBe(201);
  // The site search: the public index made by Pagefind's binary (a file no trace finds), and the gated text's search.
  const entry = await fetch(`${url}/pagefind/pagefind-entry.json`);
  expect(entry.status).toBe(200);
  expect(((await entry.json()) as { languages: { en: { page_count: number } } }).languages.en.page_count).toBeGreaterThan(40);
  const search = await fetch(`${url}/api/search?q=PREMIUM-SENTINEL-7f3a`, { headers: { authorization: `Bearer ${token}` } });
  expect(((await search.json()) as SearchAnswer).results.map((r) => r.url)).toContain(`/blog/${PREMIUM_ARTICLE}`);
  expect((await fetch(`${url}/readyz`)).status).toBe(200);
}

describe('the production bundle', () => {
  let folder: string;
  let before: Map<string, string>;

  beforeAll(async () => {
    const made = await tempDir('bundle-made');
    const result = spawnSync(process.execPath, ['scripts/bundle.ts', '--dist', inject('testEnv').distDir, '--out', made], {
      cwd: ROOT,
      encoding: 'utf8',
    });
    if (result.status !== 0) throw new Error(`npm run bundle failed:\n${result.stdout}\n${result.stderr}`);
    // Copied to an empty folder, as an image or a host would receive it.
    folder = await tempDir('bundle-run');
    cpSync(made, folder, { recursive: true });
    before = snapshot(folder);
  }, 240_000);

  afterAll(() => {
    // Nothing written into the bundle's own folder by either run: it may be read-only.
    if (folder) expect([...snapshot(folder)].filter(([file, stamp]) => before.get(file) !== stamp)).toEqual([]);
  });

  it('holds the built site, the server, its migrations and content, and no dev tooling', () => {
    const manifest = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { devDependencies: Record<string, string> };
    // A dev dependency may only be there because a production package needs it too (type packages some declare).
    const needed = neededByInstalled(path.join(folder, 'node_modules'));
    for (const name of Object.keys(manifest.devDependencies))
      if (!needed.has(name)) expect(existsSync(path.join(folder, 'node_modules', name)), name).toBe(false);
    // Nor the site's build tooling, which the built site no longer needs.
    for (const tool of [
      'vitest',
      '@playwright/test',
      'eslint',
      'typescript',
      'drizzle-kit',
      'node',
      'lighthouse',
      'prettier',
      'vite',
      '@astrojs/compiler',
      'esbuild',
    ])
      expect(existsSync(path.join(folder, 'node_modules', tool)), tool).toBe(false);
    const files = [...before.keys()].filter((f) => !f.startsWith('node_modules'));
    expect(files.filter((f) => /\.(test|spec)\.ts$/.test(f) || f.startsWith('tests') || f.startsWith('.data'))).toEqual([]);
    for (const needed of [
      'dist/server/entry.mjs',
      'dist/client/about/index.html',
      'server/server.mjs',
      'server/worker.mjs',
      // Started by URL on its own thread: no import leads to it.
      'server/render-worker.mjs',
      'functions/platform/db/migrations/meta/_journal.json',
      // A fresh DATA_DIR is a copy of this migrated cluster (the PGlite run below uses it).
      'functions/platform/db/pglite-template/PG_VERSION',
      // The content parsed once, taken at each start where a file is unchanged (functions/content/content-index.ts).
      'functions/content/content-index.bin',
    ])
      expect(files, needed).toContain(needed);
    expect(files.some((f) => f.startsWith(path.join('content', 'blog')))).toBe(true);
    const bundled = JSON.parse(readFileSync(path.join(folder, 'package.json'), 'utf8')) as { scripts: Record<string, string> };
    expect(bundled.scripts).toEqual({ start: BUNDLE_COMMANDS.web.join(' '), worker: BUNDLE_COMMANDS.worker.join(' ') });
  });

  it('stays within its budget: under 150 MB in under 8,000 files', () => {
    const sizes = [...before.values()].filter((stamp) => stamp !== 'dir').map((stamp) => Number(stamp.split(':')[0]));
    expect(sizes.reduce((sum, size) => sum + size, 0)).toBeLessThan(MAX_BYTES);
    expect(sizes.length).toBeLessThan(MAX_FILES);
  });

  it('holds every adapter that is loaded only when configured, with its SDK, each loading with Node alone', () => {
    // Each lazy adapter is a chunk of its own, loaded by the start that configures it.
    const modules = readdirSync(path.join(folder, 'server')).filter((file) => file.endsWith('.mjs'));
    for (const adapter of ['stripe-client', 'openai', 's3', 'nodemailer', 'postgres', 'pglite'])
      expect(
        modules.some((file) => file.startsWith(`${adapter}-`)),
        adapter,
      ).toBe(true);
    // Imported from the bundle folder with Node alone, as a start with that part configured would:
    // what they left outside the bundle (PGlite, the native addons) must be in its node_modules.
    const script = `for (const m of ${JSON.stringify(modules.filter((m) => !['server.mjs', 'worker.mjs', 'render-worker.mjs'].includes(m)).map((m) => `./server/${m}`))}) await import(m);`;
    const result = spawnSync(process.execPath, ['--input-type=module', '-e', script], {
      cwd: folder,
      encoding: 'utf8',
      env: { PATH: process.env.PATH },
    });
    expect(result.stderr).toBe('');
    expect(result.status).toBe(0);
  });

  it('runs against Postgres with Node alone under its run-time https address, and stops cleanly on SIGTERM', async () => {
    const started = await start(folder, {
      DATABASE_URL: await createTestDatabase(pgAdminUrl(), 'bundle'),
      DATA_DIR: await tempDir('bundle-data-pg'),
      SITE_URL: SITE,
      PAYMENTS: 'test',
      AUTH_SEED_DEMO: 'true',
      AUTH_BCRYPT_COST: '4',
    });
    await exercise(started.url);
    // Built without SITE_URL (as the Dockerfile builds), it names only the address it runs under.
    for (const route of ['/', `/blog/${PREMIUM_ARTICLE}`, '/about', '/rss.xml', '/sitemap.xml', '/robots.txt']) {
      const body = await (await fetch(`${started.url}${route}`)).text();
      const origins = new Set([...body.matchAll(/https?:\/\/(?:localhost|127\.0\.0\.1|\[::1\])(?::\d+)?/g)].map((m) => m[0]));
      expect([...origins], route).toEqual([]);
      expect(body, route).toContain(SITE);
    }
    expect(started.output()).toContain('database  real      Postgres at');
    expect(await stop(started)).toBe(0);
  }, 120_000);

  it('runs its separate mail worker with Node alone, and stops it cleanly on SIGTERM', async () => {
    const [command, ...args] = BUNDLE_COMMANDS.worker;
    const child = spawn(command === 'node' ? process.execPath : command, args, {
      cwd: folder,
      env: {
        PATH: process.env.PATH,
        LOG_LEVEL: 'warn',
        DATABASE_URL: await createTestDatabase(pgAdminUrl(), 'bundle_worker'),
        DATA_DIR: await tempDir('bundle-worker'),
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    await expect.poll(() => /email worker \S+ started \(mailbox\)/.test(output) || child.exitCode !== null, { timeout: 60_000 }).toBe(true);
    expect(output).toMatch(/email worker \S+ started \(mailbox\)/);
    expect(await stop({ url: '', child, output: () => output })).toBe(0);
  }, 120_000);

  it('runs on embedded PGlite with a fresh DATA_DIR', async () => {
    const dataDir = await tempDir('bundle-data-pglite');
    const started = await start(folder, { DATA_DIR: dataDir, AUTH_BCRYPT_COST: '4', LOG_LEVEL: 'info' });
    await exercise(started.url);
    // The mailbox loads nodemailer with its first message: a contact form's two mails land.
    const contact = await fetch(`${started.url}/api/contact`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'Ada', email: 'ada@example.com', subject: 'Hello', message: 'A question about SEO.' }),
    });
    expect(contact.status).toBe(201);
    const mailbox = path.join(dataDir, 'mailbox');
    await expect
      .poll(async () => (await readdir(mailbox).catch(() => [])).filter((f) => f.endsWith('.eml')).length, { timeout: 15_000 })
      .toBe(2);
    expect(await stop(started)).toBe(0);
    expect(readdirSync(dataDir)).toContain('pglite');
    // Copied from the bundle's migrated cluster, not made by initdb and the migrations, its write-ahead
    // log segment back to its full size (the bundle keeps only its written start).
    expect(started.output()).toContain('new embedded database copied from the bundled cluster');
    const sizes = JSON.parse(readFileSync(path.join(folder, 'functions/platform/db/pglite-template-sizes.json'), 'utf8')) as Record<
      string,
      number
    >;
    expect(Object.keys(sizes).length).toBeGreaterThan(0);
    for (const [file, size] of Object.entries(sizes))
      expect(statSync(path.join(folder, 'functions/platform/db/pglite-template', file)).size).toBeLessThan(size);
    // It starts again from what it wrote: the reply is still there.
    const again = await start(folder, { DATA_DIR: dataDir, AUTH_BCRYPT_COST: '4' });
    const { items } = (await (await fetch(`${again.url}/api/community/threads?category=general`)).json()) as { items: { id: string }[] };
    const replies = await (await fetch(`${again.url}/api/community/threads/${items[0]!.id}`)).text();
    expect(replies).toContain('<strong>Rendered</strong> by the bundle');
    expect(await stop(again)).toBe(0);
  }, 120_000);
});
