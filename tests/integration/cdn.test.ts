/**
 * A CDN in front: Debian's nginx with `proxy_cache` (tests/support/nginx.ts), which honours
 * Cache-Control like a CDN and keys its copies by URL alone (never by Authorization), in front of the
 * real server on the test build and Postgres, with a short staleness bound (CDN_STALENESS_SECONDS=4:
 * s-maxage=2, stale-while-revalidate=2). Anonymous pages, assets and public answers are stored and
 * served from the cache; nothing that depends on the caller is ever stored; a content write shows
 * through the cache within the bound, and a URL that answered 404 serves the new item at once.
 * The leak crawler runs through the same kind of cache after members browsed (tests/leak/crawler.test.ts).
 */
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { loadConfig } from '../../functions/config.ts';
import { startServer, type RunningServer } from '../../functions/main.ts';
import { DEMO_PASSWORD } from '../../functions/users/demo.ts';
import type { SessionAnswer } from '../support/answers.ts';
import { pgAdminUrl } from '../support/databases.ts';
import { makeBlogInput, quietLogger } from '../support/fixtures.ts';
import { startNginx, type RunningNginx } from '../support/nginx.ts';
import { createTestDatabase, freePort } from '../support/postgres.ts';
import { tempDir } from '../support/temp.ts';

const BOUND_SECONDS = 4;
const PREMIUM_ARTICLE = 'ecommerce-launch-first-90-days';
/** What nginx reports for an answer it served from its store without asking the origin. */
const FROM_CACHE = new Set(['HIT', 'STALE', 'UPDATING']);

