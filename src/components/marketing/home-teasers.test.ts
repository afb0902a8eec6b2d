import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { createMdxSource } from '../../../functions/content/mdx-source.ts';
import type { PublicContentReader } from '#shared/content/reader.ts';
import { toPublicItem, type ContentType } from '#shared/content/registry.ts';
import { loadHomeTeasers, TEASER_SLUGS } from './home-teasers.ts';

const CONTENT_DIR = path.resolve(import.meta.dirname, '../../../content');

/** A reader over the git content alone (what every server holds whatever its database). */
async function gitReader(): Promise<PublicContentReader> {
  const mdx = await createMdxSource(CONTENT_DIR);
  return {
    list: async (type: ContentType) => mdx.list(type).map(toPublicItem),
    get: async (type: ContentType, slug: string) => {
      const item = mdx.get(type, slug);
      return item && toPublicItem(item);
    },
  } as PublicContentReader;
}

describe('home teasers', () => {
  // The home page renders per request: a teaser renamed away would fail it at run time, so it fails here first.
  it('finds every fixed tool and course in content/, with the courses priced', async () => {
    const teasers = await loadHomeTeasers(await gitReader());
    expect(teasers.tools.map((t) => t.slug)).toEqual([...TEASER_SLUGS.tool]);
    expect(teasers.courses.map((c) => c.slug)).toEqual([...TEASER_SLUGS.course]);
    expect(teasers.courses.map((c) => c.price)).toEqual([149, 199, 129]);
  });

  it('takes the three newest articles from the reader it is given', async () => {
    const reader = await gitReader();
    const newest = (await reader.list('blog')).slice(0, 3);
    expect((await loadHomeTeasers(reader)).posts?.map((p) => p.slug)).toEqual(newest.map((p) => p.slug));
  });

  it('leaves the posts out, rather than failing the page, when articles cannot be read', async () => {
    const reader = await gitReader();
    const failing = { ...reader, list: () => Promise.reject(new Error('database unreachable')) } as PublicContentReader;
    const errors: unknown[] = [];
    const original = console.error;
    console.error = (...args: unknown[]) => void errors.push(args);
    try {
      const teasers = await loadHomeTeasers(failing);
      expect(teasers.posts).toBeUndefined();
      expect(teasers.tools).toHaveLength(3);
      expect(errors).toHaveLength(1);
    } finally {
      console.error = original;
    }
  });
});
