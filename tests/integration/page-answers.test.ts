/**
 * Every page as the production server answers it, from the test build (built without SITE_URL, as
 * the Dockerfile builds) started with an https SITE_URL: no page, feed, sitemap or robots answer
 * carries the build's origin or a loopback address, every absolute URL of ours is the run-time
 * one; and every page route answers with an ETag (304 for a current copy) and compressed bytes,
 * whether it was prebuilt or rendered on request.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { loadConfig } from '../../functions/config.ts';
import { startServer, type RunningServer } from '../../functions/main.ts';
import { BUILD_ORIGIN_FILE } from '../../src/integrations/build-origin.ts';
import { pgAdminUrl } from '../support/databases.ts';
import { quietLogger } from '../support/fixtures.ts';
import { rawGet } from '../support/http.ts';
import { createTestDatabase } from '../support/postgres.ts';
import { tempDir } from '../support/temp.ts';

const SITE = 'https://www.beacon.example';
/** Feeds and files that are not in the sitemap but are answered by pages. */
const OTHER_ROUTES = ['/sitemap.xml', '/robots.txt', '/rss.xml', '/newsletter/rss.xml', '/404'];

/** Every prebuilt page of the build, as the URL path it answers. */
function prebuiltPaths(clientDir: string): string[] {
  return readdirSync(clientDir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile() && e.name === 'index.html')
    .map((e) => `/${path.relative(clientDir, e.parentPath).split(path.sep).join('/')}`.replace(/\/$/, '') || '/');
}

describe('pages under a run-time SITE_URL the build did not know', () => {
  const distDir = inject('testEnv').distDir;
  const buildOrigin = (JSON.parse(readFileSync(path.join(distDir, BUILD_ORIGIN_FILE), 'utf8')) as { origin: string }).origin;
  let server: RunningServer;
  let routes: string[];

  beforeAll(async () => {
    const env = {
      PORT: '0',
      SITE_URL: SITE,
      DATA_DIR: await tempDir('page-answers'),
      DIST_DIR: distDir,
      DATABASE_URL: await createTestDatabase(pgAdminUrl(), 'page_answers'),
      PAYMENTS: 'test',
      LOG_LEVEL: 'silent',
    };
    server = await startServer(loadConfig(env), quietLogger());
    const sitemap = await (await fetch(`${server.url}/sitemap.xml`)).text();
    const listed = [...sitemap.matchAll(/<loc>([^<]+)<\/loc>/g)].map((m) => new URL(m[1]!).pathname);
    routes = [...new Set([...listed, ...prebuiltPaths(path.join(distDir, 'client')), ...OTHER_ROUTES])];
  });
  afterAll(async () => {
    await server?.close();
  });

  it('was built with another origin than the one it runs under', () => {
    expect(buildOrigin).toMatch(/^http:\/\/localhost:\d+$/);
    expect(buildOrigin).not.toBe(SITE);
  });

  it('names only the run-time origin in every page, feed, sitemap and robots answer', async () => {
    const loopback = /https?:\/\/(localhost|127\.0\.0\.1|0\.0\.0\.0|\[::1\])[:/"'<\s]/;
    expect(routes.length).toBeGreaterThan(40);
    for (const route of routes) {
      const res = await fetch(`${server.url}${route}`);
      const body = await res.text();
      // As written, percent-encoded inside another URL (share links) and with JSON's escaped slashes.
      for (const spelling of [buildOrigin, encodeURIComponent(buildOrigin), buildOrigin.replaceAll('/', '\\/')])
        expect(body.includes(spelling), `${route} names the build's origin as ${spelling}`).toBe(false);
      const unescaped = body.replace(/%3A/gi, ':').replace(/%2F/gi, '/').replaceAll('\\/', '/');
      expect(loopback.exec(unescaped)?.[0], `${route} names a loopback address`).toBeUndefined();
      if (res.status !== 200 || !/text\/html/.test(res.headers.get('content-type') ?? '')) continue;
      const canonical = /<link rel="canonical" href="([^"]+)"/.exec(body)?.[1];
      if (canonical) expect(canonical, route).toBe(route === '/' ? `${SITE}/` : `${SITE}${route}`);
      const ogUrl = /<meta property="og:url" content="([^"]+)"/.exec(body)?.[1];
      if (ogUrl) expect(ogUrl.startsWith(`${SITE}/`), `${route} og:url ${ogUrl}`).toBe(true);
    }
    const robots = await (await fetch(`${server.url}/robots.txt`)).text();
    expect(robots).toContain(`Sitemap: ${SITE}/sitemap.xml`);
    const rss = await (await fetch(`${server.url}/rss.xml`)).text();
    expect(rss).toContain(`<link>${SITE}/blog</link>`);
  });

  it('answers every page route with an ETag, 304 for a current copy, and br or gzip bytes', async () => {
    for (const route of routes.filter((r) => r !== '/404')) {
      const plain = await rawGet(server.url, route);
      expect(plain.status, route).toBe(200);
      const etag = plain.headers.etag as string;
      expect(etag, `${route} ETag`).toMatch(/^"[\w-]+"$/);
      expect(plain.headers.vary, route).toMatch(/Accept-Encoding/i);
      const again = await rawGet(server.url, route, { 'if-none-match': etag });
      expect(again.status, `${route} revalidated`).toBe(304);
      expect(again.body.length).toBe(0);
      if (plain.body.length < 1024) continue;
      const br = await rawGet(server.url, route, { 'accept-encoding': 'gzip, deflate, br' });
      expect(br.headers['content-encoding'], `${route} br`).toBe('br');
      expect(br.headers.etag, route).toBe(etag);
      expect(brotliDecompressSync(br.body).equals(plain.body), route).toBe(true);
      const gzip = await rawGet(server.url, route, { 'accept-encoding': 'gzip' });
      expect(gzip.headers['content-encoding'], `${route} gzip`).toBe('gzip');
      expect(gunzipSync(gzip.body).equals(plain.body), route).toBe(true);
    }
  });

  it('keeps security headers and the shared-cache policy on pages answered from memory', async () => {
    for (const route of ['/', '/about', '/blog', '/rss.xml']) {
      for (let i = 0; i < 2; i++) {
        const res = await rawGet(server.url, route);
        expect(res.headers['cache-control'], route).toBe('public, max-age=0, s-maxage=30, stale-while-revalidate=30');
        expect(res.headers['x-content-type-options'], route).toBe('nosniff');
        expect(res.headers['strict-transport-security'], route).toBeTruthy();
        expect(res.headers['x-request-id'], route).toBeTruthy();
      }
    }
  });

  it('answers HEAD with the head alone', async () => {
    for (const route of ['/', '/about']) {
      const res = await fetch(`${server.url}${route}`, { method: 'HEAD' });
      expect(res.status, route).toBe(200);
      expect(res.headers.get('etag'), route).toBeTruthy();
      expect((await res.arrayBuffer()).byteLength).toBe(0);
    }
  });
});
