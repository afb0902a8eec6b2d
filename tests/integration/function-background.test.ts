/**
 * Serverless functions' background work and limits (functions/serverless.ts, functions/background.ts):
 * mail a write queued leaves within seconds (drained after the answer), two scheduled rounds that
 * overlap send each queued message once, a body over the platform's limit is refused with the way
 * round it, and a function refuses to start without the outside services it cannot do without.
 * Through PgBouncer in transaction mode, with the direct URL beside it, as on Supabase or Neon.
 */
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, inject, it, vi } from 'vitest';
import { openDatabase, type Database } from '../../functions/platform/db/client.ts';
import { profiles } from '../../functions/users/tables.ts';
import { createFunctionHandler, createScheduledHandler, FUNCTION_BODY_LIMIT } from '../../functions/serverless.ts';
import { CONTENT_DIR } from '../support/app.ts';
import { pgAdminUrl, pooledEnv } from '../support/databases.ts';
import { quietLogger } from '../support/fixtures.ts';
import { queueMail } from '../support/outbox.ts';
import { createTestDatabase } from '../support/postgres.ts';
import { startS3 } from '../support/s3.ts';
import { startTestSmtp, type TestSmtp } from '../support/smtp.ts';

const ORIGIN = 'https://beacon.example';
const SERVERLESS = path.resolve(import.meta.dirname, '../../functions/serverless.ts');

