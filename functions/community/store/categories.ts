/**
 * The community's categories as members read them (admins manage them in the moderation part).
 */
import { and, asc, eq, sql } from 'drizzle-orm';
import { communityCategories, communityThreads, type CategoryRow } from '../tables.ts';
import type { CategoryStats, StoreDeps } from './shared.ts';

/** Categories with what /community shows beside them. */
export function categoryQueries({ db }: StoreDeps) {
  return {
    /** Every category in display order, with its visible threads' count and latest post. */
    async categories(): Promise<CategoryStats[]> {
      const rows = await db
        .select({
          category: communityCategories,
          threadCount: sql<number>`count(${communityThreads.id})::int`,
          lastPostAt: sql<Date | null>`max(${communityThreads.lastPostAt})`.mapWith((v: string | null) => (v ? new Date(v) : null)),
        })
        .from(communityCategories)
        .leftJoin(communityThreads, and(eq(communityThreads.categoryId, communityCategories.id), eq(communityThreads.status, 'visible')))
        .groupBy(communityCategories.id)
        .orderBy(asc(communityCategories.position), asc(communityCategories.name));
      return rows.map((r) => ({ ...r.category, threadCount: r.threadCount, lastPostAt: r.lastPostAt }));
    },

    /** Every category (no figures). */
    categoryRows(): Promise<CategoryRow[]> {
      return db.select().from(communityCategories);
    },

    /** One category's visible threads' count and latest post (on the list's index). */
    async categoryStats(categoryId: string): Promise<{ threadCount: number; lastPostAt: Date | null }> {
      const [row] = await db
        .select({
          threadCount: sql<number>`count(*)::int`,
          lastPostAt: sql<Date | null>`max(${communityThreads.lastPostAt})`.mapWith((v: string | null) => (v ? new Date(v) : null)),
        })
        .from(communityThreads)
        .where(and(eq(communityThreads.categoryId, categoryId), eq(communityThreads.status, 'visible')));
      return row ?? { threadCount: 0, lastPostAt: null };
    },

    async categoryBySlug(slug: string): Promise<CategoryRow | undefined> {
      const [row] = await db.select().from(communityCategories).where(eq(communityCategories.slug, slug));
      return row;
    },
  };
}
