/**
 * The forum's full-text search over posts' bodies and threads' titles.
 */
import { and, desc, eq, inArray, ne, sql } from 'drizzle-orm';
import { communityCategories, communityPosts, communityThreads } from '../tables.ts';
import { micros, instant, type PostCursor, type Reader, type SearchRow, type StoreDeps } from './shared.ts';

/** How much of a post a search excerpt is cut from. */
const EXCERPT_SOURCE_CHARS = 2000;

/** The forum's full-text search. */
export function searchQueries({ db }: StoreDeps) {
  return {
    /**
     * Full-text search (Postgres's English configuration, `websearch_to_tsquery` for what people
     * type) over posts' bodies and threads' titles (a title match finds the opener), in the given
     * categories only (never comments), newest first by keyset. Members find visible posts of
     * visible threads; staff everything but deleted. The excerpt is plain text around the match.
     */
    search(reader: Reader, q: string, categoryIds: string[], after: PostCursor | undefined, limit: number): Promise<SearchRow[]> {
      if (categoryIds.length === 0) return Promise.resolve([]);
      const p = communityPosts;
      const t = communityThreads;
      const query = sql`websearch_to_tsquery('english', ${q})`;
      const hits = db
        .select({ id: p.id })
        .from(p)
        .where(sql`${p.search} @@ ${query}`)
        .union(
          db
            .select({ id: p.id })
            .from(t)
            .innerJoin(p, and(eq(p.threadId, t.id), eq(p.isOpener, true)))
            .where(sql`${t.search} @@ ${query}`),
        );
      const shown = reader.staff
        ? and(ne(t.status, 'deleted'), ne(p.status, 'deleted'))
        : and(eq(t.status, 'visible'), eq(p.status, 'visible'));
      return db
        .select({
          postId: p.id,
          threadId: t.id,
          title: t.title,
          threadStatus: t.status,
          status: p.status,
          isOpener: p.isOpener,
          authorId: p.authorId,
          createdAt: p.createdAt,
          micros: micros(p.createdAt),
          categorySlug: communityCategories.slug,
          categoryName: communityCategories.name,
          // From the post's first 2,000 characters: the highlighter's cost grows with the square of what it reads.
          excerpt: sql<string>`ts_headline('english', left(${p.body}, ${EXCERPT_SOURCE_CHARS}), ${query}, 'StartSel="",StopSel="",MaxWords=30,MinWords=12')`,
        })
        .from(p)
        .innerJoin(t, eq(t.id, p.threadId))
        .innerJoin(communityCategories, eq(communityCategories.id, t.categoryId))
        .where(
          and(
            inArray(p.id, hits),
            inArray(t.categoryId, categoryIds),
            shown,
            after ? sql`(${p.createdAt}, ${p.id}) < (${instant(after.micros)}, ${after.id})` : undefined,
          ),
        )
        .orderBy(desc(p.createdAt), desc(p.id))
        .limit(limit);
    },
  };
}
