/**
 * A client that hangs up mid-body, against the real server entry (its own process and log): a JSON
 * API route, the streamed upload route and a signed webhook each log one `info` line (no stack, no
 * error) and an `info` access line with 499, and nothing answers 5xx. The editor who uploads is made
 * directly in the server's Postgres database.
 */
import { spawn } from 'node:child_process';
import { connect } from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { HUNG_UP } from '../../functions/platform/errors.ts';
import { createTestApp, type TestApp } from '../support/app.ts';
import { tempDir } from '../support/temp.ts';
import { multipart, pngOfSize } from '../support/uploads.ts';

const ROOT = path.resolve(import.meta.dirname, '../..');
const PASSWORD = 'hang-up editor pass';
// The token's issuer is the site's URL: the same for the test's services and the server.
const SITE_URL = 'http://127.0.0.1:4399';

interface LogLine {
  level: string;
  msg: string;
  path?: string;
  status?: number;
  requestId?: string;
}

describe('a client hanging up mid-body', () => {
  let t: TestApp;
  let token: string;
  let child: ReturnType<typeof spawn>;
  let port: number;
  let stdout = '';
  let stderr = '';
  const lines = () =>
    stdout
      .split('\n')
      .filter((l) => l.startsWith('{'))
      .map((l) => JSON.parse(l) as LogLine);

  beforeAll(async () => {
    t = await createTestApp('postgres', undefined, { AUTH_BCRYPT_COST: '4', EMAIL_WORKER: 'false', SITE_URL });
    const id = await t.services.auth.createConfirmedUser('editor@hang-up.test', PASSWORD, 'Editor');
    await t.services.users.assign(id, 'editor', 'free');
    token = (await t.services.auth.signInWithPassword({ email: 'editor@hang-up.test', password: PASSWORD })).access_token;
    child = spawn(process.execPath, [path.join(ROOT, 'functions', 'server.ts')], {
      cwd: ROOT,
      env: {
        PATH: process.env.PATH ?? '',
        PORT: '0',
        LOG_LEVEL: 'info',
        SITE_URL,
        EMAIL_WORKER: 'false',
        DATABASE_URL: t.database.url!,
        DATABASE_DIRECT_URL: t.database.directUrl!,
        // A deployment-like start (DATABASE_URL set) takes payments on the test checkout on purpose.
        PAYMENTS: 'test',
        DATA_DIR: await tempDir('hang-up'),
        DIST_DIR: inject('testEnv').distDir,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child.stdout!.on('data', (d) => (stdout += d));
    child.stderr!.on('data', (d) => (stderr += d));
    const url = await new Promise<string>((resolve, reject) => {
      child.stdout!.on('data', () => {
        const found = /running at (http:\/\/\S+)/.exec(stdout)?.[1];
        if (found) resolve(found);
      });
      child.once('exit', (code) => reject(new Error(`server exited (${code}):\n${stdout}\n${stderr}`)));
    });
    port = Number(new URL(url).port);
  });

  afterAll(async () => {
    if (child && child.exitCode === null) {
      child.kill('SIGTERM');
      await new Promise((resolve) => child.once('exit', resolve));
    }
    await t?.close();
  });

  /** Sends the head and the first `sent` bytes of a body that declares `body.length`, then closes the socket. */
  async function hangUp(target: string, contentType: string, body: Buffer, sent: number, headers: Record<string, string> = {}) {
    const socket = connect(port, '127.0.0.1');
    socket.on('error', () => undefined);
    await new Promise((resolve) => socket.once('connect', resolve));
    const extra = Object.entries(headers).map(([k, v]) => `${k}: ${v}\r\n`);
    socket.write(
      `POST ${target} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: ${contentType}\r\nContent-Length: ${body.length}\r\n${extra.join('')}\r\n`,
    );
    socket.write(body.subarray(0, sent));
    // Long enough for the route to be reading the body.
    await new Promise((resolve) => setTimeout(resolve, 300));
    socket.destroy();
    // The access line is buffered for up to 250 ms.
    await expect.poll(() => lines().some((l) => l.msg === 'request' && l.path === target), { timeout: 5000 }).toBe(true);
    const access = lines().find((l) => l.msg === 'request' && l.path === target)!;
    return { access, own: lines().filter((l) => l.requestId === access.requestId) };
  }

  function expectInfoOnly(own: LogLine[], access: LogLine) {
    expect(access).toMatchObject({ level: 'info', status: 499 });
    expect(own.map((l) => l.level)).toEqual(own.map(() => 'info'));
    expect(own.some((l) => l.msg === HUNG_UP)).toBe(true);
    for (const line of own) {
      expect(JSON.stringify(line)).not.toContain('stack');
      expect(JSON.stringify(line).toLowerCase()).not.toContain('error');
    }
  }

  it('on a JSON API route (POST /api/contact)', async () => {
    const body = Buffer.from(JSON.stringify({ name: 'Ada', email: 'ada@example.com', subject: 'Hello', message: 'x'.repeat(4000) }));
    const { access, own } = await hangUp('/api/contact', 'application/json', body, 100);
    expectInfoOnly(own, access);
  });

  it('on the upload route, while the file is streaming to storage', async () => {
    const { body, contentType } = multipart([{ field: 'file', filename: 'cover.png', type: 'image/png', body: pngOfSize(64 * 1024) }]);
    const { access, own } = await hangUp('/api/upload', contentType, body, 20 * 1024, { Authorization: `Bearer ${token}` });
    expectInfoOnly(own, access);
  });

  it('on a signed webhook, which reads the raw body', async () => {
    const body = Buffer.from(JSON.stringify({ type: 'email.delivered', data: { id: 'x'.repeat(4000) } }));
    const { access, own } = await hangUp('/api/email/events', 'application/json', body, 50);
    expectInfoOnly(own, access);
  });

  it('logged no error, no stack and no 5xx anywhere', async () => {
    child.kill('SIGTERM');
    await new Promise((resolve) => child.once('exit', resolve));
    const all = lines();
    expect(all.filter((l) => l.level !== 'info' && l.level !== 'debug')).toEqual([]);
    expect(all.filter((l) => (l.status ?? 0) >= 500)).toEqual([]);
    expect(stdout).not.toMatch(/\bat .*\(.*:\d+:\d+\)/);
    expect(stderr).toBe('');
  });
});
