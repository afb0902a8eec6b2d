/**
 * The production bundle (`npm run bundle`), as a host runs it: made from the test build, copied
 * to an empty folder and started there with Node alone (`node functions/server.ts`, no npm, no
 * dev tooling) against Postgres and against PGlite with a fresh DATA_DIR. Pages, the public API,
 * sign-in, a gated body and /readyz answer; SIGTERM stops it cleanly; nothing in the bundle folder
 * changes (it may be read-only); it holds no dev dependency and no test.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { cpSync, existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { BUNDLE_COMMANDS } from '../../scripts/bundle.ts';
import { DEMO_PASSWORD } from '../../functions/users/demo.ts';
import type { Api, Answer, SessionAnswer } from '../support/answers.ts';
import type { PublicItem } from '#shared/content/registry.ts';
import { pgAdminUrl } from '../support/databases.ts';
import { createTestDatabase } from '../support/postgres.ts';
import { ROOT } from '../support/site.ts';
import { tempDir } from '../support/temp.ts';

const PREMIUM_ARTICLE = 'ecommerce-launch-first-90-days';

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

  it('holds the built site, the server, its migrations and content, and production dependencies only', () => {
    const manifest = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as {
      dependencies: Record<string, string>;
      devDependencies: Record<string, string>;
    };
    // A dev dependency may only be there because a production package needs it too (type packages some declare).
    const needed = neededByInstalled(path.join(folder, 'node_modules'));
    for (const name of Object.keys(manifest.devDependencies))
      if (!needed.has(name)) expect(existsSync(path.join(folder, 'node_modules', name)), name).toBe(false);
    for (const tool of ['vitest', '@playwright/test', 'eslint', 'typescript', 'drizzle-kit', 'node', 'lighthouse', 'prettier'])
      expect(existsSync(path.join(folder, 'node_modules', tool)), tool).toBe(false);
    for (const name of Object.keys(manifest.dependencies)) expect(existsSync(path.join(folder, 'node_modules', name)), name).toBe(true);
    const files = [...before.keys()].filter((f) => !f.startsWith('node_modules'));
    expect(files.filter((f) => /\.(test|spec)\.ts$/.test(f) || f.startsWith('tests') || f.startsWith('.data'))).toEqual([]);
    for (const needed of [
      'dist/server/entry.mjs',
      'dist/client/about/index.html',
      'functions/server.ts',
      'functions/platform/db/migrations/meta/_journal.json',
      // A fresh DATA_DIR starts from this instead of running initdb (the PGlite runs below use it).
      'functions/platform/db/pglite-initdb.tar.gz',
    ])
      expect(files, needed).toContain(needed);
    expect(files.some((f) => f.startsWith(path.join('content', 'blog')))).toBe(true);
    const bundled = JSON.parse(readFileSync(path.join(folder, 'package.json'), 'utf8')) as { scripts: Record<string, string> };
    expect(bundled.scripts).toEqual({ start: BUNDLE_COMMANDS.web.join(' '), worker: BUNDLE_COMMANDS.worker.join(' ') });
  });

  it('runs against Postgres with Node alone and stops cleanly on SIGTERM', async () => {
    const started = await start(folder, {
      DATABASE_URL: await createTestDatabase(pgAdminUrl(), 'bundle'),
      DATA_DIR: await tempDir('bundle-data-pg'),
      PAYMENTS: 'test',
      AUTH_SEED_DEMO: 'true',
      AUTH_BCRYPT_COST: '4',
    });
    await exercise(started.url);
    expect(started.output()).toContain('database  real      Postgres at');
    expect(await stop(started)).toBe(0);
  });

  it('runs on embedded PGlite with a fresh DATA_DIR', async () => {
    const dataDir = await tempDir('bundle-data-pglite');
    const started = await start(folder, { DATA_DIR: dataDir, AUTH_BCRYPT_COST: '4', LOG_LEVEL: 'info' });
    await exercise(started.url);
    expect(await stop(started)).toBe(0);
    expect(readdirSync(dataDir)).toContain('pglite');
    // Unpacked from the bundle's empty cluster, not made by initdb (a third of the cold start).
    expect(started.output()).toContain('new embedded database unpacked from the bundled empty cluster');
  });
});
