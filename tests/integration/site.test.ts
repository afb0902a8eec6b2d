/**
 * Pages and files served by the one Node server from the test build, on both databases: caching
 * headers, the not-found page, prebuilt and on-demand detail pages, and hostile paths.
 */
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { brotliDecompressSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, inject, it, vi } from 'vitest';
import { loadConfig } from '../../functions/config.ts';
import { createMdxSource } from '../../functions/content/mdx-source.ts';
import { createContentService } from '../../functions/content/service.ts';
import { openDatabase } from '../../functions/platform/db/client.ts';
import { startServer, type RunningServer } from '../../functions/main.ts';
import { CONTENT_DIR } from '../support/app.ts';
import { tempDir } from '../support/temp.ts';
import { DATABASE_KINDS, pgAdminUrl } from '../support/databases.ts';
import { makeCourseInput, makeBlogInput, quietLogger } from '../support/fixtures.ts';
import { rawGet } from '../support/http.ts';
import { createTestDatabase } from '../support/postgres.ts';
import { BUILT_DB_ARTICLE, BUILT_DRAFT_ARTICLE } from '../support/site.ts';

/** The default policy of anonymous pages and public answers (CDN_STALENESS_SECONDS=60). */
const SHARED = 'public, max-age=0, s-maxage=30, stale-while-revalidate=30';