describe('a CDN in front of the server', () => {
  let server: RunningServer;
  let cdn: RunningNginx;
  const tokens: Record<string, string> = {};

  beforeAll(async () => {
    const cdnPort = await freePort();
    const config = loadConfig({
      PORT: '0',
      // The CDN is the site's public address, as in production.
      SITE_URL: `http://127.0.0.1:${cdnPort}`,
      TRUST_PROXY: '1',
      DATABASE_URL: await createTestDatabase(pgAdminUrl(), 'cdn'),
      PAYMENTS: 'test',
      DATA_DIR: await tempDir('cdn'),
      DIST_DIR: inject('testEnv').distDir,
      LOG_LEVEL: 'silent',
      EMAIL_WORKER: 'false',
      AUTH_SEED_DEMO: 'true',
      AUTH_BCRYPT_COST: '4',
      CDN_STALENESS_SECONDS: String(BOUND_SECONDS),
    });
    server = await startServer(config, quietLogger());
    cdn = await startNginx({ upstreams: [`127.0.0.1:${server.port}`], cache: true, port: cdnPort });
    for (const who of ['premium', 'editor']) {
      const res = await fetch(`${cdn.url}/auth/v1/token?grant_type=password`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email: `${who}@demo.beacongrowth.co`, password: DEMO_PASSWORD }),
      });
      expect(res.status, who).toBe(200);
      tokens[who] = ((await res.json()) as SessionAnswer).access_token;
    }
  });
  afterAll(async () => {
    await cdn?.stop();
    await server?.close();
  });

  const get = (p: string, headers: Record<string, string> = {}) => fetch(`${cdn.url}${p}`, { headers });
  const cacheStatus = (res: Response) => res.headers.get('x-cache-status') ?? '';

  it('stores anonymous pages, assets and public answers, each with the shared policy', async () => {
    const asset = readdirSync(path.join(inject('testEnv').distDir, 'client', '_astro')).find((f) => f.endsWith('.js'))!;
    const shared = 'public, max-age=0, s-maxage=2, stale-while-revalidate=2';
    const expected: Record<string, string> = {
      '/': shared,
      '/blog': shared,
      '/about': shared,
      '/blog/pillar-pages-that-rank': shared,
      '/sitemap.xml': shared,
      '/rss.xml': shared,
      '/api/public/blogs': shared,
      '/api/public/courses/ai-automation-playbook': shared,
      [`/_astro/${asset}`]: 'public, max-age=31536000, immutable',
    };
    for (const [p, policy] of Object.entries(expected)) {
      const first = await get(p);
      expect(first.status, p).toBe(200);
      expect(first.headers.get('cache-control'), p).toBe(policy);
      await first.arrayBuffer();
      const again = await get(p);
      expect(cacheStatus(again), p).toBe('HIT');
      await again.arrayBuffer();
    }
  });

  it('never stores an answer that depends on the caller, nor an error', async () => {
    const premium = { authorization: `Bearer ${tokens.premium}` };
    const perCaller = [
      `/api/content/blogs/${PREMIUM_ARTICLE}/body`,
      '/api/users/me',
      '/api/users/me/progress',
      '/api/payments/subscription',
    ];
    for (const p of perCaller) {
      let memberAnswer = '';
      for (let i = 0; i < 2; i++) {
        const res = await get(p, premium);
        expect(res.status, p).toBe(200);
        expect(res.headers.get('cache-control'), p).toBe('private, no-store');
        expect(res.headers.get('vary'), p).toMatch(/\bAuthorization\b/);
        expect(FROM_CACHE.has(cacheStatus(res)), `${p}: ${cacheStatus(res)}`).toBe(false);
        memberAnswer = await res.text();
      }
      // A visitor asking the same URL next gets the origin's own answer for a visitor (401, or no viewer).
      const visitor = await get(p);
      expect(FROM_CACHE.has(cacheStatus(visitor)), p).toBe(false);
      expect(await visitor.text(), p).not.toBe(memberAnswer);
    }
    for (const p of ['/no-such-page', '/blog/no-such-article', '/api/public/blogs/no-such-article']) {
      for (let i = 0; i < 2; i++) {
        const res = await get(p);
        expect(res.status, p).toBe(404);
        expect(FROM_CACHE.has(cacheStatus(res)), p).toBe(false);
        await res.arrayBuffer();
      }
    }
  });

  it('shows a content write through the cache within the staleness bound', async () => {
    const slug = `written-behind-the-cdn-${Date.now()}`;
    const urls = ['/', '/blog', '/api/public/blogs', '/sitemap.xml', '/rss.xml'];
    // The item's own address answered 404 before it existed: never stored, so it serves at once.
    expect((await get(`/blog/${slug}`)).status).toBe(404);
    for (const p of urls) await (await get(p)).arrayBuffer();
    for (const p of urls) expect(cacheStatus(await get(p)), p).toBe('HIT');
    const warmedAt = Date.now();

    const created = await fetch(`${cdn.url}/api/content/blogs`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: cdn.url, authorization: `Bearer ${tokens.editor}` },
      body: JSON.stringify(makeBlogInput({ slug, title: 'Written Behind The CDN' })),
    });
    expect(created.status, await created.clone().text()).toBe(201);
    const writtenAt = Date.now();
    expect((await get(`/blog/${slug}`)).status).toBe(200);
    // The origin has it at once (its own cache was cleared by the write)...
    expect(await (await fetch(`${server.url}/api/public/blogs`)).text()).toContain(slug);
    // ...while the cache still serves its copy, as long as that copy is fresh.
    const held = await (await get('/api/public/blogs')).text();
    if (Date.now() - warmedAt < 1500) expect(held).not.toContain(slug);

    const seenAfter = new Map<string, number>();
    while (seenAfter.size < urls.length && Date.now() - writtenAt < (BOUND_SECONDS + 2) * 1000) {
      for (const p of urls.filter((u) => !seenAfter.has(u))) {
        if ((await (await get(p)).text()).includes(slug)) seenAfter.set(p, Date.now() - writtenAt);
      }
      await new Promise((r) => setTimeout(r, 100));
    }
    expect([...seenAfter.keys()].sort()).toEqual([...urls].sort());
    for (const [p, ms] of seenAfter) expect(ms, p).toBeLessThanOrEqual(BOUND_SECONDS * 1000);
  });
});
