import { describe, expect, it, vi } from 'vitest';
import { createLogger } from '../platform/logger.ts';
import { IMMUTABLE } from '../platform/http/cache-control.ts';
import type { IndexFiles } from './pagefind.ts';
import { createPublicIndex, ENTRY_FILE } from './public-index.ts';
import type { PublicRecord } from './public-records.ts';

const POLICY = 'public, max-age=0, s-maxage=30, stale-while-revalidate=30';

/** A stand-in for Pagefind: the entry names a meta file by the records' count, like a hash of them. */
function fakeBuild() {
  return vi.fn(async (records: readonly PublicRecord[]): Promise<IndexFiles> => {
    const meta = `pagefind.en_${records.length}.pf_meta`;
    return new Map([
      [ENTRY_FILE, new TextEncoder().encode(JSON.stringify({ meta }))],
      [meta, new Uint8Array([records.length])],
      ['pagefind.js', new TextEncoder().encode('export {}')],
    ]);
  });
}

function setUp() {
  let clock = 1_000_000;
  const records: PublicRecord[] = [{ url: '/a', type: 'blog', title: 'A', text: 'a' }];
  const build = fakeBuild();
  const index = createPublicIndex({
    records: () => Promise.resolve([...records]),
    build,
    cacheControl: POLICY,
    stalenessMs: 30_000,
    logger: createLogger('silent'),
    now: () => clock,
  });
  return { index, build, records, tick: (ms: number) => (clock += ms) };
}

describe('the public index', () => {
  it('is made on the first request, the entry under the shared policy and hashed files for a year', async () => {
    const { index, build } = setUp();
    expect(build).not.toHaveBeenCalled();
    const entry = await index.answer(ENTRY_FILE);
    expect(entry?.headers['Cache-Control']).toBe(POLICY);
    expect((await index.answer('pagefind.en_1.pf_meta'))?.headers['Cache-Control']).toBe(IMMUTABLE);
    expect((await index.answer('pagefind.js'))?.headers['Content-Type']).toMatch(/javascript/);
    expect(build).toHaveBeenCalledTimes(1);
  });

  it('answers nothing but Pagefind names, and builds nothing for them', async () => {
    const { index, build } = setUp();
    for (const name of ['../package.json', 'index.html', 'fragment/../../x.pf_fragment', 'constructor', ''])
      expect(await index.answer(name)).toBeUndefined();
    expect(build).not.toHaveBeenCalled();
  });

  it('is made again for the next entry after a change, and older generations still answer', async () => {
    const { index, build, records } = setUp();
    await index.answer(ENTRY_FILE);
    records.push({ url: '/b', type: 'faq', title: 'B', text: 'b' });
    expect(new TextDecoder().decode((await index.answer(ENTRY_FILE))!.bytes)).toContain('en_1'); // no notice yet
    index.changed();
    expect(new TextDecoder().decode((await index.answer(ENTRY_FILE))!.bytes)).toContain('en_2');
    expect(await index.answer('pagefind.en_1.pf_meta')).toBeDefined();
    expect(build).toHaveBeenCalledTimes(2);
  });

  it('answers a stale entry while the next one is made, once the staleness bound has passed', async () => {
    const { index, build, records, tick } = setUp();
    await index.answer(ENTRY_FILE);
    records.push({ url: '/b', type: 'faq', title: 'B', text: 'b' });
    tick(30_000);
    expect(new TextDecoder().decode((await index.answer(ENTRY_FILE))!.bytes)).toContain('en_1');
    await vi.waitFor(() => expect(build).toHaveBeenCalledTimes(2));
    await index.refresh();
    expect(new TextDecoder().decode((await index.answer(ENTRY_FILE))!.bytes)).toContain('en_2');
  });

  it('builds for an unknown hashed file (another instance built newer content) at most every five seconds', async () => {
    const { index, build, records, tick } = setUp();
    await index.answer(ENTRY_FILE);
    records.push({ url: '/b', type: 'faq', title: 'B', text: 'b' });
    expect(await index.answer('pagefind.en_2.pf_meta')).toBeUndefined();
    expect(build).toHaveBeenCalledTimes(1);
    tick(5_000);
    expect(await index.answer('pagefind.en_2.pf_meta')).toBeDefined();
    expect(await index.answer('pagefind.en_9.pf_meta')).toBeUndefined();
    expect(build).toHaveBeenCalledTimes(2);
  });
});
