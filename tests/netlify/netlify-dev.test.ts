/**
 * The card's shape, run locally as Netlify runs it (issue 33): a copy of the app on a pull request's
 * branch, built as its Deploy Preview by `netlify build --offline --context deploy-preview` (the
 * build command `npm run build:netlify`, then the functions packaged as Netlify zips them) from
 * Netlify's own variables only (the preview's address, branch and commit), on a Postgres database
 * through PgBouncer in transaction mode, served by
 * `netlify dev --offline`: published files from its static server, everything else through the API
 * function, each call in a fresh worker (a cold instance), and the scheduled function called as
 * Netlify calls it. Outside services are local: SMTP, an S3 server and an OpenAI-compatible model.
 *
 * It shows the preview's marks and /preview with the branch's change and "view as", the pages from
 * the files and on demand, the public API, sign-up and sign-in through
 * supabase-js, a gated body at each level, the test checkout, a signed payment webhook delivered twice
 * at once and applied once, an AI draft, a scheduled round sending a queued mail once however many
 * rounds run, and no gated text in anything a visitor or a free member is answered.
 *
 * One emulation gap: netlify dev's proxy answers a function's 403 or 404 by asking the function again
 * for `.html` and `/index.html` variants of the address (its CDN emulation for files), so a refusal
 * reaches the client as the last variant's 404. The exact statuses are checked where the platform
 * does not rewrite them: through the handler (tests/integration/function-handler.test.ts); here a
 * refusal is any 4xx that carries nothing gated.
 */
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { createClient } from '@supabase/supabase-js';
import pg from 'pg';
import { eq } from 'drizzle-orm';
import Stripe from 'stripe';
import { chromium } from '@playwright/test';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { embeddedWebhookSecret } from '../../functions/payments/index.ts';
import { openDatabase, type Database } from '../../functions/platform/db/client.ts';
import { DEPLOY_RECORD } from '../../functions/platform/deploy/netlify.ts';
import { loadSigningSecret } from '../../functions/platform/secrets/service.ts';
import { createSecretStore } from '../../functions/platform/secrets/store.ts';
import { newsletterSubscribers } from '../../functions/newsletter/tables.ts';
import { DEMO_PASSWORD } from '../../functions/users/demo.ts';
import { profiles } from '../../functions/users/tables.ts';
import { pgAdminUrl, pooledEnv } from '../support/databases.ts';
import { CHROMIUM_ARGS, HEADLESS_SHELL_PATH } from '../support/chromium.ts';
import { makeBlogInput, quietLogger } from '../support/fixtures.ts';
import { queueMail } from '../support/outbox.ts';
import { pngOfSize } from '../support/uploads.ts';
import { copyApp, netlifyBuild, startNetlifyDev, type NetlifyDev } from '../support/netlify.ts';
import { createTestDatabase, freePort } from '../support/postgres.ts';
import { startS3 } from '../support/s3.ts';
import { startTestSmtp, type TestSmtp } from '../support/smtp.ts';

const PASSWORD = 'netlify suite password 1';
/** The pull request's branch, and the article it adds. */
const BRANCH = 'new-pricing';
const BRANCH_ARTICLE = { file: 'content/blog/preview-only-pricing-pages.mdx', title: 'Preview Only: Pricing Pages That Convert' };
const PREMIUM_ARTICLE = 'ecommerce-launch-first-90-days';
const PREMIUM_SENTINEL = 'PREMIUM-SENTINEL-7f3a';
const DRAFT = {
  title: 'Local SEO for Bakeries',
  description: 'How a neighbourhood bakery gets found on maps and in search, step by step.',
  body: '## Why it matters\n\nMost customers search before they walk in.\n\n- Claim your profile\n- Ask for reviews',
  tags: ['Local SEO', 'Small Business'],
};

