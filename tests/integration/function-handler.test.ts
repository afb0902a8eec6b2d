/**
 * The app as a serverless function (functions/serverless.ts, netlify/functions/api.ts), called the way
 * the platform calls it: a web Request in, a Response out, no Node server. On a migrated Postgres it
 * answers the API; without DATABASE_URL, or on a database behind this build's migrations, it answers
 * 503 (naming the cause in the log only) and starts once the cause is gone; the entries' routes cover
 * every prefix the app answers and, for pages, every address no published file answers; their folder
 * holds function entries only.
 */
import { spawnSync } from 'node:child_process';
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import pg from 'pg';
import { afterEach, describe, expect, inject, it, onTestFinished, vi } from 'vitest';
import { eq } from 'drizzle-orm';
import { openDatabase } from '../../functions/platform/db/client.ts';
import { createFunctionHandler } from '../../functions/serverless.ts';
import { DEMO_PASSWORD } from '../../functions/users/demo.ts';
import { profiles } from '../../functions/users/tables.ts';
import { CONTENT_DIR } from '../support/app.ts';
import { pgAdminUrl } from '../support/databases.ts';
import { quietLogger } from '../support/fixtures.ts';
import { createTestDatabase } from '../support/postgres.ts';

const ENTRIES = path.resolve(import.meta.dirname, '../../netlify/functions');
const MIGRATE = path.resolve(import.meta.dirname, '../../scripts/migrate.ts');
const ORIGIN = 'https://beacon.example';
const PREMIUM_ARTICLE = 'ecommerce-launch-first-90-days';
const PREMIUM_SENTINEL = 'PREMIUM-SENTINEL-7f3a';

const env = (databaseUrl?: string) => ({
  ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
  // A function needs both (function-background.test.ts sends through them); these refuse connections.
  SMTP_URL: 'smtp://127.0.0.1:9',
  S3_BUCKET: 'function-handler',
  S3_ENDPOINT: 'http://127.0.0.1:9',
  CONTENT_DIR,
  SITE_URL: ORIGIN,
  PAYMENTS: 'test',
  AUTH_AUTOCONFIRM: 'true',
  AUTH_BCRYPT_COST: '4',
  LOG_LEVEL: 'silent',
});

const json = (body: unknown) => ({ method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });

afterEach(() => vi.restoreAllMocks());

