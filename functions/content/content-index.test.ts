import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { serialize } from 'node:v8';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CONTENT_TYPES } from '#shared/content/registry.ts';
import { readContentIndex, writeContentIndex } from './content-index.ts';
import { ContentFileError, createMdxSource, type MdxSource } from './mdx-source.ts';

const CONTENT = path.resolve(import.meta.dirname, '../../content');

let dir: string;
let content: string;
let index: string;

const everything = (source: MdxSource) => Object.fromEntries(CONTENT_TYPES.map((type) => [type, source.list(type)]));

beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'content-index-'));
  content = path.join(dir, 'content');
  index = path.join(dir, 'content-index.bin');
  await cp(CONTENT, content, { recursive: true, filter: (src) => !src.includes(`${path.sep}files${path.sep}`) });
  await writeContentIndex(content, index);
});

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('the content index', () => {
  it('gives the very items that parsing the files gives', async () => {
    const parsed = await readContentIndex(index);
    expect(parsed?.size).toBeGreaterThan(30);
    const fromIndex = await createMdxSource(content, parsed);
    expect(everything(fromIndex)).toEqual(everything(await createMdxSource(content)));
  });

  it('is what a start reads: an item is taken from it while its file is unchanged, and a reload parses afresh', async () => {
    const parsed = new Map(await readContentIndex(index));
    const [key, item] = [...parsed].find(([, i]) => i.type === 'blog')!;
    parsed.set(key, { ...item, title: 'Taken from the index' });
    const source = await createMdxSource(content, parsed);
    expect(source.get('blog', item.slug)?.title).toBe('Taken from the index');
    await source.reload();
    expect(source.get('blog', item.slug)?.title).toBe(item.title);
  });

  it('does not hide a changed, added or broken file', async () => {
    const parsed = await readContentIndex(index);
    const before = await createMdxSource(content, parsed);
    const post = before.list('blog')[0]!;
    const file = path.join(content, before.file('blog', post.slug)!);
    const text = await readFile(file, 'utf8');
    await writeFile(file, text.replace(/^title: .*$/m, 'title: "Changed after the bundle"'));
    expect((await createMdxSource(content, parsed)).get('blog', post.slug)?.title).toBe('Changed after the bundle');

    await writeFile(path.join(content, 'blog', 'zz-added.md'), text.replace(/^slug: .*$/m, '').replace(/^title: .*$/m, 'title: Added'));
    expect((await createMdxSource(content, parsed)).get('blog', 'zz-added')?.title).toBe('Added');

    await writeFile(path.join(content, 'blog', 'zz-broken.md'), '---\ntitle: [unclosed\n---\nBody');
    await expect(createMdxSource(content, parsed)).rejects.toBeInstanceOf(ContentFileError);
    await rm(path.join(content, 'blog', 'zz-broken.md'));
    await rm(path.join(content, 'blog', 'zz-added.md'));
    await writeFile(file, text);
  });

  it('is absent when there is no file, or none that reads as an index', async () => {
    expect(await readContentIndex(path.join(dir, 'none.bin'))).toBeUndefined();
    await writeFile(path.join(dir, 'broken.bin'), serialize({ partial: true }).subarray(0, 3));
    expect(await readContentIndex(path.join(dir, 'broken.bin'))).toBeUndefined();
  });
});
