/**
 * The Node entry as a user runs it: configuration errors, an unreachable database and broken content
 * stop start-up with one clear message and a non-zero exit; a good start serves health checks, shuts
 * down on SIGTERM, and keeps embedded data across restarts. It is ready (listening, /readyz 200) only
 * when a demo sign-in works, a SIGTERM at any moment of the start is a graceful stop, and it loads
 * no SDK of a part that is not configured.
 */
import { spawn } from 'node:child_process';
import { createServer, type AddressInfo } from 'node:net';
import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { inject, describe, expect, it } from 'vitest';
import { openDatabase } from '../../functions/platform/db/client.ts';
import { createMdxSource } from '../../functions/content/mdx-source.ts';
import { createContentService } from '../../functions/content/service.ts';
import { CONTENT_DIR } from '../support/app.ts';
import { freePort } from '../support/postgres.ts';
import { tempDir } from '../support/temp.ts';
import { migratedDataDir } from '../support/databases.ts';
import { makeBlogInput, quietLogger } from '../support/fixtures.ts';
import { DEMO_PASSWORD } from '../../functions/users/demo.ts';

const ROOT = path.resolve(import.meta.dirname, '../..');
const SERVER = path.join(ROOT, 'functions', 'server.ts');

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs the server entry with extra environment until it exits or `until` sees what it waits for. */
function runServer(env: Record<string, string>, until?: (out: string) => boolean, nodeArgs: string[] = []) {
  const child = spawn(process.execPath, [...nodeArgs, SERVER], {
    cwd: ROOT,
    env: { PATH: process.env.PATH ?? '', LOG_LEVEL: 'warn', PORT: '0', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d) => (stdout += d));
  child.stderr.on('data', (d) => (stderr += d));
  const exited = new Promise<Run>((resolve) => child.on('exit', (code) => resolve({ code, stdout, stderr })));
  const ready = until
    ? new Promise<string>((resolve, reject) => {
        const check = () => until(stdout) && resolve(stdout);
        child.stdout.on('data', check);
        void exited.then((r) => reject(new Error(`server exited (${r.code}):\n${r.stdout}\n${r.stderr}`)));
      })
    : undefined;
  return { child, exited, ready, stdout: () => stdout, stderr: () => stderr };
}

const urlIn = (out: string) => /running at (http:\/\/\S+)/.exec(out)?.[1];

const RECORDER = path.join(ROOT, 'tests', 'support', 'module-recorder.ts');

async function signIn(base: string): Promise<Response> {
  return fetch(`${base}/auth/v1/token?grant_type=password`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: 'premium@demo.beacongrowth.co', password: DEMO_PASSWORD }),
  });
}

