import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { PublicContentReader } from '#shared/content/reader.ts';
import { SNAPSHOT_DIR, SNAPSHOT_MANIFEST, snapshotKey } from '#server/page-snapshots.ts';
import { createPageSnapshots } from './page-snapshots.ts';

/** A reader whose blog list is `items` (or fails), counting the reads. */
function reader(state: { items: unknown[] | Error; reads: number }): PublicContentReader {
  return {
    list: async () => {
      state.reads += 1;
      if (state.items instanceof Error) throw state.items;
      return state.items;
    },
  } as unknown as PublicContentReader;
}

async function setup(state: { items: unknown[] | Error; reads: number }) {
  const distDir = mkdtempSync(path.join(tmpdir(), 'snapshots-'));
  const dir = path.join(distDir, SNAPSHOT_DIR);
  mkdirSync(dir, { recursive: true });
  writeFileSync(path.join(dir, 'blog.html'), '<a href="http://build.test/blog">Blog</a>');
  const key = await snapshotKey('/blog', reader({ items: [{ slug: 'a' }], reads: 0 }));
  const headers = { 'content-type': 'text/html', 'content-security-policy': "script-src 'self' 'sha256-x'" };
  writeFileSync(path.join(dir, SNAPSHOT_MANIFEST), JSON.stringify({ '/blog': { file: 'blog.html', key, headers } }));
  return createPageSnapshots({
    distDir,
    reader: reader(state),
    buildOrigin: 'http://build.test',
    siteOrigin: 'https://site.test',
    pageCsp: "frame-ancestors 'none'",
  });
}

describe('page snapshots', () => {
  it('answers a snapshot with the run-time origin and both policies while the data is the build’s', async () => {
    const state = { items: [{ slug: 'a' }], reads: 0 };
    const snapshots = await setup(state);
    const answer = (await snapshots.answer('/blog'))!;
    expect(answer.bytes.toString()).toBe('<a href="https://site.test/blog">Blog</a>');
    expect(answer.headers['Content-Security-Policy']).toBe("script-src 'self' 'sha256-x'; frame-ancestors 'none'");
    expect(snapshots.answer('/blog?q=1')).toBeUndefined();
    expect(snapshots.answer('/events')).toBeUndefined();
  });

  it('decides once until content changes, then renders while the data differs', async () => {
    const state = { items: [{ slug: 'a' }], reads: 0 };
    const snapshots = await setup(state);
    await snapshots.answer('/blog');
    await snapshots.answer('/blog');
    expect(state.reads).toBe(1);
    state.items = [{ slug: 'a' }, { slug: 'b' }];
    expect(await snapshots.answer('/blog')).toBeDefined();
    snapshots.clear();
    expect(await snapshots.answer('/blog')).toBeUndefined();
    expect(state.reads).toBe(2);
  });

  it('renders (and asks again next time) when the content cannot be read', async () => {
    const state: { items: unknown[] | Error; reads: number } = { items: new Error('down'), reads: 0 };
    const snapshots = await setup(state);
    expect(await snapshots.answer('/blog')).toBeUndefined();
    state.items = [{ slug: 'a' }];
    expect(await snapshots.answer('/blog')).toBeDefined();
  });
});