describe('the app as a serverless function', () => {
  it('answers the API on a migrated Postgres: content, auth, bad input, unknown routes', async () => {
    const handle = createFunctionHandler(env(await createTestDatabase(pgAdminUrl(), 'fn', inject('testEnv').pgTemplate)));
    onTestFinished(() => handle.close());
    const blogs = await handle(new Request(`${ORIGIN}/api/public/blogs`));
    expect(blogs.status).toBe(200);
    expect(((await blogs.json()) as unknown[]).length).toBeGreaterThan(0);
    expect((await handle(new Request(`${ORIGIN}/healthz`))).status).toBe(200);

    const signUp = await handle(
      new Request(`${ORIGIN}/auth/v1/signup`, json({ email: 'fn@example.test', password: 'a long enough password 1' })),
      {
        ip: '203.0.113.9',
      },
    );
    expect(signUp.status).toBe(200);
    const { access_token: token } = (await signUp.json()) as { access_token: string };
    const me = await handle(new Request(`${ORIGIN}/api/users/me`, { headers: { authorization: `Bearer ${token}` } }));
    expect(me.status).toBe(200);
    expect(await me.json()).toMatchObject({ viewer: { email: 'fn@example.test', accessLevel: 'free' } });

    const refused = await handle(new Request(`${ORIGIN}/api/contact`, json({})), { ip: '203.0.113.9' });
    expect(refused.status).toBe(422);
    expect(refused.headers.get('content-type')).toContain('application/json');
    const unknown = await handle(new Request(`${ORIGIN}/api/no-such-route`));
    expect(unknown.status).toBe(404);
  });

  it('opens a gated body to its level only, answering each caller as the Node server does', async () => {
    const url = await createTestDatabase(pgAdminUrl(), 'fn_gated', inject('testEnv').pgTemplate);
    const handle = createFunctionHandler(env(url));
    const database = await openDatabase({ kind: 'postgres', url, poolSize: 1 }, quietLogger());
    onTestFinished(async () => {
      await handle.close();
      await database.close();
    });
    const body = (token?: string) =>
      handle(
        new Request(`${ORIGIN}/api/content/blogs/${PREMIUM_ARTICLE}/body`, token ? { headers: { authorization: `Bearer ${token}` } } : {}),
      );
    expect((await body()).status).toBe(401);
    for (const [level, status] of [
      ['free', 403],
      ['subscriber', 403],
      ['premium', 200],
    ] as const) {
      const email = `${level}-gated@example.test`;
      const signUp = await handle(new Request(`${ORIGIN}/auth/v1/signup`, json({ email, password: 'a long enough password 1' })), {
        ip: '203.0.113.10',
      });
      const { access_token: token, user } = (await signUp.json()) as { access_token: string; user: { id: string } };
      await database.db.update(profiles).set({ accessLevel: level }).where(eq(profiles.id, user.id));
      const answer = await body(token);
      expect(answer.status, level).toBe(status);
      expect((await answer.text()).includes(PREMIUM_SENTINEL), level).toBe(status === 200);
    }
  });

  it("seeds a preview's demo accounts as it starts, so /preview's 'view as' signs in", async () => {
    const handle = createFunctionHandler({
      ...env(await createTestDatabase(pgAdminUrl(), 'fn_preview', inject('testEnv').pgTemplate)),
      PREVIEW_OF: 'new-pricing',
    });
    onTestFinished(() => handle.close());
    const signIn = await handle(
      new Request(`${ORIGIN}/auth/v1/token?grant_type=password`, json({ email: 'premium@demo.beacongrowth.co', password: DEMO_PASSWORD })),
      { ip: '203.0.113.11' },
    );
    expect(signIn.status).toBe(200);
  });

  it('answers 503 without DATABASE_URL, naming the variable in the log only', async () => {
    const logged = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const answer = await createFunctionHandler(env())(new Request(`${ORIGIN}/api/public/blogs`));
    expect(answer.status).toBe(503);
    expect(answer.headers.get('cache-control')).toBe('no-store');
    expect(JSON.stringify(await answer.json())).not.toContain('DATABASE_URL');
    expect(String(logged.mock.calls[0]?.[0])).toContain('DATABASE_URL: required in a serverless function');
  });

  it('never migrates: a database behind the build answers 503 until the deploy step migrates it', async () => {
    const logged = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const url = await createTestDatabase(pgAdminUrl(), 'fn_empty');
    const handle = createFunctionHandler(env(url));
    onTestFinished(() => handle.close());
    expect((await handle(new Request(`${ORIGIN}/api/public/blogs`))).status).toBe(503);
    expect(String(logged.mock.calls[0]?.[0])).toContain('npm run migrate');
    // The deploy step asks for a database server rather than migrate a throwaway embedded one.
    const nowhere = spawnSync(process.execPath, [MIGRATE], { env: { PATH: process.env.PATH ?? '' }, encoding: 'utf8' });
    expect(nowhere.status).toBe(1);
    expect(nowhere.stderr).toContain('DATABASE_URL: npm run migrate applies migrations to a database server');
    // The deploy step; the same instance then starts on its next request.
    const migrate = spawnSync(process.execPath, [MIGRATE], { env: { PATH: process.env.PATH ?? '', DATABASE_URL: url }, encoding: 'utf8' });
    expect(migrate.status, migrate.stderr).toBe(0);
    expect(migrate.stdout).toContain('Migrations applied (Postgres).');
    expect((await handle(new Request(`${ORIGIN}/api/public/blogs`))).status).toBe(200);
  });

  it('reports a database whose migration record it may not read as unavailable, not as behind', async () => {
    const logged = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const url = new URL(await createTestDatabase(pgAdminUrl(), 'fn_rights', inject('testEnv').pgTemplate));
    const role = `fn_reader_${process.pid}_${Date.now().toString(36)}`;
    const admin = new pg.Client({ connectionString: url.toString() });
    await admin.connect();
    try {
      await admin.query(`create role ${role} login password 'reader'`);
      await admin.query('revoke all on schema drizzle from public');
    } finally {
      await admin.end();
    }
    Object.assign(url, { username: role, password: 'reader' });
    const handle = createFunctionHandler(env(url.toString()));
    onTestFinished(() => handle.close());
    expect((await handle(new Request(`${ORIGIN}/api/public/blogs`))).status).toBe(503);
    const message = String(logged.mock.calls[0]?.[0]);
    expect(message).toContain('Cannot reach the database');
    expect(message).toContain('permission denied');
    expect(message).not.toContain('npm run migrate');
  });

  it("routes the app's prefixes to the API entry and every other address no file answers to the pages entry, from a folder of entries only", async () => {
    const files = await readdir(ENTRIES);
    expect(files).toEqual(['api.ts', 'background.ts', 'pages.ts']);
    const api = (await import('../../netlify/functions/api.ts')) as { default: unknown; config: { path: string[] } };
    const pages = (await import('../../netlify/functions/pages.ts')) as { default: unknown; config: Record<string, unknown> };
    expect(typeof api.default).toBe('function');
    expect(typeof pages.default).toBe('function');
    const patterns = api.config.path.map((p) => new RegExp(`^${p.replace(/[.+?^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '.*')}$`));
    const routed = (url: string) => patterns.some((pattern) => pattern.test(url));
    for (const url of [
      '/api/public/blogs',
      '/api/content/blogs/x/body',
      '/api/payments/stripe/webhook',
      '/api/email/events',
      '/auth/v1/token',
      '/openai/generate',
      '/feeds/abc123/rss.xml',
      '/uploads/abc.png',
      '/events/launch-webinar.ics',
      '/healthz',
      '/readyz',
    ])
      expect(routed(url), url).toBe(true);
    // Pages are the CDN's files, else the pages entry's: every other address, published files first.
    for (const url of ['/', '/blog/some-article', '/events/launch-webinar', '/account']) expect(routed(url), url).toBe(false);
    expect(pages.config).toEqual({ path: '/*', excludedPath: api.config.path, preferStatic: true });
    // The background work: a scheduled function, a round a minute, reached by no URL.
    const scheduled = (await import('../../netlify/functions/background.ts')) as { config: unknown };
    expect(scheduled.config).toEqual({ schedule: '* * * * *' });
  });
});
