import { describe, expect, it, vi } from 'vitest';
import { createLogger } from '../platform/logger.ts';
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
  const marks = { now: 'issue-1' };
  const index = createPublicIndex({
    records: () => Promise.resolve([...records]),
    mark: () => Promise.resolve(marks.now),
    build,
    cacheControl: POLICY,
    stalenessMs: 30_000,
    logger: createLogger('silent'),
    now: () => clock,
  });
  return { index, build, records, marks, tick: (ms: number) => (clock += ms) };
}

describe('the public index', () => {
  it('is made on the first request, the entry under the shared policy and hashed files a year (ten minutes in a shared cache)', async () => {
    const { index, build } = setUp();
    expect(build).not.toHaveBeenCalled();
    const entry = await index.answer(ENTRY_FILE);
    expect(entry?.headers['Cache-Control']).toBe(POLICY);
    expect((await index.answer('pagefind.en_1.pf_meta'))?.headers['Cache-Control']).toBe(
      'public, max-age=31536000, s-maxage=600, immutable',
    );
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
    const { index, build, records, tick } = setUp();
    await index.answer(ENTRY_FILE);
    records.push({ url: '/b', type: 'faq', title: 'B', text: 'b' });
    expect(new TextDecoder().decode((await index.answer(ENTRY_FILE))!.bytes)).toContain('en_1'); // no notice yet
    index.changed();
    tick(2_000);
    expect(new TextDecoder().decode((await index.answer(ENTRY_FILE))!.bytes)).toContain('en_2');
    expect(await index.answer('pagefind.en_1.pf_meta')).toBeDefined();
    expect(build).toHaveBeenCalledTimes(2);
  });

  it('makes one build of many notices within two seconds, the current files answering meanwhile', async () => {
    const { index, build, records, tick } = setUp();
    await index.answer(ENTRY_FILE);
    records.push({ url: '/b', type: 'faq', title: 'B', text: 'b' });
    index.changed();
    index.changed();
    expect(new TextDecoder().decode((await index.answer(ENTRY_FILE))!.bytes)).toContain('en_1');
    expect(new TextDecoder().decode((await index.answer(ENTRY_FILE))!.bytes)).toContain('en_1');
    tick(2_000);
    await vi.waitFor(() => expect(build).toHaveBeenCalledTimes(2), { timeout: 5_000 });
  });

  it('keeps no generation for a build that changed nothing public', async () => {
    const { index, build, tick } = setUp();
    await index.answer(ENTRY_FILE);
    index.changed();
    tick(2_000);
    await index.answer(ENTRY_FILE);
    expect(build).toHaveBeenCalledTimes(2);
    expect(await index.answer('pagefind.en_1.pf_meta')).toBeDefined();
  });

  it('answers 503 while it has never been built and the last try failed, and tries again 5 s later', async () => {
    let fail = true;
    let clock = 0;
    const build = vi.fn(async () => {
      if (fail) throw new Error('no binary');
      return new Map([[ENTRY_FILE, new Uint8Array([1])]]);
    });
    const index = createPublicIndex({
      records: () => Promise.resolve([]),
      build,
      cacheControl: POLICY,
      stalenessMs: 30_000,
      logger: createLogger('silent'),
      now: () => clock,
    });
    await expect(index.answer(ENTRY_FILE)).rejects.toMatchObject({ code: 'unavailable' });
    await expect(index.answer(ENTRY_FILE)).rejects.toMatchObject({ code: 'unavailable' });
    expect(build).toHaveBeenCalledTimes(1);
    fail = false;
    clock += 5_000;
    expect(await index.answer(ENTRY_FILE)).toBeDefined();
  });

  it('is made again for the next entry when the mark of what has no notice moved (a newsletter issue went out)', async () => {
    const { index, build, records, marks, tick } = setUp();
    await index.answer(ENTRY_FILE);
    await index.answer(ENTRY_FILE);
    expect(build).toHaveBeenCalledTimes(1);
    records.push({ url: '/newsletter/issue-2', type: 'newsletter', title: 'Two', text: 'two' });
    marks.now = 'issue-2';
    tick(2_000);
    expect(new TextDecoder().decode((await index.answer(ENTRY_FILE))!.bytes)).toContain('en_2');
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

  it('builds for a hashed file it does not know only after a notice (another instance built newer content), never for a made-up name', async () => {
    const { index, build, records, tick } = setUp();
    await index.answer(ENTRY_FILE);
    records.push({ url: '/b', type: 'faq', title: 'B', text: 'b' });
    tick(60_000);
    expect(await index.answer('pagefind.en_2.pf_meta')).toBeUndefined();
    expect(await index.answer('fragment/en_made_up.pf_fragment')).toBeUndefined();
    expect(build).toHaveBeenCalledTimes(1);
    index.changed();
    expect(await index.answer('pagefind.en_2.pf_meta')).toBeDefined();
    expect(await index.answer('pagefind.en_9.pf_meta')).toBeUndefined();
    expect(build).toHaveBeenCalledTimes(2);
  });
});
