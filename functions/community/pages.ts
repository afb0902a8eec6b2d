/**
 * What the community's pages read on the server (`serverContext(locals).community`, handed over by
 * the site handler): exactly what a visitor may read, asked of the service as a visitor, so the
 * pages, which a CDN may keep and share, can hold nothing more. The categories (their names and
 * levels are public; thread titles are not); a category's threads when anyone reads it; a thread
 * when a visitor may read it, else only that it is not theirs to read ("gated": the page is a shell
 * and the island asks with the member's token) or that a visitor cannot see it ("missing": it does
 * not exist, or it is held or hidden, which only its author or staff see, also through the island).
 * Never throws for what a visitor's request can cause (bad ids and cursors read as missing).
 */
import { z } from 'zod';
import { AppError } from '../platform/errors.ts';
import type { Category, ThreadPage } from './answers.ts';
import { MAX_THREADS_PER_PAGE, POSTS_PER_PAGE, THREADS_PER_PAGE } from './schema.ts';
import type { CommunityService, ListAnswer } from './service.ts';

export type { Category, ListAnswer, ThreadPage };

export type ThreadRead = { kind: 'public'; page: ThreadPage } | { kind: 'gated' } | { kind: 'missing' };

/** A category's page: the category, and its threads when a visitor may read them (undefined for a bad cursor). */
export type CategoryRead = { category: Category; threads: ListAnswer | 'gated' | undefined };

export interface CommunityPageReader {
  /** Every category, in display order (the same for everyone). */
  categories(): Promise<Category[]>;
  /** A category by its slug (undefined when there is none), with a visitor's page of its threads. */
  category(slug: string, cursor?: string): Promise<CategoryRead | undefined>;
  /** A thread's page of posts as a visitor reads it. */
  thread(id: string, cursor?: string): Promise<ThreadRead>;
  /** Every thread a visitor may read, for the sitemap. */
  publicThreads(): Promise<{ id: string; lastPostAt: string }[]>;
}

const Id = z.uuid();
/** The sitemap lists at most this many threads per category (100 pages of the largest list). */
const SITEMAP_PAGES = 100;

/** A visitor's refusal or a bad cursor, as a page reads it; anything else is a failure (the page answers 503). */
function refusal(err: unknown): 'gated' | 'missing' {
  if (!(err instanceof AppError)) throw err;
  if (err.code === 'unauthorized' || err.code === 'forbidden') return 'gated';
  if (err.code === 'not_found' || err.code === 'validation_failed') return 'missing';
  throw err;
}

export function createCommunityPageReader(community: CommunityService): CommunityPageReader {
  const categories = async (): Promise<Category[]> => (JSON.parse((await community.categories()).body) as { items: Category[] }).items;

  return {
    categories,

    async category(slug, cursor) {
      const category = (await categories()).find((c) => c.slug === slug);
      if (!category) return undefined;
      if (!category.anyoneReads) return { category, threads: 'gated' };
      try {
        const cached = cursor ? undefined : await community.publicThreads(slug);
        const threads = cached
          ? (JSON.parse(cached.body) as ListAnswer)
          : await community.threads(undefined, slug, cursor, THREADS_PER_PAGE);
        return { category: threads.category, threads };
      } catch (err) {
        return { category, threads: refusal(err) === 'gated' ? 'gated' : undefined };
      }
    },

    async thread(id, cursor) {
      if (!Id.safeParse(id).success) return { kind: 'missing' };
      try {
        return { kind: 'public', page: await community.thread(undefined, id, cursor, POSTS_PER_PAGE) };
      } catch (err) {
        return { kind: refusal(err) };
      }
    },

    async publicThreads() {
      const open = (await categories()).filter((c) => c.anyoneReads);
      const found: { id: string; lastPostAt: string }[] = [];
      for (const category of open) {
        let cursor: string | undefined;
        for (let n = 0; n < SITEMAP_PAGES; n++) {
          const page = await community.threads(undefined, category.slug, cursor, MAX_THREADS_PER_PAGE);
          found.push(...page.items.map((t) => ({ id: t.id, lastPostAt: t.lastPostAt })));
          if (!page.nextCursor) break;
          cursor = page.nextCursor;
        }
      }
      return found;
    },
  };
}
