/**
 * Site search's SQL on the community's tables (issue 36): the same generated tsvectors and GIN
 * indexes as the forum's own search (../store.ts), ranked instead of newest first, one hit per thread
 * (its best post; a title match finds the opener), visible posts of visible threads only. `query` is
 * a tsquery's text, parsed once by the caller.
 */
import { and, desc, eq, inArray, sql } from 'drizzle-orm';
import type { AccessLevel } from '#shared/access.ts';
import { HEADLINE_OPTIONS, SNIPPET_MARK_END, SNIPPET_MARK_START, SNIPPET_SOURCE_CHARS } from '#shared/search.ts';
import type { DbOrTx } from '../../platform/db/client.ts';
import { communityCategories, communityPosts, communityThreads } from '../tables.ts';

const p = communityPosts;
const t = communityThreads;
/**
 * `ts_rank_cd`'s weights ({D, C, B, A}): the community's vectors carry no weights (D), so a post
 * ranks as a body (B, 0.4) and a title as a title (A, 1.0), like the content's weighted vectors.
 */
const AS_BODY = sql.raw(`'{0.4,0.2,0.4,1.0}'::float4[]`);
const AS_TITLE = sql.raw(`'{1.0,0.2,0.4,1.0}'::float4[]`);

export interface ThreadHit {
  threadId: string;
  postId: string;
  title: string;
  rank: number;
}

export function createCommunitySearchStore(db: DbOrTx) {
  /** Matching visible posts and titles (as their openers) of visible threads in `categoryIds`, with a rank when asked. */
  const hits = (query: string, categoryIds: string[], ranked: boolean) => {
    const q = sql`${query}::tsquery`;
    return (
      db
        .select({
          threadId: p.threadId,
          postId: p.id,
          rank: (ranked ? sql<number>`ts_rank_cd(${AS_BODY}, ${p.search}, ${q})` : sql<number>`0`).as('rank'),
        })
        .from(p)
        // Only posts of the asked categories' threads are ranked (never every matching post in the forum).
        .innerJoin(t, eq(t.id, p.threadId))
        .where(and(sql`${p.search} @@ ${q}`, eq(p.status, 'visible'), inArray(t.categoryId, categoryIds)))
        .unionAll(
          db
            .select({
              threadId: t.id,
              postId: p.id,
              rank: ranked ? sql<number>`ts_rank_cd(${AS_TITLE}, ${t.search}, ${q})` : sql<number>`0`,
            })
            .from(t)
            .innerJoin(p, and(eq(p.threadId, t.id), eq(p.isOpener, true), eq(p.status, 'visible')))
            .where(and(sql`${t.search} @@ ${q}`, inArray(t.categoryId, categoryIds))),
        )
        .as('hits')
    );
  };

  return {
    /** The best `limit` threads of `categoryIds`, best first, each with its best matching post. */
    async ranked(query: string, categoryIds: string[], limit: number): Promise<ThreadHit[]> {
      if (categoryIds.length === 0) return [];
      const h = hits(query, categoryIds, true);
      const best = db
        .selectDistinctOn([h.threadId], { threadId: h.threadId, postId: h.postId, rank: h.rank })
        .from(h)
        .orderBy(h.threadId, desc(h.rank))
        .as('best');
      return db
        .select({ threadId: best.threadId, postId: best.postId, title: t.title, rank: best.rank })
        .from(best)
        .innerJoin(t, eq(t.id, best.threadId))
        .where(and(eq(t.status, 'visible'), inArray(t.categoryId, categoryIds)))
        .orderBy(desc(best.rank), best.threadId)
        .limit(limit);
    },

    /** Matching visible threads of `categoryIds`, counted per category level. */
    async counted(query: string, categoryIds: string[]): Promise<{ level: AccessLevel; count: number }[]> {
      if (categoryIds.length === 0) return [];
      const h = hits(query, categoryIds, false);
      return db
        .select({ level: communityCategories.accessLevel, count: sql<number>`count(distinct ${h.threadId})::int` })
        .from(h)
        .innerJoin(t, eq(t.id, h.threadId))
        .innerJoin(communityCategories, eq(communityCategories.id, t.categoryId))
        .where(and(eq(t.status, 'visible'), inArray(t.categoryId, categoryIds)))
        .groupBy(communityCategories.accessLevel);
    },

    /** The highlighted fragment of each post (the snippet markers a member typed removed first). */
    headlines(postIds: readonly string[], query: string): Promise<{ id: string; headline: string }[]> {
      if (postIds.length === 0) return Promise.resolve([]);
      const source = sql`translate(left(${p.body}, ${SNIPPET_SOURCE_CHARS}), ${SNIPPET_MARK_START + SNIPPET_MARK_END}, '')`;
      return db
        .select({ id: p.id, headline: sql<string>`ts_headline('english', ${source}, ${query}::tsquery, ${HEADLINE_OPTIONS})` })
        .from(p)
        .where(inArray(p.id, [...postIds]));
    },
  };
}
