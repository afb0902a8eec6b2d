/**
 * The only SQL on `content_search`: the git rows rewritten at start, a database item's rows in its
 * write's transaction, and the searches (`query` is a tsquery's text, parsed once by the caller).
 */
import { and, asc, desc, eq, gt, inArray, notInArray, sql, type SQL } from 'drizzle-orm';
import { ACCESS_LEVELS, type AccessLevel } from '#shared/access.ts';
import { HEADLINE_OPTIONS, SNIPPET_SOURCE_CHARS } from '#shared/search.ts';
import type { DbOrTx } from '../../platform/db/client.ts';
import { contentItems, type ContentRow } from '../tables.ts';
import { contentSearch, SEARCHED_TYPES, type NewSearchRow, type SearchedType } from './tables.ts';

/** What a caller may read: levels (of items in a plan), sold items (all: staff; else the slugs of courses bought), drafts (staff). */
export interface SearchFilter {
  types: readonly SearchedType[];
  levels: readonly AccessLevel[];
  sold: 'all' | readonly string[];
  drafts: boolean;
}

export interface RankedRow {
  id: string;
  itemType: SearchedType;
  slug: string;
  title: string;
  url: string;
  published: boolean;
  rank: number;
}

const s = contentSearch;
const matches = (query: string) => sql`${s.search} @@ ${query}::tsquery`;
/** The row's columns a write replaces (all but the key). */
const REPLACED = ['contentId', 'slug', 'title', 'url', 'accessLevel', 'sold', 'published', 'body'] as const;
const replaced = Object.fromEntries(REPLACED.map((key) => [key, sql.raw(`excluded.${s[key].name}`)]));

export function createContentSearchStore(db: DbOrTx) {
  const upsert = (rows: NewSearchRow[]) =>
    rows.length === 0
      ? Promise.resolve()
      : db
          .insert(s)
          .values(rows)
          .onConflictDoUpdate({ target: [s.source, s.itemType, s.itemId, s.part], set: replaced })
          .then(() => undefined);

  return {
    /**
     * The git rows as they are now (run in one transaction, under a lock, so instances starting together
     * take turns): rows of files gone are deleted, the rest written; database rows a git file shadows go.
     */
    async replaceGit(rows: NewSearchRow[], shadows: readonly { type: SearchedType; slug: string }[]): Promise<void> {
      await db.execute(sql`select pg_advisory_xact_lock(hashtext('content_search_git'))`);
      const kept = rows.map((r) => `${r.itemType}:${r.itemId}:${r.part}`);
      await db.delete(s).where(and(eq(s.source, 'git'), notInArray(sql`${s.itemType} || ':' || ${s.itemId} || ':' || ${s.part}`, kept)));
      for (let i = 0; i < rows.length; i += 500) await upsert(rows.slice(i, i + 500));
      for (const { type, slug } of shadows) await db.delete(s).where(and(eq(s.source, 'db'), eq(s.itemType, type), eq(s.slug, slug)));
    },

    /** Database items of the searched types without search rows (written before this table, or by hand), by id after `after`: at most `limit`. */
    unindexed(after: string | undefined, limit: number): Promise<ContentRow[]> {
      return db
        .select()
        .from(contentItems)
        .where(
          and(
            inArray(contentItems.type, [...SEARCHED_TYPES]),
            after ? gt(contentItems.id, after) : undefined,
            sql`not exists (select 1 from ${s} where ${s.contentId} = ${contentItems.id})`,
          ),
        )
        .orderBy(asc(contentItems.id))
        .limit(limit);
    },

    /** Rows for items that had none; an item written meanwhile keeps what its write wrote. */
    async addMissing(rows: NewSearchRow[]): Promise<void> {
      if (rows.length) await db.insert(s).values(rows).onConflictDoNothing();
    },

    /** A database item's rows as `rows` (none: deleted, shadowed or no longer valid); in the write's transaction. */
    async replaceItem(contentId: string, rows: NewSearchRow[]): Promise<void> {
      const parts = rows.map((r) => r.part);
      await db.delete(s).where(and(eq(s.contentId, contentId), parts.length ? notInArray(s.part, parts) : undefined));
      await upsert(rows);
    },

    /** The best `limit` rows the filter opens, best first. */
    ranked(query: string, filter: SearchFilter, limit: number): Promise<RankedRow[]> {
      if (filter.levels.length === 0 && filter.sold !== 'all' && filter.sold.length === 0) return Promise.resolve([]);
      const rank = sql<number>`ts_rank_cd(${s.search}, ${query}::tsquery)`;
      return db
        .select({ id: s.id, itemType: s.itemType, slug: s.slug, title: s.title, url: s.url, published: s.published, rank })
        .from(s)
        .where(
          and(matches(query), inArray(s.itemType, [...filter.types]), filter.drafts ? undefined : eq(s.published, true), opens(filter)),
        )
        .orderBy(desc(rank), s.id)
        .limit(limit);
    },

    /** Published matches in a plan above the filter's levels, counted per level (sold items are opened by buying: never counted). */
    async beyond(query: string, filter: SearchFilter): Promise<{ level: AccessLevel; count: number }[]> {
      const above = ACCESS_LEVELS.filter((level) => !filter.levels.includes(level));
      if (above.length === 0) return [];
      return db
        .select({ level: s.accessLevel, count: sql<number>`count(*)::int` })
        .from(s)
        .where(
          and(
            matches(query),
            inArray(s.itemType, [...filter.types]),
            eq(s.published, true),
            eq(s.sold, false),
            inArray(s.accessLevel, above),
          ),
        )
        .groupBy(s.accessLevel);
    },

    /** The highlighted fragment of each row's text (`ids`: the rows an answer returns, never every match). */
    headlines(ids: readonly string[], query: string): Promise<{ id: string; headline: string }[]> {
      if (ids.length === 0) return Promise.resolve([]);
      return db
        .select({
          id: s.id,
          headline: sql<string>`ts_headline('english', left(${s.body}, ${SNIPPET_SOURCE_CHARS}), ${query}::tsquery, ${HEADLINE_OPTIONS})`,
        })
        .from(s)
        .where(inArray(s.id, [...ids]));
    },
  };
}

/** The filter's rule: an item in a plan at an open level, or a sold item the caller may open. */
function opens(filter: SearchFilter): SQL | undefined {
  const inPlan = filter.levels.length ? and(eq(s.sold, false), inArray(s.accessLevel, [...filter.levels])) : undefined;
  const sold =
    filter.sold === 'all' ? eq(s.sold, true) : filter.sold.length ? and(eq(s.sold, true), inArray(s.slug, [...filter.sold])) : undefined;
  if (inPlan && sold) return sql`(${inPlan} or ${sold})`;
  return inPlan ?? sold ?? sql`false`;
}