/** An OpenAI-compatible server answering every chat completion with DRAFT. */
async function startModel(): Promise<{ url: string; calls: () => number; close: () => Promise<void> }> {
  let calls = 0;
  const server: Server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      calls += 1;
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(
        JSON.stringify({
          id: 'chatcmpl-netlify',
          object: 'chat.completion',
          created: 1_795_000_000,
          model: 'test-model',
          choices: [{ index: 0, finish_reason: 'stop', message: { role: 'assistant', content: JSON.stringify(DRAFT), refusal: null } }],
        }),
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`,
    calls: () => calls,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

describe('Netlify: netlify build and netlify dev --offline', () => {
  let app: string;
  let commit: string;
  /** The preview's own address, as the build worked it out from Netlify's variables. */
  let previewOrigin: string;
  let productionUrl: string;
  let dev: NetlifyDev;
  let smtp: TestSmtp;
  let s3: Awaited<ReturnType<typeof startS3>>;
  let model: Awaited<ReturnType<typeof startModel>>;
  let database: Database;
  let base: string;
  const members = {} as Record<'free' | 'subscriber' | 'premium' | 'editor', { id: string; token: string }>;

  beforeAll(async () => {
    [smtp, s3, model] = await Promise.all([startTestSmtp(), startS3('netlify'), startModel()]);
    const directUrl = await createTestDatabase(pgAdminUrl(), 'netlify');
    // Production's database, set for all contexts as a careless set-up would: the preview must never touch it.
    productionUrl = await createTestDatabase(pgAdminUrl(), 'netlify_production');
    const port = await freePort();
    base = `http://localhost:${port}`;
    // What any deploy is given (the site's address, payments and preview mode come from Netlify's own variables).
    const env = {
      // Netlify DB's branch for this preview: pooled and direct.
      NETLIFY_DATABASE_URL: pooledEnv(directUrl).DATABASE_URL,
      NETLIFY_DATABASE_URL_UNPOOLED: directUrl,
      DATABASE_URL: productionUrl,
      SMTP_URL: smtp.url,
      S3_BUCKET: s3.bucket,
      S3_ENDPOINT: s3.endpoint,
      S3_ACCESS_KEY_ID: 'S3RVER',
      S3_SECRET_ACCESS_KEY: 'S3RVER',
      AUTH_AUTOCONFIRM: 'true',
      AUTH_BCRYPT_COST: '4',
      OPENAI_API_KEY: 'sk-test-local',
      OPENAI_BASE_URL: model.url,
      LOG_LEVEL: 'warn',
    };
    const article = readFileSync(
      path.resolve(import.meta.dirname, '../../content/blog/ai-automation-small-business-starter-guide.mdx'),
      'utf8',
    );
    ({ dir: app, commit } = copyApp('netlify-app', {
      name: BRANCH,
      files: { [BRANCH_ARTICLE.file]: article.replace(/^title: .*$/m, `title: "${BRANCH_ARTICLE.title}"`) },
    }));
    netlifyBuild(app, { ...env, HEAD: BRANCH, COMMIT_REF: commit }, 'deploy-preview');
    previewOrigin = (JSON.parse(readFileSync(path.join(app, 'dist', DEPLOY_RECORD), 'utf8')) as { SITE_URL: string }).SITE_URL;
    // The functions start from the deploy record the build wrote: no address, branch or payment mode here.
    dev = await startNetlifyDev(app, port, env);
    database = await openDatabase({ kind: 'postgres', url: directUrl, poolSize: 2 }, quietLogger());
  }, 240_000);
  afterAll(async () => {
    await dev?.stop();
    await database?.close();
    await Promise.all([smtp?.close(), s3?.close(), model?.close()]);
  });

  const mailTo = (address: string) => smtp.received.filter((mail) => mail.to.includes(address));
  const call = (p: string, init: RequestInit & { token?: string } = {}) => {
    const headers = new Headers(init.headers);
    if (init.token) headers.set('authorization', `Bearer ${init.token}`);
    if (init.body !== undefined) headers.set('content-type', 'application/json');
    if (init.method && init.method !== 'GET') headers.set('origin', base);
    return fetch(`${base}${p}`, { ...init, headers });
  };
  const supabase = () =>
    createClient(base, 'public-anon-key', { auth: { persistSession: false, autoRefreshToken: false, detectSessionInUrl: false } });

  it("runs as the pull request's Deploy Preview: marked, unindexed, /preview with the branch's change, and 'view as'", async () => {
    const home = await fetch(`${base}/`);
    const html = await home.text();
    expect(html).toContain(`Deploy preview of <strong>${BRANCH}</strong> at <code>${commit.slice(0, 7)}</code>`);
    expect(html).toContain('<meta name="robots" content="noindex, nofollow">');
    expect(home.headers.get('x-robots-tag')).toBe('noindex, nofollow');
    // The address is the preview's own: DEPLOY_PRIME_URL as Netlify's build gave it (offline, from the branch).
    expect(previewOrigin).toMatch(new RegExp(`^https://${BRANCH}--[a-z0-9-]+\\.netlify\\.app$`));
    expect(html).toContain(`<link rel="canonical" href="${previewOrigin}/">`);
    const api = await fetch(`${base}/api/public/blogs`);
    expect(api.headers.get('x-robots-tag')).toBe('noindex, nofollow');
    expect(((await api.json()) as { title: string }[]).map((item) => item.title)).toContain(BRANCH_ARTICLE.title);
    const preview = await fetch(`${base}/preview`);
    expect(preview.status).toBe(200);
    const page = await preview.text();
    expect(page).toContain(BRANCH_ARTICLE.title);
    expect(page).toContain('premium@demo.beacongrowth.co');
    // "View as": the demo accounts exist on the preview's database.
    const viewAs = await supabase().auth.signInWithPassword({ email: 'premium@demo.beacongrowth.co', password: DEMO_PASSWORD });
    expect(viewAs.error).toBeNull();
    expect((await call('/api/payments/mode')).headers.get('cache-control')).toMatch(/^public/);
    expect(await (await call('/api/payments/mode')).json()).toEqual({ mode: 'test' });
  });

  it('serves home and the lists as published files, with the security headers the Node server sends', async () => {
    for (const page of ['/', '/blog', '/courses', '/tools', '/market', '/services/seo-optimization', '/pricing']) {
      const res = await fetch(`${base}${page}`);
      expect(res.status, page).toBe(200);
      const file = page === '/' ? 'index.html' : `${page.slice(1)}/index.html`;
      expect(await res.text(), page).toBe(readFileSync(path.join(app, 'dist/client', file), 'utf8'));
      expect(res.headers.get('x-frame-options'), page).toBe('DENY');
      expect(res.headers.get('content-security-policy'), page).toContain("frame-ancestors 'none'");
    }
    // The snapshots' policy carries their scripts' hashes (rendered per request, they have no <meta> policy).
    expect((await fetch(`${base}/blog`)).headers.get('content-security-policy')).toMatch(/script-src 'self' 'sha256-/);
    expect((await fetch(`${base}/_astro/`)).status).toBe(404);
  });

  it('renders the pages no file answers through the function, compressed, with validators and a CDN policy', async () => {
    const res = await fetch(`${base}/community`, { headers: { 'accept-encoding': 'br' } });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-encoding')).toBe('br');
    expect(res.headers.get('etag')).toBeTruthy();
    expect(res.headers.get('cache-control')).toMatch(/^public, max-age=0, s-maxage=\d+/);
    // Kept by Netlify's CDN, one copy for every edge node (the pages entry marks it; Netlify strips it before the browser).
    expect(res.headers.get('netlify-cdn-cache-control')).toMatch(/^public, durable, s-maxage=\d+, stale-while-revalidate=\d+$/);
    expect(await res.text()).toContain(`<link rel="canonical" href="${previewOrigin}/community">`);
    const missing = await fetch(`${base}/no-such-page`);
    expect(missing.status).toBe(404);
    expect(missing.headers.get('cache-control')).toBe('no-store');
  });

  it('answers the public API from the function', async () => {
    const res = await fetch(`${base}/api/public/blogs`);
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toMatch(/^public/);
    const items = (await res.json()) as { slug: string }[];
    expect(items.map((item) => item.slug)).toContain(PREMIUM_ARTICLE);
  });

  it('signs members up and in through supabase-js, and opens a gated body to its level only', async () => {
    for (const [who, level, role] of [
      ['free', 'free', 'member'],
      ['subscriber', 'subscriber', 'member'],
      ['premium', 'premium', 'member'],
      ['editor', 'free', 'editor'],
    ] as const) {
      const email = `${who}@netlify-suite.test`;
      const signUp = await supabase().auth.signUp({ email, password: PASSWORD });
      expect(signUp.error, who).toBeNull();
      const id = signUp.data.user!.id;
      await database.db.update(profiles).set({ accessLevel: level, role }).where(eq(profiles.id, id));
      const signIn = await supabase().auth.signInWithPassword({ email, password: PASSWORD });
      expect(signIn.error, who).toBeNull();
      members[who] = { id, token: signIn.data.session!.access_token };
    }
    const body = (token?: string) => call(`/api/content/blogs/${PREMIUM_ARTICLE}/body`, { ...(token ? { token } : {}) });
    expect((await body()).status).toBe(401);
    for (const who of ['free', 'subscriber'] as const) {
      const refused = await body(members[who].token);
      expect(refused.status, who).toBeGreaterThanOrEqual(400);
      expect(refused.status, who).toBeLessThan(500);
      expect(await refused.text(), who).not.toContain(PREMIUM_SENTINEL);
    }
    const opened = await body(members.premium.token);
    expect(opened.status).toBe(200);
    expect(opened.headers.get('cache-control')).toBe('private, no-store');
    expect(opened.headers.has('netlify-cdn-cache-control')).toBe(false);
    expect(await opened.text()).toContain(PREMIUM_SENTINEL);
  });

  it('takes a member through the test checkout, mails the receipt within seconds, and applies a webhook sent twice at once once', async () => {
    const { token, id } = members.free;
    const session = await call('/api/payments/stripe/create-session', {
      method: 'POST',
      token,
      body: JSON.stringify({ priceId: 'price_premium_monthly', successUrl: '/payment/success', cancelUrl: '/pricing?canceled=true' }),
    });
    expect(session.status, await session.clone().text()).toBe(200);
    const { sessionId } = (await session.json()) as { sessionId: string };
    const paid = await call(`/api/payments/test/checkout/${sessionId}/pay`, {
      method: 'POST',
      body: JSON.stringify({ cardNumber: '4242 4242 4242 4242', expiry: '12/34', cvc: '123' }),
    });
    expect(paid.status, await paid.clone().text()).toBe(200);
    const me = await call('/api/users/me', { token });
    expect(((await me.json()) as { viewer: { accessLevel: string } }).viewer.accessLevel).toBe('premium');
    await expect.poll(() => mailTo('free@netlify-suite.test').length, { timeout: 5_000 }).toBe(1);

    const secret = embeddedWebhookSecret(await loadSigningSecret(createSecretStore(database.db)));
    const payload = JSON.stringify({
      object: 'event',
      created: Math.floor(Date.now() / 1000),
      id: `evt_completed_${sessionId}`,
      type: 'checkout.session.completed',
      data: { object: { id: sessionId } },
    });
    const header = new Stripe('sk_test_signing_only').webhooks.generateTestHeaderString({ payload, secret });
    const deliveries = await Promise.all(
      [1, 2].map(() =>
        fetch(`${base}/api/payments/stripe/webhook`, {
          method: 'POST',
          headers: { 'stripe-signature': header, 'content-type': 'application/json' },
          body: payload,
        }),
      ),
    );
    const answers = (await Promise.all(deliveries.map((res) => res.json()))) as { received: number; applied: number }[];
    expect(answers.map((a) => a.received)).toEqual([1, 1]);
    expect(answers.reduce((sum, a) => sum + a.applied, 0)).toBe(1);
    const [profile] = await database.db.select().from(profiles).where(eq(profiles.id, id));
    expect(profile!.accessLevel).toBe('premium');
    expect(mailTo('free@netlify-suite.test')).toHaveLength(1);
  });

  it('shows an article written at run time on the published home page, the list and the site search, through their scripts', async () => {
    const title = 'Written After The Netlify Build';
    const created = await call('/api/content/blogs', {
      method: 'POST',
      token: members.editor.token,
      body: JSON.stringify(makeBlogInput({ slug: 'written-after-the-netlify-build', title })),
    });
    expect(created.status, await created.clone().text()).toBe(201);
    // The published files are the build's, without it.
    expect(await (await fetch(`${base}/`)).text()).not.toContain(title);
    const browser = await chromium.launch({ executablePath: HEADLESS_SHELL_PATH, args: CHROMIUM_ARGS });
    try {
      const page = await browser.newPage();
      await page.goto(`${base}/`);
      const latest = page.locator('section', { has: page.locator('#latest-posts-heading') });
      await expect.poll(() => latest.getByRole('link', { name: title }).count(), { timeout: 15_000 }).toBe(1);
      expect(await latest.getByRole('listitem').count()).toBe(3);
      await page.goto(`${base}/blog`);
      await expect.poll(() => page.getByRole('link', { name: title }).count(), { timeout: 15_000 }).toBeGreaterThan(0);
      // The site search finds it too: the index's entry comes from the pages function, which adds run-time content.
      await page.goto(`${base}/search?q=${encodeURIComponent(title)}`);
      await expect.poll(() => page.locator('a[data-result]', { hasText: title }).count(), { timeout: 15_000 }).toBe(1);
    } finally {
      await browser.close();
    }
  });

  it("confirms a newsletter sign-up from the mailed link in Chromium, on the preview's own address", async () => {
    const email = 'reader@netlify-suite.test';
    const subscribed = await call('/api/newsletter/subscribe', { method: 'POST', body: JSON.stringify({ email, source: '/' }) });
    expect(subscribed.status, await subscribed.clone().text()).toBe(202);
    await expect.poll(() => mailTo(email).length, { timeout: 5_000 }).toBe(1);
    const mail = await smtp.parse(mailTo(email)[0]!);
    // The mail names the preview's own address; here that address is the dev server's.
    expect(mail.html).toContain(`href="${previewOrigin}/newsletter/confirm?token=`);
    const browser = await chromium.launch({ executablePath: HEADLESS_SHELL_PATH, args: CHROMIUM_ARGS });
    try {
      const page = await browser.newPage();
      await page.setContent(mail.html!.replaceAll(previewOrigin, base));
      await page.getByRole('link', { name: 'Confirm my subscription' }).click();
      await page.getByRole('button', { name: 'Confirm subscription' }).click();
      await expect.poll(() => page.getByRole('heading', { level: 1, name: "You're subscribed!" }).count(), { timeout: 15_000 }).toBe(1);
    } finally {
      await browser.close();
    }
    const [row] = await database.db.select().from(newsletterSubscribers).where(eq(newsletterSubscribers.email, email));
    expect(row!.status).toBe('confirmed');
  });

  it('takes a support attachment larger than a function may receive, sent straight to the bucket', async () => {
    const { token } = members.subscriber;
    const bytes = pngOfSize(7 * 1024 * 1024);
    const offered = await call('/api/support/attachments', {
      method: 'POST',
      token,
      body: JSON.stringify({ contentType: 'image/png', size: bytes.length }),
    });
    expect(offered.status, await offered.clone().text()).toBe(201);
    const offer = (await offered.json()) as { key: string; url: string; headers: Record<string, string> };
    expect((await fetch(offer.url, { method: 'PUT', headers: offer.headers, body: new Uint8Array(bytes) })).status).toBe(200);
    const opened = await call('/api/support/requests', {
      method: 'POST',
      token,
      body: JSON.stringify({ subject: 'A large screenshot', message: 'Attached.', attachment: { key: offer.key, name: 'screen.png' } }),
    });
    expect(opened.status, await opened.clone().text()).toBe(201);
    const { id } = (await opened.json()) as { id: string };
    const read = (await (await call(`/api/support/requests/${id}`, { token })).json()) as { messages: { attachment?: { size: number } }[] };
    expect(read.messages[0]!.attachment).toMatchObject({ size: bytes.length });
  });

  it('drafts with the model through the function, for staff only', async () => {
    const ask = (token: string) =>
      call('/openai/generate', {
        method: 'POST',
        token,
        body: JSON.stringify({ prompt: 'Generate a blog about: local SEO for bakeries' }),
      });
    const refused = await ask(members.subscriber.token);
    expect([403, 404]).toContain(refused.status);
    const res = await ask(members.editor.token);
    expect(res.status, await res.clone().text()).toBe(200);
    expect(await res.json()).toMatchObject({ source: 'openai', content: { title: DRAFT.title, tags: DRAFT.tags } });
    expect(model.calls()).toBe(1);
  });

  it('sends a queued mail once when scheduled rounds overlap', async () => {
    const to = 'scheduled@netlify-suite.test';
    await queueMail(database.db, base, [to]);
    const rounds = await Promise.all([1, 2, 3].map(() => fetch(`${base}/.netlify/functions/background`, { method: 'POST' })));
    // netlify dev answers a scheduled function's call itself, once the round has run.
    expect(rounds.every((res) => res.ok)).toBe(true);
    await expect.poll(() => mailTo(to).length, { timeout: 5_000 }).toBe(1);
    expect((await fetch(`${base}/.netlify/functions/background`, { method: 'POST' })).ok).toBe(true);
    expect(mailTo(to)).toHaveLength(1);
  });

  it('answers no gated text to a visitor or a member below premium, on the pages and API answers they reach', async () => {
    const addresses = [
      '/',
      '/blog',
      `/blog/${PREMIUM_ARTICLE}`,
      '/community',
      '/sitemap.xml',
      '/rss.xml',
      '/api/public/blogs',
      `/api/public/blogs/${PREMIUM_ARTICLE}`,
      `/api/content/blogs/${PREMIUM_ARTICLE}/body`,
      '/api/users/me',
      '/api/users/me/feed',
    ];
    for (const token of [undefined, members.subscriber.token])
      for (const address of addresses) {
        const res = await call(address, token ? { token } : {});
        expect(res.status, address).toBeLessThan(500);
        expect(await res.text(), address).not.toContain(PREMIUM_SENTINEL);
      }
  });

  it("leaves production's database untouched after everything above: no migration, no demo account, no write", async () => {
    const production = new pg.Client({ connectionString: productionUrl });
    await production.connect();
    try {
      const { rows } = await production.query<{ count: string }>(
        "select count(*) from information_schema.tables where table_schema not in ('pg_catalog', 'information_schema')",
      );
      expect(Number(rows[0]!.count)).toBe(0);
    } finally {
      await production.end();
    }
  });
});
