/**
 * Invariant 1: gated content never ships to the unentitled. After a build, neither the sentinel in
 * the premium article nor any other gated text (article bodies, lesson bodies, download keys, events'
 * join and recording URLs) appears anywhere in the client output (compressed variants decompressed)
 * or in any public API answer.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { splitPreview } from '../../functions/content/body.ts';
import { CONTENT_TYPE_INFO, CONTENT_TYPES, type ContentItem, type PublicItem } from '#shared/content/registry.ts';
import { createTestApp, type TestApp } from '../support/app.ts';

const SENTINEL = 'PREMIUM-SENTINEL-7f3a';

function clientFiles(dir: string): { file: string; text: string }[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => {
      const file = path.join(e.parentPath, e.name);
      const bytes = readFileSync(file);
      const text = file.endsWith('.br')
        ? brotliDecompressSync(bytes).toString('utf8')
        : file.endsWith('.gz')
          ? gunzipSync(bytes).toString('utf8')
          : bytes.toString('utf8');
      return { file, text };
    });
}

/** The gated part of a body: what follows the author's preview marker (all of it without one). */
function gatedPart(source: string): string {
  const { preview, body } = splitPreview(source);
  return preview ? body.slice(preview.length) : body;
}

/** Distinctive gated strings of an item: body excerpts (past the public preview) and private file keys. */
function gatedStrings(item: ContentItem): string[] {
  const out: string[] = [];
  const excerpt = (text: string) => text.replace(/\s+/g, ' ').trim().slice(20, 80);
  if (item.type === 'blog') out.push(excerpt(gatedPart(item.content)));
  if (item.type === 'course') {
    for (const lesson of item.sections.flatMap((s) => s.lessons)) {
      if (lesson.content.trim().length > 40) out.push(excerpt(lesson.content));
      out.push(...lesson.downloadables.map((d) => d.url));
    }
  }
  if ((item.type === 'tool' || item.type === 'market') && item.downloadUrl) out.push(item.downloadUrl);
  if (item.type === 'event') out.push(...[item.joinUrl, item.recordingUrl].filter((u): u is string => Boolean(u)));
  return out.filter((s) => s.length >= 12);
}

describe('gated content leak check', () => {
  let t: TestApp;
  let gated: string[];
  beforeAll(async () => {
    t = await createTestApp('pglite');
    const items = await Promise.all(CONTENT_TYPES.map((type) => t.content.list(type)));
    gated = items.flat().flatMap(gatedStrings);
  });
  afterAll(() => t?.close());

  it('has gated text to look for (the sentinel lives in a premium article body)', async () => {
    const blogs = await t.content.list('blog');
    const holder = blogs.find((b) => b.content.includes(SENTINEL));
    expect(holder?.accessLevel).toBe('premium');
    expect(gated.length).toBeGreaterThan(20);
    // Events' links are looked for too: every sample event held online has its join URL among them.
    const online = (await t.content.list('event')).filter((e) => e.format === 'online');
    expect(online.length).toBeGreaterThanOrEqual(3);
    for (const event of online) expect(gated, event.slug).toContain(event.joinUrl);
    expect(gated.filter((s) => s.includes('EVENT-RECORDING-SENTINEL-8a15'))).toHaveLength(1);
  });

  it('finds no gated text anywhere in the built client output', () => {
    const files = clientFiles(path.join(inject('testEnv').distDir, 'client'));
    expect(files.length).toBeGreaterThan(10);
    for (const { file, text } of files) {
      expect(text.includes(SENTINEL), file).toBe(false);
      for (const secret of gated) expect(text.includes(secret), `${file} contains "${secret}"`).toBe(false);
    }
  });

  it('finds no gated text in any public API answer', async () => {
    for (const type of CONTENT_TYPES) {
      const segment = CONTENT_TYPE_INFO[type].apiSegment;
      const list = await (await t.app.request(`/api/public/${segment}`)).text();
      const answers = [list];
      for (const item of JSON.parse(list) as PublicItem[]) {
        answers.push(await (await t.app.request(`/api/public/${segment}/${item.slug}`)).text());
      }
      for (const answer of answers) {
        expect(answer).not.toContain(SENTINEL);
        for (const secret of gated) expect(answer.includes(secret), secret).toBe(false);
      }
    }
  });
});