describe('server start-up', () => {
  it('stops with a message naming every bad variable', async () => {
    const run = await runServer({ PORT: 'eighty', DATABASE_URL: 'mysql://db/app', LOG_LEVEL: 'loud' }).exited;
    expect(run.code).not.toBe(0);
    expect(run.stderr).toContain('Invalid configuration');
    for (const name of ['PORT', 'DATABASE_URL', 'LOG_LEVEL']) expect(run.stderr).toContain(name);
    expect(run.stderr).not.toMatch(/\n\s+at /); // a message, not a stack trace
  });

  it('refuses to run the test checkout where real people pay unless PAYMENTS=test says so', async () => {
    const run = await runServer({ SITE_URL: 'https://www.beacongrowth.co', DIST_DIR: inject('testEnv').distDir }).exited;
    expect(run.code).not.toBe(0);
    expect(run.stderr).toContain('Invalid configuration');
    expect(run.stderr).toContain('STRIPE_SECRET_KEY: required because this is a deployment (SITE_URL is https)');
    expect(run.stderr).toContain('PAYMENTS=test');
    expect(run.stderr).not.toMatch(/\n\s+at /);
  });

  it('stops with one clear message when the database cannot be reached', async () => {
    const run = await runServer({
      DATABASE_URL: 'postgres://nobody:secret@127.0.0.1:1/nothing',
      PAYMENTS: 'test',
      DIST_DIR: inject('testEnv').distDir,
    }).exited;
    expect(run.code).not.toBe(0);
    expect(run.stderr).toContain('Cannot reach the database at postgres://nobody:***@127.0.0.1:1/nothing (DATABASE_URL)');
    expect(run.stderr).not.toContain('secret');
    expect(run.stderr).not.toMatch(/\n\s+at /);
  });

  it('stops with the file and field when content is invalid', async () => {
    const dir = await tempDir('content');
    await mkdir(path.join(dir, 'blog'));
    await writeFile(path.join(dir, 'blog', 'broken.mdx'), '---\ntitle: Hi\ndescription: short\n---\nBody');
    const run = await runServer({ CONTENT_DIR: dir, DATA_DIR: path.join(dir, 'data'), DIST_DIR: inject('testEnv').distDir }).exited;
    expect(run.code).not.toBe(0);
    expect(run.stderr).toContain('Invalid content file blog/broken.mdx');
    expect(run.stderr).toContain('title');
    expect(run.stderr).toContain('publishedDate');
  });

  it('stops with a clear message when the port is taken', async () => {
    const blocker = createServer();
    await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
    const port = (blocker.address() as AddressInfo).port;
    try {
      // Everything starts before the listen fails: on a copy of the migrated cluster, not one made from nothing.
      const run = await runServer({ PORT: String(port), DATA_DIR: await migratedDataDir('busy'), DIST_DIR: inject('testEnv').distDir })
        .exited;
      expect(run.code).not.toBe(0);
      expect(run.stderr).toContain(`Cannot listen on 127.0.0.1:${port} (EADDRINUSE). Set PORT`);
      expect(run.stderr).not.toMatch(/\n\s+at /);
    } finally {
      blocker.close();
    }
  });

  it('stops with a clear message when the site has not been built', async () => {
    const dir = await tempDir('nobuild');
    const run = await runServer({ DATA_DIR: dir, DIST_DIR: path.join(dir, 'dist') }).exited;
    expect(run.code).not.toBe(0);
    expect(run.stderr).toContain('No site build in');
  });

  // A restart is the second start of the same DATA_DIR: the outbox worker is checked on it rather than on a third start.
  it('serves health checks, shuts down on SIGTERM, keeps embedded data across restarts, and runs the outbox worker', async () => {
    const dataDir = await tempDir('data');
    const env = { DATA_DIR: dataDir, DIST_DIR: inject('testEnv').distDir };

    const first = runServer(env, (out) => Boolean(urlIn(out)));
    const base = urlIn(await first.ready!)!;
    expect((await fetch(`${base}/healthz`)).status).toBe(200);
    const ready = await fetch(`${base}/readyz`);
    expect(ready.status).toBe(200);
    expect(await ready.json()).toMatchObject({ status: 'ready', database: { kind: 'pglite' } });
    first.child.kill('SIGTERM');
    expect((await first.exited).code).toBe(0);

    // Write an item into the embedded database while no server holds it.
    const database = await openDatabase({ kind: 'pglite', dataDir: path.join(dataDir, 'pglite') }, quietLogger());
    const service = createContentService({ db: database.db, mdx: await createMdxSource(CONTENT_DIR), logger: quietLogger() });
    const created = await service.create('blog', makeBlogInput({ title: 'Persisted across restarts' }));
    await database.close();

    const second = runServer({ ...env, LOG_LEVEL: 'info' }, (out) => Boolean(urlIn(out)));
    const again = urlIn(await second.ready!)!;
    const res = await fetch(`${again}/api/public/blogs/${created.slug}`);
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ title: 'Persisted across restarts' });

    // The outbox worker: mail queued by a request lands in the local mailbox.
    const contact = await fetch(`${again}/api/contact`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'Ada', email: 'ada@example.com', subject: 'Hello', message: 'A question about SEO.' }),
    });
    expect(contact.status).toBe(201);
    const mailbox = path.join(dataDir, 'mailbox');
    await expect
      .poll(async () => (await readdir(mailbox).catch(() => [])).filter((f) => f.endsWith('.eml')).length, { timeout: 10_000 })
      .toBe(2);
    second.child.kill('SIGTERM');
    const run = await second.exited;
    expect(run.code).toBe(0);
    // The log says where each message went, and access lines are written before exit.
    expect(run.stdout).toContain('email written to the local mailbox');
    expect(run.stdout).toMatch(/"method":"POST","path":"\/api\/contact","status":201/);
  }, 120_000);

  // One start from nothing proves both: the module recorder only watches, and /readyz is asked from the first moment.
  it('answers /readyz only once a demo account can sign in, and loads no SDK of a part that is not configured, and only the date-fns functions in use', async () => {
    const dir = await tempDir('ready');
    const list = path.join(dir, 'modules.txt');
    // A port chosen here, so /readyz is asked from the first moment, as often as a load balancer would.
    const base = `http://127.0.0.1:${await freePort()}`;
    const running = runServer(
      { DATA_DIR: path.join(dir, 'data'), DIST_DIR: inject('testEnv').distDir, PORT: base.split(':')[2]!, RECORD_MODULES_TO: list },
      undefined,
      ['--import', RECORDER],
    );
    while (
      !(await fetch(`${base}/readyz`).then(
        (r) => r.status === 200,
        () => false,
      ))
    ) {
      if (running.child.exitCode !== null) throw new Error(`server exited:\n${(await running.exited).stderr}`);
      await new Promise((r) => setTimeout(r, 20));
    }
    const answer = await signIn(base);
    expect(answer.status, await answer.clone().text()).toBe(200);
    expect((await fetch(`${base}/`)).status).toBe(200);
    running.child.kill('SIGTERM');
    expect((await running.exited).code).toBe(0);
    const loaded = (await readFile(list, 'utf8')).split('\n').filter(Boolean);
    const from = (pkg: string) => loaded.filter((url) => url.includes(`/node_modules/${pkg}/`));
    // Sanity: the recorder saw the start (drizzle, PGlite, the site's server build).
    expect(from('drizzle-orm').length).toBeGreaterThan(10);
    expect(from('@electric-sql/pglite').length).toBeGreaterThan(0);
    for (const sdk of ['stripe', 'openai', '@aws-sdk/client-s3', 'nodemailer', '@supabase/supabase-js', 'pg'])
      expect(from(sdk), sdk).toEqual([]);
    // date-fns by function: its index (and so all ~300 of its modules) never loads.
    expect(from('date-fns').filter((url) => url.endsWith('/date-fns/index.js'))).toEqual([]);
    expect(new Set(from('date-fns')).size).toBeLessThan(100);
  }, 300_000);

  it('stops gracefully (exit 0) on a SIGTERM at any moment of the start, and the data survives', async () => {
    const dataDir = await tempDir('stops');
    const env = { DATA_DIR: dataDir, DIST_DIR: inject('testEnv').distDir, LOG_LEVEL: 'info' };
    for (const delay of [0, 300, 1000, 3000]) {
      // Timed from the moment the process asks for main.ts, its first step (the recorder says when).
      const running = runServer({ ...env, ANNOUNCE_RESOLVED: '/functions/main.ts' }, undefined, ['--import', RECORDER]);
      while (!running.stderr().includes('resolved ')) {
        if (running.child.exitCode !== null) throw new Error(`server exited:\n${running.stderr()}`);
        await new Promise((r) => setTimeout(r, 2));
      }
      await new Promise((r) => setTimeout(r, delay));
      const listening = Boolean(urlIn(running.stdout()));
      running.child.kill('SIGTERM');
      const run = await running.exited;
      expect(run.code, `SIGTERM ${delay} ms after main.ts was asked for:\n${run.stderr}`).toBe(0);
      // A signal as soon as the start begins finds it under way, and stops it.
      if (delay === 0) {
        expect(listening).toBe(false);
        expect(run.stdout).not.toContain('running at');
        expect(run.stdout).toContain('stopped during start-up');
      }
    }
    // Nothing was left half done: the same DATA_DIR starts and a demo account signs in.
    const again = runServer(env, (out) => Boolean(urlIn(out)));
    const base = urlIn(await again.ready!)!;
    expect((await signIn(base)).status).toBe(200);
    again.child.kill('SIGTERM');
    expect((await again.exited).code).toBe(0);
  }, 600_000);
});
