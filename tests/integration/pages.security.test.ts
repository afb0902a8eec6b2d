/**
 * The bad-input suite for pages, against the real server on the test build: every page in the
 * sitemap plus on-demand and error routes, tried with unusual methods, control characters and
 * backslashes in the path (with and without the trailing slash that triggers the canonical
 * redirect), and every protocol-relative form a browser could follow off the site. Pages answer
 * 4xx with the error page, redirects stay on our origin, and nothing ever answers 5xx.
 */
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { loadConfig } from '../../functions/config.ts';
import { startServer, type RunningServer } from '../../functions/main.ts';
import type { ErrorAnswer } from '../support/answers.ts';
import { rawGet, rawRequest, type RawResponse } from '../support/http.ts';
import { quietLogger } from '../support/fixtures.ts';
import { migratedDataDir } from '../support/databases.ts';

const ODD_METHODS = ['TRACE', 'OPTIONS', 'PROPFIND', 'DELETE', 'POST', 'PUT', 'PATCH', 'CONNECT_LIKE', 'MKCOL'];
const HOSTILE_SUFFIXES = ['%00', '%0a', '%0d%0aSet-Cookie:x=1', '%09', '%7f', '%1b', '%5c', '%5C..%5C', '\\', '%E0%A4%A'];
const PROTOCOL_RELATIVE = [
  '//evil.example/',
  '///evil.example/',
  '/\\evil.example/',
  '/%5cevil.example/',
  '/%5Cevil.example/',
  '/\\/evil.example/',
  '/%09/evil.example/',
  '/%0a/evil.example/',
  '/%0d%0a/evil.example/',
  '/%2f/evil.example/',
  '/%2F%2Fevil.example/',
  '/.//evil.example/',
  '//evil.example/%2e%2e/',
  '//evil.example@localhost/',
];

function expectErrorPage(res: RawResponse, status: number, label: string) {
  expect(res.status, label).toBe(status);
  expect(String(res.headers['content-type']), label).toMatch(/text\/html/);
  expect(res.body.toString(), label).toContain('Page Not Found');
}

