/**
 * Newsletter double opt-in through the real server (pages included) on both databases: GET on the
 * confirmation link changes nothing, the POST confirms, unsubscribing works (page and one-click),
 * repeats are harmless, bad links and bad input get clear errors, and abuse limits hold.
 */
import { desc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, inject, it } from 'vitest';
import { loadConfig } from '../../functions/config.ts';
import { openDatabase, type Database } from '../../functions/platform/db/client.ts';
import { emails } from '../../functions/email/tables.ts';
import { newsletterSubscribers } from '../../functions/newsletter/tables.ts';
import { rateLimits } from '../../functions/platform/abuse/tables.ts';
import { startServer, type RunningServer } from '../../functions/main.ts';
import { createTokens } from '../../functions/platform/tokens.ts';
import { loadSigningSecret } from '../../functions/platform/secrets/service.ts';
import { createSecretStore } from '../../functions/platform/secrets/store.ts';
import { CONTENT_DIR } from '../support/app.ts';
import { DATABASE_KINDS, migratedDataDir, pgAdminUrl } from '../support/databases.ts';
import { quietLogger } from '../support/fixtures.ts';
import { createTestDatabase } from '../support/postgres.ts';
import { tempDir } from '../support/temp.ts';

describe.each(DATABASE_KINDS)('newsletter on %s', (kind) => {
  let server: RunningServer;
  let base: string;
  let db: Database['db'];
  let probe: Database | undefined;
  let ip = 0;

  beforeAll(async () => {
    const env: Record<string, string> = {
      PORT: '0',
      DATA_DIR: kind === 'pglite' ? await migratedDataDir('newsletter') : await tempDir('newsletter'),
      DIST_DIR: inject('testEnv').distDir,
      CONTENT_DIR,
      LOG_LEVEL: 'silent',
      TRUST_PROXY: '1',
      EMAIL_WORKER: 'false',
    };
    // On Postgres the server is a deployment: the test checkout is asked for on purpose.
    if (kind === 'postgres') Object.assign(env, { DATABASE_URL: await createTestDatabase(pgAdminUrl(), 'newsletter'), PAYMENTS: 'test' });
    const config = loadConfig(env);
    server = await startServer(config, quietLogger());
    base = server.url;
    // Inspect the database the server writes: a second handle on Postgres; on PGlite, the server's
    // own folder cannot be opened twice, so the checks go through what the API and pages show.
    if (kind === 'postgres') {
      probe = await openDatabase(config.database, quietLogger());
      db = probe.db;
    }
  });
  afterAll(async () => {
    await server?.close();
    await probe?.close();
  });
  beforeEach(() => {
    ip += 1; // a fresh client address per test keeps the per-IP limit out of the way
  });

  const post = (path: string, body: unknown, headers: Record<string, string> = {}) =>
    fetch(`${base}${path}`, {
      method: 'POST',
      redirect: 'manual',
      headers: { 'content-type': 'application/json', 'x-forwarded-for': `10.0.0.${ip}`, ...headers },
      body: typeof body === 'string' ? body : JSON.stringify(body),
    });
  const form = (path: string, fields: Record<string, string>) =>
    fetch(`${base}${path}`, {
      method: 'POST',
      redirect: 'manual',
      headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-forwarded-for': `10.0.0.${ip}` },
      body: new URLSearchParams(fields).toString(),
    });

  async function latestMailTo(address: string) {
    const [mail] = await db.select().from(emails).where(eq(emails.to, address)).orderBy(desc(emails.createdAt)).limit(1);
    return mail!;
  }
  const subscriber = async (address: string) =>
    (await db.select().from(newsletterSubscribers).where(eq(newsletterSubscribers.email, address)))[0];
  /** A link from a mail, pointed at this test server (the configured site URL has port 0). */
  const linkIn = (text: string, path: string) => {
    const url = new URL(new RegExp(`https?://[^\\s"]+${path}\\?token=[\\w.-]+`).exec(text)![0]);
    return `${base}${url.pathname}${url.search}`;
  };

  it('answers 202 pending and queues a confirmation mail with list headers', async () => {
    const res = await post('/api/newsletter/subscribe', { email: 'Reader@Example.com ', source: '/blog' });
    expect(res.status).toBe(202);
    expect(await res.json()).toEqual({ status: 'pending' });
    if (kind !== 'postgres') return;
    expect(await subscriber('reader@example.com')).toMatchObject({ status: 'pending', consentSource: '/blog' });
    const mail = await latestMailTo('reader@example.com');
    expect(mail).toMatchObject({ template: 'newsletter-confirm', status: 'queued' });
    expect(mail.headers['List-Unsubscribe']).toMatch(/^<.+\/api\/newsletter\/unsubscribe\?token=/);
    expect(mail.headers['List-Unsubscribe-Post']).toBe('List-Unsubscribe=One-Click');
    expect(mail.bodyText).toContain('/newsletter/confirm?token=');
  });

  if (kind === 'postgres') {
    it('does not confirm on GET; confirms on POST; confirming again is harmless', async () => {
      await post('/api/newsletter/subscribe', { email: 'scanner@example.com' });
      const confirmUrl = linkIn((await latestMailTo('scanner@example.com')).bodyText, '/newsletter/confirm');
      const page = await fetch(confirmUrl);
      expect(page.status).toBe(200);
      const html = await page.text();
      expect(html).toContain('Confirm subscription');
      expect(html).toMatch(/<form method="post" action="\/api\/newsletter\/confirm"/);
      expect((await subscriber('scanner@example.com'))!.status).toBe('pending');

      const token = new URL(confirmUrl).searchParams.get('token')!;
      const confirmed = await form('/api/newsletter/confirm', { token });
      expect(confirmed.status).toBe(303);
      expect(confirmed.headers.get('location')).toBe('/newsletter/confirmed');
      expect(await subscriber('scanner@example.com')).toMatchObject({ status: 'confirmed', confirmedAt: expect.any(Date) });
      expect((await latestMailTo('scanner@example.com')).template).toBe('newsletter-welcome');

      const again = await post('/api/newsletter/confirm', { token });
      expect(again.status).toBe(200);
      expect(await again.json()).toEqual({ status: 'already-confirmed' });
      expect((await fetch(`${base}/newsletter/confirmed`)).status).toBe(200);
    });

    it('refuses the confirmation form when another site posts it, and confirms nothing', async () => {
      await post('/api/newsletter/subscribe', { email: 'csrf@example.com' });
      const token = new URL(linkIn((await latestMailTo('csrf@example.com')).bodyText, '/newsletter/confirm')).searchParams.get('token')!;
      const crossSite: Record<string, string>[] = [{ origin: 'https://evil.example' }, { 'sec-fetch-site': 'cross-site' }];
      for (const headers of crossSite) {
        const res = await fetch(`${base}/api/newsletter/confirm`, {
          method: 'POST',
          redirect: 'manual',
          headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
          body: new URLSearchParams({ token }).toString(),
        });
        expect(res.status).toBe(403);
        expect(await res.json()).toMatchObject({ error: { code: 'forbidden', requestId: expect.any(String) } });
      }
      expect((await subscriber('csrf@example.com'))!.status).toBe('pending');
      // The same form from our own pages goes through.
      const own = await fetch(`${base}/api/newsletter/confirm`, {
        method: 'POST',
        redirect: 'manual',
        headers: { 'content-type': 'application/x-www-form-urlencoded', origin: new URL(base).origin, 'sec-fetch-site': 'same-origin' },
        body: new URLSearchParams({ token }).toString(),
      });
      expect(own.status).toBe(303);
      expect((await subscriber('csrf@example.com'))!.status).toBe('confirmed');
    });

    it('keeps one subscriber when subscribing twice, and sends nothing to a confirmed address', async () => {
      await post('/api/newsletter/subscribe', { email: 'twice@example.com' });
      await post('/api/newsletter/subscribe', { email: 'twice@example.com' });
      expect(await db.select().from(newsletterSubscribers).where(eq(newsletterSubscribers.email, 'twice@example.com'))).toHaveLength(1);
      const token = new URL(linkIn((await latestMailTo('twice@example.com')).bodyText, '/newsletter/confirm')).searchParams.get('token')!;
      expect((await post('/api/newsletter/confirm', { token })).status).toBe(200);
      const before = (await db.select().from(emails).where(eq(emails.to, 'twice@example.com'))).length;
      expect((await post('/api/newsletter/subscribe', { email: 'twice@example.com' })).status).toBe(202);
      expect(await db.select().from(emails).where(eq(emails.to, 'twice@example.com'))).toHaveLength(before);
    });

    it('unsubscribes from the page (GET shows a button, POST acts) and by one-click POST', async () => {
      await post('/api/newsletter/subscribe', { email: 'leaving@example.com' });
      const mail = await latestMailTo('leaving@example.com');
      const pageUrl = linkIn(mail.bodyText, '/newsletter/unsubscribe');
      const page = await fetch(pageUrl);
      expect(await page.text()).toContain('Unsubscribe');
      expect((await subscriber('leaving@example.com'))!.status).toBe('pending');
      const done = await form('/api/newsletter/unsubscribe', { token: new URL(pageUrl).searchParams.get('token')! });
      expect(done.status).toBe(303);
      expect(done.headers.get('location')).toBe('/newsletter/unsubscribed');
      expect((await subscriber('leaving@example.com'))!.status).toBe('unsubscribed');

      await post('/api/newsletter/subscribe', { email: 'oneclick@example.com' });
      const header = /<([^>]+)>/.exec((await latestMailTo('oneclick@example.com')).headers['List-Unsubscribe']!)![1]!;
      const oneClick = `${base}${new URL(header).pathname}${new URL(header).search}`;
      const res = await fetch(oneClick, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: 'List-Unsubscribe=One-Click',
      });
      expect(res.status).toBe(200);
      expect((await subscriber('oneclick@example.com'))!.status).toBe('unsubscribed');
      expect(
        (
          await fetch(oneClick, {
            method: 'POST',
            headers: { 'content-type': 'application/x-www-form-urlencoded' },
            body: 'List-Unsubscribe=One-Click',
          })
        ).status,
      ).toBe(200);
    });

    it('starts over after unsubscribing: old confirmation links stop working', async () => {
      await post('/api/newsletter/subscribe', { email: 'comeback@example.com' });
      const oldToken = new URL(linkIn((await latestMailTo('comeback@example.com')).bodyText, '/newsletter/confirm')).searchParams.get(
        'token',
      )!;
      const unsubscribe = new URL(
        linkIn((await latestMailTo('comeback@example.com')).bodyText, '/newsletter/unsubscribe'),
      ).searchParams.get('token')!;
      await post('/api/newsletter/unsubscribe', { token: unsubscribe });
      await db.delete(rateLimits);
      await post('/api/newsletter/subscribe', { email: 'comeback@example.com' });
      expect(await subscriber('comeback@example.com')).toMatchObject({ status: 'pending', tokenVersion: 2 });
      const stale = await post('/api/newsletter/confirm', { token: oldToken });
      expect(stale.status).toBe(400);
      expect(await stale.json()).toMatchObject({ error: { code: 'bad_request', message: expect.stringContaining('no longer valid') } });
      const viaForm = await form('/api/newsletter/confirm', { token: oldToken });
      expect(viaForm.headers.get('location')).toBe('/newsletter/confirm?error=stale');
      expect(await (await fetch(`${base}/newsletter/confirm?error=stale`)).text()).toContain('no longer valid');
    });

    it('tells an expired confirmation link apart from a forged one', async () => {
      await post('/api/newsletter/subscribe', { email: 'slow@example.com' });
      const id = (await subscriber('slow@example.com'))!.id;
      const tokens = createTokens(await loadSigningSecret(createSecretStore(db)));
      const expired = await tokens.sign('newsletter-confirm', { sub: id, v: 1 }, 1);
      await new Promise((r) => setTimeout(r, 1100));
      expect(await (await post('/api/newsletter/confirm', { token: expired })).json()).toMatchObject({
        error: { message: expect.stringContaining('expired') },
      });
      const forged = await createTokens(new TextEncoder().encode('x'.repeat(48))).sign('newsletter-confirm', { sub: id, v: 1 });
      expect(await (await post('/api/newsletter/confirm', { token: forged })).json()).toMatchObject({
        error: { message: expect.stringContaining('not valid') },
      });
      const wrongPurpose = await tokens.sign('newsletter-unsubscribe', { sub: id });
      expect((await post('/api/newsletter/confirm', { token: wrongPurpose })).status).toBe(400);
    });

    it('limits subscriptions per address and per client address', async () => {
      for (let i = 0; i < 3; i++) expect((await post('/api/newsletter/subscribe', { email: 'limit@example.com' })).status).toBe(202);
      const limited = await post('/api/newsletter/subscribe', { email: 'limit@example.com' });
      expect(limited.status).toBe(429);
      expect(await limited.json()).toMatchObject({
        error: { code: 'rate_limited', message: expect.stringContaining('Too many requests') },
      });
      expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
      ip += 1;
      for (let i = 0; i < 10; i++) await post('/api/newsletter/subscribe', { email: `many${i}@example.com` });
      expect((await post('/api/newsletter/subscribe', { email: 'many-more@example.com' })).status).toBe(429);
    });

    it('accepts a filled honeypot quietly and stores nothing', async () => {
      const res = await post('/api/newsletter/subscribe', { email: 'bot@example.com', website: 'https://spam.example' });
      expect(res.status).toBe(202);
      expect(await subscriber('bot@example.com')).toBeUndefined();
    });
  }

  it.each([
    ['a missing email', {}, 'email'],
    ['an address without @', { email: 'not-an-email' }, 'email'],
    ['a number', { email: 42 }, 'email'],
    ['an oversized address', { email: `${'a'.repeat(250)}@example.com` }, 'email'],
    ['a source that is not a path', { email: 'ok@example.com', source: 'javascript:alert(1)' }, 'source'],
  ])('rejects %s with 422 naming the field', async (_label, body, field) => {
    const res = await post('/api/newsletter/subscribe', body);
    expect(res.status).toBe(422);
    expect(await res.json()).toMatchObject({ error: { code: 'validation_failed', fields: { [field]: expect.any(Array) } } });
  });

  it('rejects unreadable JSON with 400 and other content types with 415', async () => {
    expect((await post('/api/newsletter/subscribe', '{"email":')).status).toBe(400);
    const text = await post('/api/newsletter/subscribe', 'email=a@b.co', { 'content-type': 'text/plain' });
    expect(text.status).toBe(415);
    expect(await text.json()).toMatchObject({ error: { code: 'unsupported_media_type' } });
  });

  it('rejects a missing or bogus token with 400', async () => {
    expect((await post('/api/newsletter/confirm', {})).status).toBe(422);
    const bogus = await post('/api/newsletter/confirm', { token: 'not.a.token' });
    expect(bogus.status).toBe(400);
    expect((await post('/api/newsletter/unsubscribe', { token: 'x'.repeat(3000) })).status).toBe(422);
    const page = await fetch(`${base}/newsletter/confirm?token=%3Cscript%3E`);
    const html = await page.text();
    expect(html).toContain('This link is incomplete');
    expect(html).not.toContain('<script>');
  });
});