describe('serverless functions: background work and limits', () => {
  let smtp: TestSmtp;
  let s3: Awaited<ReturnType<typeof startS3>>;
  let database: Database;
  let env: Record<string, string>;

  beforeAll(async () => {
    [smtp, s3] = await Promise.all([startTestSmtp(), startS3('functions')]);
    const directUrl = await createTestDatabase(pgAdminUrl(), 'fn_background', inject('testEnv').pgTemplate);
    env = {
      ...pooledEnv(directUrl),
      SMTP_URL: smtp.url,
      S3_BUCKET: s3.bucket,
      S3_ENDPOINT: s3.endpoint,
      S3_FORCE_PATH_STYLE: 'true',
      S3_ACCESS_KEY_ID: 'S3RVER',
      S3_SECRET_ACCESS_KEY: 'S3RVER',
      CONTENT_DIR,
      SITE_URL: ORIGIN,
      PAYMENTS: 'test',
      AUTH_BCRYPT_COST: '4',
      LOG_LEVEL: 'silent',
    };
    database = await openDatabase({ kind: 'postgres', url: env.DATABASE_URL!, directUrl, poolSize: 2 }, quietLogger());
  });
  afterAll(async () => {
    await database?.close();
    await Promise.all([smtp?.close(), s3?.close()]);
  });

  const mailTo = (address: string) => smtp.received.filter((mail) => mail.to.includes(address));

  it('sends the mail a write queued within seconds of the answer, not at the next round', async () => {
    const handle = createFunctionHandler(env);
    try {
      const address = 'confirm-me@example.test';
      const signUp = await handle(
        new Request(`${ORIGIN}/auth/v1/signup`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ email: address, password: 'a long enough password 1' }),
        }),
        { ip: '203.0.113.20', waitUntil: () => undefined },
      );
      expect(signUp.status).toBe(200);
      await expect.poll(() => mailTo(address).length, { timeout: 5_000 }).toBe(1);
      expect(mailTo(address)[0]!.raw).toMatch(/confirm/i);
    } finally {
      await handle.close();
    }
  });

  it('sends each queued message once when two scheduled rounds overlap', async () => {
    const addresses = Array.from({ length: 40 }, (_, i) => `round-${i}@example.test`);
    await queueMail(database.db, ORIGIN, addresses);
    const rounds = [createScheduledHandler(env), createScheduledHandler(env)];
    try {
      const reports = await Promise.all(rounds.map((round) => round()));
      expect(reports.every((report) => report && Object.values(report).every((part) => part !== 'failed' && part !== 'skipped'))).toBe(
        true,
      );
      expect(reports.reduce((sum, report) => sum + Number(report!.outbox), 0)).toBe(addresses.length);
      for (const to of addresses) expect(mailTo(to), to).toHaveLength(1);
      // A round with nothing left to do sends nothing again.
      expect((await rounds[0]!())!.outbox).toBe(0);
    } finally {
      await Promise.all(rounds.map((round) => round.close()));
    }
  });

  it('refuses a body over the platform limit with the direct-upload hint, declared or streamed', async () => {
    const handle = createFunctionHandler(env);
    try {
      const declared = await handle(new Request(`${ORIGIN}/api/upload`, { method: 'POST', body: new Uint8Array(FUNCTION_BODY_LIMIT + 1) }));
      expect(declared.status).toBe(413);
      const answer = (await declared.json()) as { error: { code: string; message: string } };
      expect(answer.error).toMatchObject({ code: 'payload_too_large' });
      expect(answer.error.message).toContain('POST /api/upload/presign');
      const chunk = new Uint8Array(1024 * 1024);
      let sent = 0;
      const stream = new ReadableStream<Uint8Array>({
        pull(controller) {
          if (sent++ > 7) controller.close();
          else controller.enqueue(chunk);
        },
      });
      const streamed = await handle(new Request(`${ORIGIN}/api/contact`, { method: 'POST', body: stream, duplex: 'half' } as RequestInit));
      expect(streamed.status).toBe(413);
      // Under the limit, the app's own checks answer (this one: a form it cannot read).
      const small = await handle(
        new Request(`${ORIGIN}/api/contact`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' }),
        {
          ip: '203.0.113.21',
        },
      );
      expect(small.status).toBe(422);
    } finally {
      await handle.close();
    }
  });

  it('serves the pages no CDN file answers as the Node server does: rendered, validated, compressed, on the run-time origin', async () => {
    const handle = createFunctionHandler({ ...env, DIST_DIR: inject('testEnv').distDir });
    try {
      const home = await handle(new Request(`${ORIGIN}/`, { headers: { 'accept-encoding': 'br' } }));
      expect(home.status).toBe(200);
      expect(home.headers.get('content-type')).toContain('text/html');
      expect(home.headers.get('content-encoding')).toBe('br');
      const etag = home.headers.get('etag')!;
      expect(etag).toBeTruthy();
      const again = await handle(new Request(`${ORIGIN}/`, { headers: { 'if-none-match': etag, 'accept-encoding': 'br' } }));
      expect(again.status).toBe(304);
      expect(await again.text()).toBe('');
      const article = await handle(new Request(`${ORIGIN}/blog/pillar-pages-that-rank`));
      const html = await article.text();
      expect(html).toContain(`<link rel="canonical" href="${ORIGIN}/blog/pillar-pages-that-rank">`);
      const head = await handle(new Request(`${ORIGIN}/account`, { method: 'HEAD' }));
      expect(head.status).toBe(200);
      expect(await head.text()).toBe('');
      const missing = await handle(new Request(`${ORIGIN}/no-such-page`));
      expect(missing.status).toBe(404);
      expect(missing.headers.get('cache-control')).toBe('no-store');
      expect(await missing.text()).toContain('<html');
      // The API beside them still answers JSON.
      expect((await handle(new Request(`${ORIGIN}/api/public/blogs`))).headers.get('content-type')).toContain('application/json');
    } finally {
      await handle.close();
    }
  });

  it("leaves the platform's global Request and Response in place when it serves a page", async () => {
    // A process of its own: this worker's globals may already be Hono's, put there by another suite's server.
    const script = `const [Request0, Response0] = [globalThis.Request, globalThis.Response];
const { createFunctionHandler } = await import(${JSON.stringify(SERVERLESS)});
const handle = createFunctionHandler(process.env);
const page = await handle(new Request('${ORIGIN}/'));
await page.arrayBuffer();
console.log(JSON.stringify({ status: page.status, same: globalThis.Request === Request0 && globalThis.Response === Response0 }));
await handle.close();
process.exit(0);`;
    const run = spawnSync(process.execPath, ['--input-type=module', '-e', script], {
      env: { ...env, PATH: process.env.PATH ?? '', DIST_DIR: inject('testEnv').distDir },
      encoding: 'utf8',
      timeout: 60_000,
    });
    expect(JSON.parse(run.stdout.trim().split('\n').at(-1) ?? '{}'), run.stderr).toEqual({ status: 200, same: true });
  });

  it('answers the busiest answers from memory as the app does, and steps aside for a reader the access rule refuses', async () => {
    const handle = createFunctionHandler({ ...env, AUTH_AUTOCONFIRM: 'true' });
    const get = (path: string, headers: Record<string, string> = {}) => handle(new Request(`${ORIGIN}${path}`, { headers }));
    const signUp = async (email: string) => {
      const answer = await handle(
        new Request(`${ORIGIN}/auth/v1/signup`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ email, password: 'a long enough password 1' }),
        }),
        { ip: '203.0.113.22' },
      );
      return ((await answer.json()) as { access_token?: string; user?: { id: string } }).access_token;
    };
    try {
      const first = await get('/api/public/blogs');
      const second = await get('/api/public/blogs', { 'accept-encoding': 'identity' });
      expect(second.status).toBe(200);
      expect(await second.text()).toBe(await first.text());
      for (const name of ['etag', 'cache-control', 'content-type', 'vary', 'x-content-type-options'])
        expect(second.headers.get(name), name).toBe(first.headers.get(name));
      expect((await get('/api/public/blogs', { 'if-none-match': first.headers.get('etag')! })).status).toBe(304);
      expect((await get('/api/public/blogs', { 'accept-encoding': 'br' })).headers.get('content-encoding')).toBe('br');

      // A premium member's body, twice (the second from memory); a free member is refused by the app.
      const premium = await signUp('premium-fn@example.test');
      const free = await signUp('free-fn@example.test');
      await database.db.update(profiles).set({ accessLevel: 'premium' }).where(eq(profiles.email, 'premium-fn@example.test'));
      const body = '/api/content/blogs/ecommerce-launch-first-90-days/body';
      const bodies = [];
      for (let i = 0; i < 2; i += 1) {
        const answer = await get(body, { authorization: `Bearer ${premium}` });
        expect(answer.status).toBe(200);
        expect(answer.headers.get('cache-control')).toContain('private');
        bodies.push(await answer.text());
      }
      expect(bodies[1]).toBe(bodies[0]);
      expect((await get(body, { authorization: `Bearer ${free}` })).status).toBe(403);
      expect((await get(body)).status).toBe(401);
    } finally {
      await handle.close();
    }
  });

  it('will not start without a mail server and a bucket, naming both in the log only', async () => {
    const logged = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    try {
      const { SMTP_URL: _smtp, S3_BUCKET: _bucket, ...without } = env;
      const handle = createFunctionHandler(without);
      const answer = await handle(new Request(`${ORIGIN}/api/public/blogs`));
      expect(answer.status).toBe(503);
      const message = String(logged.mock.calls[0]?.[0]);
      expect(message).toContain('SMTP_URL: required in a serverless function');
      expect(message).toContain('S3_BUCKET: required in a serverless function');
      expect(await createScheduledHandler(without)()).toBeUndefined();
    } finally {
      logged.mockRestore();
    }
  });
});