describe('pages bad-input suite', () => {
  let server: RunningServer;
  let base: string;
  let pages: string[];

  beforeAll(async () => {
    const dataDir = await migratedDataDir('pages-security');
    const config = loadConfig({
      PORT: '0',
      DATA_DIR: dataDir,
      DIST_DIR: inject('testEnv').distDir,
      LOG_LEVEL: 'silent',
      EMAIL_WORKER: 'false',
    });
    server = await startServer(config, quietLogger());
    base = server.url;
    const sitemap = (await rawGet(base, '/sitemap.xml')).body.toString();
    const listed = [...sitemap.matchAll(/<loc>([^<]+)<\/loc>/g)].map((m) => new URL(m[1]!).pathname);
    pages = [
      ...new Set([
        ...listed,
        '/blog/no-such-article',
        '/services/no-such-service',
        '/newsletter/no-such-issue',
        '/newsletter/rss.xml',
        '/no-such-page',
        '/rss.xml',
        '/robots.txt',
        '/sitemap.xml',
        '/favicon.svg',
      ]),
    ];
    expect(listed.length).toBeGreaterThan(20);
  });
  afterAll(() => server?.close());

  it('answers unusual methods on every page with 405 and Allow: GET, HEAD', async () => {
    for (const page of pages) {
      for (const method of ODD_METHODS) {
        const res = await rawRequest(base, page, {
          method: method === 'CONNECT_LIKE' ? 'LINK' : method,
          body: method === 'POST' ? 'a=1' : undefined,
        });
        expectErrorPage(res, 405, `${method} ${page}`);
        expect(res.headers.allow, `${method} ${page}`).toBe('GET, HEAD');
      }
    }
  });

  it('answers control characters and backslashes in any page path with 400, with or without a trailing slash', async () => {
    for (const page of pages) {
      for (const suffix of HOSTILE_SUFFIXES) {
        for (const path of [`${page}${suffix}`, `${page}${suffix}/`, `${page}/${suffix}/`]) {
          const res = await rawGet(base, path);
          expect(res.status, path).toBeGreaterThanOrEqual(400);
          expect(res.status, path).toBeLessThan(500);
          expect(res.headers.location, path).toBeUndefined();
        }
      }
    }
  });

  it('keeps every trailing-slash redirect on the site, for every protocol-relative form', async () => {
    const origin = new URL(base).origin;
    for (const path of PROTOCOL_RELATIVE) {
      const res = await rawGet(base, path);
      expect(res.status, path).toBeLessThan(500);
      if (res.status === 301) {
        const location = String(res.headers.location);
        // Read the Location the way a browser does, relative to the page that was asked for.
        expect(new URL(location, `${origin}${path.replace(/\\/g, '/')}`).origin, `${path} -> ${location}`).toBe(origin);
        expect(location, path).toMatch(/^\/(?![/\\])/);
      } else expectErrorPage(res, 400, path);
    }
    for (const page of pages.filter((p) => p !== '/')) {
      const res = await rawGet(base, `${page}/?from=test`);
      expect(res.status, page).toBe(301);
      expect(res.headers.location, page).toBe(`${page}?from=test`);
    }
  });

  it('keeps the full header CSP next to the hashed one on prebuilt and on-demand pages', async () => {
    for (const path of ['/about', '/blog/no-such-article', '/services/no-such-service', '/blog']) {
      const res = await rawGet(base, path);
      const header = [res.headers['content-security-policy']].flat().join('; ');
      for (const directive of ["frame-ancestors 'none'", "base-uri 'self'", "object-src 'none'", "form-action 'self'"]) {
        expect(header, `${path} ${directive}`).toContain(directive);
      }
      // Images from our origin only: no public media host is configured here.
      expect(header, path).toMatch(/(?:^|; )img-src 'self'(?:;|$)/);
    }
    // On-demand pages carry Astro's script hashes in the same header.
    const onDemand = await rawGet(base, '/blog/no-such-article');
    expect(String(onDemand.headers['content-security-policy'])).toMatch(/script-src 'self' 'sha256-/);
  });

  // A second server of its own: starting one takes most of the time.
  it(
    'lets pages show images from the configured public media host, on prebuilt and on-demand pages alike',
    { timeout: 120_000 },
    async () => {
      const bucket = await startServer(
        loadConfig({
          PORT: '0',
          DATA_DIR: await migratedDataDir('pages-media-host'),
          DIST_DIR: inject('testEnv').distDir,
          LOG_LEVEL: 'silent',
          EMAIL_WORKER: 'false',
          // Never reached: no page reads the bucket.
          S3_BUCKET: 'media',
          S3_ENDPOINT: 'http://127.0.0.1:9',
          S3_ACCESS_KEY_ID: 'id',
          S3_SECRET_ACCESS_KEY: 'secret',
          S3_PUBLIC_URL: 'https://media.example.com/beacon/',
          S3_PREFIX: 'media/',
        }),
        quietLogger(),
      );
      try {
        for (const path of ['/about', '/blog']) {
          const header = [(await rawGet(bucket.url, path)).headers['content-security-policy']].flat().join('; ');
          expect(header, path).toMatch(/(?:^|; )img-src 'self' https:\/\/media\.example\.com(?:;|$)/);
        }
      } finally {
        await bucket.close();
      }
    },
  );

  it('answers API paths with raw backslashes or a bad Host in the JSON error shape, with the X-Request-Id header on every answer', async () => {
    for (const path of ['/api/public/blogs/\\evil', '/api/public/\\blogs', '/api/%5Cpublic/blogs']) {
      const res = await rawGet(base, path);
      expect(res.status, path).toBeGreaterThanOrEqual(400);
      expect(res.status, path).toBeLessThan(500);
      const body = JSON.parse(res.body.toString()) as ErrorAnswer;
      expect(body.error.requestId, path).toMatch(/^[0-9a-f-]{36}$/);
      expect(body.error.requestId, path).toBe(res.headers['x-request-id']);
    }
    const badHost = await rawGet(base, '/api/public/blogs', { host: 'a b' });
    expect(badHost.status).toBe(400);
    expect(JSON.parse(badHost.body.toString())).toMatchObject({ error: { code: 'bad_request' } });
    for (const path of ['/api/public/blogs', '/about', '/blog/no-such-article', '/no-such-page', '/about/']) {
      expect((await rawGet(base, path)).headers['x-request-id'], path).toMatch(/^[0-9a-f-]{36}$/);
    }
  });

  it('still serves after all of that', async () => {
    expect((await rawGet(base, '/healthz')).status).toBe(200);
    expect((await rawGet(base, '/about')).status).toBe(200);
  });
});
