/**
 * The public content API (spec point 7) on both databases: lists and details of every type, public
 * fields only, caching validators, compression, bad input, and live database content.
 */
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../functions/platform/db/client.ts';
import { CONTENT_TYPE_INFO, PublicItemSchema, type ContentType, type PublicItem, type PublicItemOf } from '#shared/content/registry.ts';
import { endsAt } from '#shared/events/schedule.ts';
import { createTestApp, type TestApp } from '../support/app.ts';
import type { ErrorAnswer } from '../support/answers.ts';
import { DATABASE_KINDS } from '../support/databases.ts';
import { DAY_MINUTES, INPUT_BUILDERS, makeBlogInput, quietLogger, utcLocal } from '../support/fixtures.ts';

const TYPES = Object.values(CONTENT_TYPE_INFO);

async function json(res: Response) {
  expect(res.headers.get('content-type')).toMatch(/application\/json/);
  return res.json() as Promise<unknown>;
}

function expectErrorShape(body: unknown, code: string) {
  expect(body).toMatchObject({ error: { code, message: expect.any(String) } });
}

describe.each(DATABASE_KINDS)('public content API on %s', (kind) => {
  let t: TestApp;
  const get = (path: string, headers?: Record<string, string>) => t.app.request(path, { headers });

  beforeAll(async () => {
    t = await createTestApp(kind);
  });
  afterAll(async () => {
    await t?.close();
  });

  describe.each(TYPES)('GET /api/public/$apiSegment', (info) => {
    it('lists at least six items of the type (four events) with public fields only', async () => {
      const res = await get(`/api/public/${info.apiSegment}`);
      expect(res.status).toBe(200);
      const body = (await json(res)) as unknown[];
      expect(body.length).toBeGreaterThanOrEqual(info.type === 'event' ? 4 : 6);
      for (const raw of body) {
        const item = PublicItemSchema.parse(raw); // strict: any gated or unknown field fails
        expect(item.type).toBe(info.type);
      }
    });

    it("answers each item at its detail URL with the same public fields (plus a blog preview, an event's description)", async () => {
      const list = (await (await get(`/api/public/${info.apiSegment}`)).json()) as PublicItem[];
      for (const item of list) {
        const res = await get(`/api/public/${info.apiSegment}/${item.slug}`);
        expect(res.status).toBe(200);
        const { previewHtml, bodyHtml, ...detail } = (await res.json()) as PublicItem & { previewHtml?: string; bodyHtml?: string };
        expect(detail).toEqual(item);
        if (previewHtml !== undefined) expect(info.type).toBe('blog');
        if (info.type === 'event') expect(bodyHtml, item.slug).toMatch(/^<(p|h2)>/);
        else expect(bodyHtml).toBeUndefined();
      }
    });

    it('answers an unknown slug with 404 and the error shape', async () => {
      const res = await get(`/api/public/${info.apiSegment}/no-such-item`);
      expect(res.status).toBe(404);
      const body = await json(res);
      expectErrorShape(body, 'not_found');
      expect((body as ErrorAnswer).error.message).toBe(`${info.singular} not found`);
    });
  });

  it('lists events upcoming soonest first, then past ones most recent first, with whether each has a recording', async () => {
    const past = await t.content.create('event', INPUT_BUILDERS.event({ title: 'A past database event', startsAt: '2025-06-01T10:00' }));
    const soonStart = utcLocal(20 * DAY_MINUTES);
    const soon = await t.content.create(
      'event',
      INPUT_BUILDERS.event({ title: 'A soon database event', startsAt: soonStart, timeZone: 'UTC' }),
    );
    try {
      const events = (await (await get('/api/public/events')).json()) as PublicItemOf<'event'>[];
      const now = Date.now();
      const ends = events.map((e) => endsAt(e).getTime());
      const firstPast = ends.findIndex((end) => end <= now);
      expect(firstPast, 'some events are upcoming').toBeGreaterThan(0);
      expect(
        ends.slice(firstPast).every((end) => end <= now),
        'every past event after every upcoming one',
      ).toBe(true);
      const starts = events.map((e) => e.startsAt);
      expect(starts.slice(0, firstPast)).toEqual([...starts.slice(0, firstPast)].sort());
      expect(starts.slice(firstPast)).toEqual([...starts.slice(firstPast)].sort().reverse());
      expect(events.map((e) => e.slug)).toEqual(expect.arrayContaining([soon.slug, past.slug]));
      expect(events.find((e) => e.slug === 'local-seo-clinic-live')).toMatchObject({ hasRecording: true });
      expect(events.find((e) => e.slug === soon.slug)).toMatchObject({ hasRecording: false, startsAt: `${soonStart}:00.000Z` });
    } finally {
      await t.content.remove('event', past.id);
      await t.content.remove('event', soon.id);
    }
  });

  it('never includes article bodies, lesson bodies, lesson media, downloadables, download URLs, join URLs or recordings', async () => {
    for (const info of TYPES) {
      const text = await (await get(`/api/public/${info.apiSegment}`)).text();
      for (const key of ['"content"', '"downloadUrl"', '"downloadables"', '"contentFormat"', '"source"', '"joinUrl"', '"recordingUrl"']) {
        expect(text).not.toContain(key);
      }
    }
    const courses = (await (await get('/api/public/courses')).json()) as PublicItemOf<'course'>[];
    const lessons = courses.flatMap((c) => c.sections.flatMap((s) => s.lessons));
    expect(lessons.length).toBeGreaterThan(0);
    for (const lesson of lessons) expect(Object.keys(lesson).sort()).toEqual(['id', 'title']);
  });

  it('answers an unknown type with 404 and the error shape', async () => {
    for (const path of ['/api/public/blog', '/api/public/users', '/api/public/BLOGS', '/api/public/blogs%00']) {
      const res = await get(path);
      expect(res.status, path).toBe(404);
      expectErrorShape(await json(res), 'not_found');
    }
  });

  it('answers odd and hostile slugs with a 4xx error shape, never a crash', async () => {
    const odd = [
      'UPPER-CASE',
      'dots..here',
      '%2e%2e',
      '..%2F..%2Fetc%2Fpasswd',
      'hello%00world',
      '%E0%A4%A',
      'caf%C3%A9',
      '%3Cscript%3Ealert(1)%3C%2Fscript%3E',
      "x'%20OR%201%3D1--",
      'a'.repeat(200),
      'trailing-',
      '-leading',
      'double--hyphen',
    ];
    for (const slug of odd) {
      const res = await get(`/api/public/blogs/${slug}`);
      expect(res.status, slug).toBe(404);
      expectErrorShape(await json(res), 'not_found');
    }
    const deeper = await get('/api/public/blogs/a/b/c');
    expect(deeper.status).toBe(404);
    expectErrorShape(await json(deeper), 'not_found');
  });

  it('rejects a very long address with 414 and the error shape', async () => {
    const res = await get(`/api/public/blogs/${'a'.repeat(5000)}`);
    expect(res.status).toBe(414);
    expectErrorShape(await json(res), 'uri_too_long');
  });

  it('answers other methods with a JSON 405 and Allow, and unknown API paths with a JSON 404', async () => {
    for (const [method, path] of [
      ['POST', '/api/public/blogs'],
      ['DELETE', '/api/public/blogs/some-slug'],
    ] as const) {
      const res = await t.app.request(path, { method });
      expect(res.status, `${method} ${path}`).toBe(405);
      expect(res.headers.get('allow')).toBe('GET, HEAD');
      expectErrorShape(await json(res), 'method_not_allowed');
    }
    const res = await t.app.request('/api/nothing-here');
    expect(res.status).toBe(404);
    expectErrorShape(await json(res), 'not_found');
  });

  it('rejects an oversized request body with 413 and the error shape', async () => {
    const res = await t.app.request('/api/public/blogs', {
      method: 'POST',
      body: 'x'.repeat(70 * 1024),
      headers: { 'content-type': 'application/json', 'content-length': String(70 * 1024) },
    });
    expect(res.status).toBe(413);
    expectErrorShape(await json(res), 'payload_too_large');
  });

  it('sends ETag and shared-cache headers (browsers revalidate), and 304 for a current copy', async () => {
    const first = await get('/api/public/blogs');
    const etag = first.headers.get('etag');
    expect(etag).toMatch(/^".+"$/);
    expect(first.headers.get('cache-control')).toBe('public, max-age=0, s-maxage=30, stale-while-revalidate=30');
    expect(first.headers.get('vary')).toBe('Accept-Encoding');
    for (const header of [etag!, `W/${etag}`, `"other", ${etag}`]) {
      const again = await get('/api/public/blogs', { 'if-none-match': header });
      expect(again.status, header).toBe(304);
      expect(await again.text()).toBe('');
      expect(again.headers.get('etag')).toBe(etag);
    }
    expect((await get('/api/public/blogs', { 'if-none-match': '"stale"' })).status).toBe(200);
  });

  it('compresses large answers with brotli or gzip when the client accepts them', async () => {
    const plain = await (await get('/api/public/blogs')).text();
    const br = await get('/api/public/blogs', { 'accept-encoding': 'gzip, deflate, br' });
    expect(br.headers.get('content-encoding')).toBe('br');
    expect(brotliDecompressSync(Buffer.from(await br.arrayBuffer())).toString()).toBe(plain);
    const gz = await get('/api/public/blogs', { 'accept-encoding': 'gzip' });
    expect(gz.headers.get('content-encoding')).toBe('gzip');
    expect(gunzipSync(Buffer.from(await gz.arrayBuffer())).toString()).toBe(plain);
    const refused = await get('/api/public/blogs', { 'accept-encoding': 'br;q=0, gzip;q=0' });
    expect(refused.headers.get('content-encoding')).toBeNull();
  });

  it('adds security headers to API answers', async () => {
    const res = await get('/api/public/tools');
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(res.headers.get('x-frame-options')).toBe('DENY');
    expect(res.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
  });

  describe.each(Object.entries(INPUT_BUILDERS) as [ContentType, () => Record<string, unknown>][])('database %s items', (type, build) => {
    const segment = CONTENT_TYPE_INFO[type].apiSegment;

    it('appear in the list and at their detail URL at once, and go when deleted', async () => {
      const before = await get(`/api/public/${segment}`);
      const created = await t.content.create(type, build());
      const after = await get(`/api/public/${segment}`);
      expect(after.headers.get('etag')).not.toBe(before.headers.get('etag'));
      const items = (await after.json()) as PublicItem[];
      const listed = items.find((i) => i.slug === created.slug);
      expect(listed).toBeDefined();
      PublicItemSchema.parse(listed);
      const detail = await get(`/api/public/${segment}/${created.slug}`);
      expect(detail.status).toBe(200);
      const { bodyHtml: _description, ...fields } = (await detail.json()) as PublicItem & { bodyHtml?: string };
      expect(fields).toEqual(listed);

      await t.content.remove(type, created.id);
      expect((await get(`/api/public/${segment}/${created.slug}`)).status).toBe(404);
      const gone = (await (await get(`/api/public/${segment}`)).json()) as PublicItem[];
      expect(gone.some((i) => i.slug === created.slug)).toBe(false);
    });
  });

  it('shows an update at once', async () => {
    const created = await t.content.create('blog', makeBlogInput());
    expect(((await (await get(`/api/public/blogs/${created.slug}`)).json()) as PublicItem).title).toBe(created.title);
    await t.content.update('blog', created.id, { title: 'A brand new title' });
    const updated = (await (await get(`/api/public/blogs/${created.slug}`)).json()) as PublicItem;
    expect(updated.title).toBe('A brand new title');
  });

  if (kind === 'postgres') {
    // A second instance on the same database hears of the write by LISTEN (a long-lived server) or by
    // the change log read at its requests (a serverless instance, platform/changes/poller.ts).
    it.each(['listen', 'poll'] as const)("drops another instance's cached answers when this one writes (%s)", async (changes) => {
      const { url, directUrl } = t.database;
      const other = await openDatabase({ kind: 'postgres', url: url!, directUrl: directUrl!, poolSize: 2 }, quietLogger(), { changes });
      const second = await createTestApp('postgres', Object.assign(other, { url }));
      const list = async () => {
        await other.sync?.();
        return (await (await second.app.request('/api/public/blogs')).json()) as PublicItem[];
      };
      try {
        const warm = await list();
        const created = await t.content.create('blog', makeBlogInput({ title: 'Written by instance one' }));
        expect(warm.some((i) => i.slug === created.slug)).toBe(false);
        await expect.poll(async () => (await list()).some((i) => i.slug === created.slug), { timeout: 5_000 }).toBe(true);
      } finally {
        await second.close();
        await other.close();
      }
    });
  }
});