describe.each(DATABASE_KINDS)('site served on %s', (kind) => {
  let server: RunningServer;
  let base: string;
  let service: ReturnType<typeof createContentService>;
  let closeDb: () => Promise<void>;
  const distDir = inject('testEnv').distDir;

  beforeAll(async () => {
    const dataDir = await tempDir('site');
    const env: Record<string, string> = { PORT: '0', DATA_DIR: dataDir, DIST_DIR: distDir, LOG_LEVEL: 'silent' };
    // On Postgres the server is a deployment: the test checkout is asked for on purpose.
    if (kind === 'postgres') Object.assign(env, { DATABASE_URL: await createTestDatabase(pgAdminUrl(), 'site_test'), PAYMENTS: 'test' });
    const config = loadConfig(env);
    server = await startServer(config, quietLogger());
    base = server.url;
    // On Postgres a second handle writes as another instance would. PGlite allows one handle per
    // folder, so the live-content test runs on Postgres only (the API suite covers PGlite writes).
    if (kind === 'postgres') {
      const database = await openDatabase(config.database, quietLogger());
      service = createContentService({ db: database.db, mdx: await createMdxSource(CONTENT_DIR), logger: quietLogger() });
      closeDb = () => database.close();
    }
  });
  afterAll(async () => {
    await server?.close();
    await closeDb?.();
  });

  it('serves prebuilt pages for shared caches within the staleness bound, browsers revalidating by ETag', async () => {
    const res = await fetch(`${base}/about`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/text\/html/);
    expect(res.headers.get('cache-control')).toBe(SHARED);
    const etag = res.headers.get('etag')!;
    expect(etag).toBeTruthy();
    expect((await fetch(`${base}/about`, { headers: { 'if-none-match': etag } })).status).toBe(304);
  });

  it('gives pages rendered per request the same policy, and error pages none', async () => {
    for (const p of ['/', '/blog', '/market', '/sitemap.xml', '/rss.xml', '/blog/pillar-pages-that-rank'])
      expect((await fetch(`${base}${p}`)).headers.get('cache-control'), p).toBe(SHARED);
    for (const p of ['/no-such-page', '/blog/no-such-article', '/services/no-such-service', '/preview'])
      expect((await fetch(`${base}${p}`)).headers.get('cache-control'), p).toBe('no-store');
    expect((await fetch(`${base}/newsletter/confirm?token=x`)).headers.get('cache-control')).toBe('no-store');
  });

  it('serves hashed assets as immutable and precompressed', async () => {
    // A script big enough to be precompressed (the build skips files under 1 KB: not worth a variant).
    const dir = path.join(distDir, 'client', '_astro');
    const asset = readdirSync(dir).find((f) => f.endsWith('.js') && statSync(path.join(dir, f)).size >= 1024)!;
    const res = await rawGet(base, `/_astro/${asset}`, { 'accept-encoding': 'br' });
    expect(res.status).toBe(200);
    expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(res.headers['content-encoding']).toBe('br');
    expect(brotliDecompressSync(res.body).length).toBeGreaterThan(res.body.length);
  });

  it('adds security headers and a hashed script CSP to pages', async () => {
    const res = await fetch(`${base}/about`);
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(res.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
    expect(await res.text()).toMatch(/<meta http-equiv="content-security-policy" content="script-src 'self' 'sha256-/);
    // Pages rendered per request get the hashes in the header, next to the server's own directives.
    const onDemand = (await fetch(`${base}/courses`)).headers.get('content-security-policy');
    expect(onDemand).toContain("frame-ancestors 'none'");
    expect(onDemand).toMatch(/script-src 'self' 'sha256-/);
  });

  it('renders lists and home per request (no build-time snapshot), and prebuilds detail pages for MDX items only', async () => {
    const client = path.join(distDir, 'client');
    for (const page of ['index.html', 'blog/index.html', 'courses/index.html', 'tools/index.html', 'market/index.html'])
      expect(existsSync(path.join(client, page)), page).toBe(false);
    // The <noscript> snapshot is this server's list: the article the build's database held is not in it.
    const list = await (await fetch(`${base}/blog`)).text();
    expect(list).toContain('/blog/pillar-pages-that-rank');
    expect(list).not.toContain(BUILT_DB_ARTICLE.slug);
    expect(list).not.toContain(BUILT_DRAFT_ARTICLE.slug);
    expect(existsSync(path.join(client, 'blog', 'pillar-pages-that-rank', 'index.html'))).toBe(true);
  });

  it('prebuilds no page for a database item', () => {
    const client = path.join(distDir, 'client', 'blog');
    expect(existsSync(path.join(client, 'pillar-pages-that-rank', 'index.html'))).toBe(true);
    // Database items render on demand, so run-time edits never leave a stale file behind.
    expect(existsSync(path.join(client, BUILT_DB_ARTICLE.slug))).toBe(false);
  });

  it('answers the public API over a real socket with headers, ETag, 304, HEAD and compression', async () => {
    // On Node, cached answers are written straight to the socket: check what actually goes out.
    const res = await rawGet(base, '/api/public/blogs');
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(res.headers['cache-control']).toBe(SHARED);
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['content-security-policy']).toBe("default-src 'none'; frame-ancestors 'none'");
    expect(Number(res.headers['content-length'])).toBe(res.body.length);
    const items = JSON.parse(res.body.toString()) as unknown[];
    expect(items.length).toBeGreaterThanOrEqual(6);
    const etag = String(res.headers.etag);

    const fresh = await rawGet(base, '/api/public/blogs', { 'if-none-match': etag });
    expect(fresh.status).toBe(304);
    expect(fresh.body.length).toBe(0);
    expect(fresh.headers.etag).toBe(etag);
    expect(fresh.headers['x-frame-options']).toBe('DENY');

    const br = await rawGet(base, '/api/public/blogs', { 'accept-encoding': 'br' });
    expect(br.headers['content-encoding']).toBe('br');
    expect(JSON.parse(brotliDecompressSync(br.body).toString())).toEqual(items);

    // HEAD goes through Hono's GET-and-rewrap path: the answer must still be written exactly once.
    const errors = vi.spyOn(console, 'error');
    try {
      for (const p of ['/api/public/blogs', '/blog', '/no-such-page']) {
        const head = await fetch(`${base}${p}`, { method: 'HEAD' });
        expect(head.status, p).toBe(p === '/no-such-page' ? 404 : 200);
        expect(await head.text()).toBe('');
      }
      await new Promise((r) => setTimeout(r, 50));
      expect(errors).not.toHaveBeenCalled();
    } finally {
      errors.mockRestore();
    }

    const missing = await rawGet(base, '/api/nothing-here');
    expect(missing.status).toBe(404);
    expect(missing.headers['x-content-type-options']).toBe('nosniff');
    expect(JSON.parse(missing.body.toString())).toMatchObject({ error: { code: 'not_found' } });
  });

  it('answers unknown paths with the not-found page and status 404', async () => {
    for (const p of ['/no-such-page', '/blog/no-such-article', '/courses/missing/extra', '/market/nope', '/tools/x']) {
      const res = await fetch(`${base}${p}`);
      expect(res.status, p).toBe(404);
      const html = await res.text();
      expect(html).toContain('404');
      expect(html).toContain('Page Not Found');
      expect(html).toContain('Back to Home');
    }
  });

  it('redirects a trailing slash to the canonical address without an open redirect', async () => {
    const res = await rawGet(base, '/blog/?tag=SEO');
    expect(res.status).toBe(301);
    expect(res.headers.location).toBe('/blog?tag=SEO');
    const sneaky = await rawGet(base, '//evil.example/');
    expect(String(sneaky.headers.location ?? '')).not.toMatch(/^\/\//);
  });

  it('answers hostile and malformed paths with a 4xx and keeps serving', async () => {
    const paths = [
      '/blog/%E0%A4%A',
      '/blog/..%2F..%2Fpackage.json',
      '/%2e%2e/%2e%2e/etc/passwd',
      '/_astro/../../package.json',
      '/_astro/..%2F..%2Fpackage.json',
      '/blog/%00',
      `/blog/${'a'.repeat(3000)}`,
      '/api/public/blogs/%ZZ',
    ];
    for (const p of paths) {
      const res = await rawGet(base, p);
      expect(res.status, p).toBeGreaterThanOrEqual(400);
      expect(res.status, p).toBeLessThan(500);
      expect(res.body.toString()).not.toContain('"dependencies"');
    }
    expect((await fetch(`${base}/healthz`)).status).toBe(200);
  });

  if (kind === 'postgres') {
    it('renders a database-only item added after the build without a rebuild', async () => {
      const blog = await service.create('blog', makeBlogInput({ title: 'Added long after the build' }));
      const course = await service.create('course', makeCourseInput({ title: 'A course added after the build' }));
      const page = await fetch(`${base}/blog/${blog.slug}`);
      expect(page.status).toBe(200);
      const html = await page.text();
      expect(html).toContain('Added long after the build');
      expect(html).toContain('Free with an account'); // gate card for a visitor on a free article
      const coursePage = await fetch(`${base}/courses/${course.slug}`);
      expect(coursePage.status).toBe(200);
      expect(await coursePage.text()).toContain('Getting started');
      await service.update('blog', blog.id, { title: 'Edited after the build' });
      await expect.poll(async () => (await fetch(`${base}/blog/${blog.slug}`)).text()).toContain('Edited after the build');
      await service.remove('blog', blog.id);
      await expect.poll(async () => (await fetch(`${base}/blog/${blog.slug}`)).status).toBe(404);
    });

    it('takes an item unpublished on another instance off every public channel at once, and back when published', async () => {
      const blog = await service.create('blog', makeBlogInput({ title: 'Soon to be unpublished' }));
      const text = async (p: string) => (await fetch(`${base}${p}`)).text();
      const channels = async () => ({
        page: (await fetch(`${base}/blog/${blog.slug}`)).status,
        detail: (await fetch(`${base}/api/public/blogs/${blog.slug}`)).status,
        list: (await text('/api/public/blogs')).includes(blog.slug),
        sitemap: (await text('/sitemap.xml')).includes(`/blog/${blog.slug}`),
        rss: (await text('/rss.xml')).includes(blog.title),
        // Rendered per request: the list page's <noscript> snapshot and the home page's latest posts.
        listPage: (await text('/blog')).includes(`/blog/${blog.slug}`),
        home: (await text('/')).includes(`/blog/${blog.slug}`),
      });
      const everywhere = { page: 200, detail: 200, list: true, sitemap: true, rss: true, listPage: true, home: true };
      await expect.poll(channels).toEqual(everywhere);
      await service.update('blog', blog.id, { published: false });
      await expect
        .poll(channels)
        .toEqual({ page: 404, detail: 404, list: false, sitemap: false, rss: false, listPage: false, home: false });
      await service.update('blog', blog.id, { published: true });
      await expect.poll(channels).toEqual(everywhere);
      await service.remove('blog', blog.id);
    });
  }
});
