/**
 * The only SQL on `content_search`: the git rows rewritten at start, a database item's rows in its
 * write's transaction, and the searches (`query` is a tsquery's text, parsed once by the caller).
 */
import { and, asc, eq, getTableName, gt, inArray, notInArray, sql, type SQL } from 'drizzle-orm';
import { ACCESS_LEVELS, type AccessLevel } from '#shared/access.ts';
import { HEADLINE_OPTIONS, SEARCH_BEYOND_MAX, SNIPPET_SOURCE_CHARS } from '#shared/search.ts';
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

/** The most matches one search pass reads, and the most it counts beyond the caller's level (see `search`). */
export const MATCHES_READ = 2000;
export const BEYOND_COUNTED = SEARCH_BEYOND_MAX;

export interface LevelCount {
  level: AccessLevel;
  count: number;
}

/** A row of the search's one query: a hit, or a level's count beyond the filter. */
interface MatchRow {
  kind: 'hit' | 'beyond' | 'read' | 'highest';
  id: string | null;
  item_type: SearchedType | null;
  slug: string | null;
  title: string | null;
  url: string | null;
  published: boolean | null;
  level: AccessLevel | null;
  rank: number | null;
  count: number;
}

/** What a search found: the hits, the counts beyond the filter's levels, the highest of those levels with a match. */
export interface SearchRows {
  hits: RankedRow[];
  beyond: LevelCount[];
  highest: AccessLevel | undefined;
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
/** The row's columns a write replaces (all but the key). */
const REPLACED = ['contentId', 'slug', 'title', 'url', 'accessLevel', 'sold', 'published', 'body'] as const;
const replaced = Object.fromEntries(REPLACED.map((key) => [key, sql.raw(`excluded.${s[key].name}`)]));
const unchanged = sql.raw(
  `(${REPLACED.map((key) => `"${getTableName(s)}"."${s[key].name}"`).join(', ')}) is distinct from (${REPLACED.map((key) => `excluded.${s[key].name}`).join(', ')})`,
);

/** Writes search rows, replacing a row of the same key only when it changed. */
function upsert(db: DbOrTx, rows: NewSearchRow[]): Promise<void> {
  return rows.length === 0
    ? Promise.resolve()
    : db
        .insert(s)
        .values(rows)
        // A row that did not change is not written again (every start writes every git row).
        .onConflictDoUpdate({ target: [s.itemId, s.part, s.source, s.itemType], set: replaced, setWhere: unchanged })
        .then(() => undefined);
}

/** What the parts of `createContentSearchStore` share. */
interface StoreDeps {
  db: DbOrTx;
}

/** Search rows written: git's at start, database items as they change, access reconciled. */
function rowWrites({ db }: StoreDeps) {
  return {
    /**
     * The git rows as they are now (run in one transaction, under a lock, so instances starting together
     * take turns): rows of files gone are deleted, the rest written; database rows a git file shadows go.
     */
    async replaceGit(rows: NewSearchRow[], shadows: readonly { type: SearchedType; slug: string }[]): Promise<void> {
      await db.execute(sql`select pg_advisory_xact_lock(hashtext('content_search_git'))`);
      const kept = rows.map((r) => `${r.itemType}:${r.itemId}:${r.part}`);
      await db.delete(s).where(and(eq(s.source, 'git'), notInArray(sql`${s.itemType} || ':' || ${s.itemId} || ':' || ${s.part}`, kept)));
      for (let i = 0; i < rows.length; i += 500) await upsert(db, rows.slice(i, i + 500));
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
    /**
     * The rows' copy of who may read them set again from their items (level, published, sold: a
     * priced item at the free level), where another writer left them behind: an instance of an
     * earlier release, a change by hand, a restore. One statement; nothing when all agree.
     */
    async reconcileAccess(): Promise<void> {
      const c = contentItems;
      const sold = sql`(${c.accessLevel} = 'free' and coalesce((${c.details}->>'price')::numeric, 0) > 0)`;
      await db.execute(sql`
        update ${s} set access_level = ${c.accessLevel}, published = ${c.published}, sold = ${sold}
        from ${c} where ${s.contentId} = ${c.id}
          and (${s.accessLevel}, ${s.published}, ${s.sold}) is distinct from (${c.accessLevel}, ${c.published}, ${sold})`);
    },
    /** Rows for items that had none; an item written meanwhile keeps what its write wrote. */
    async addMissing(rows: NewSearchRow[]): Promise<void> {
      if (rows.length) await db.insert(s).values(rows).onConflictDoNothing();
    },
    /** A database item's rows as `rows` (none: deleted, shadowed or no longer valid); in the write's transaction. */
    async replaceItem(contentId: string, rows: NewSearchRow[]): Promise<void> {
      const parts = rows.map((r) => r.part);
      await db.delete(s).where(and(eq(s.contentId, contentId), parts.length ? notInArray(s.part, parts) : undefined));
      await upsert(db, rows);
    },
  };
}

/** The search itself and its headlines. */
function searchQueries({ db }: StoreDeps) {
  return {
    /**
     * The best `limit` rows the filter opens, best first; the published matches in a plan above its
     * levels counted per level, up to BEYOND_COUNTED (sold items are opened by buying, never by a
     * level: never counted); and the highest level above the filter's with a match. Every match read
     * costs a visit to its row (PGlite keeps 16 MB of pages), so one pass reads at most MATCHES_READ
     * matches, ranking the open ones and counting the others: a very common word's order is that of
     * the first matches the index gives, and its count, when that pass saw too few, comes from a
     * second pass that stops at BEYOND_COUNTED.
     */
    async search(query: string, filter: SearchFilter, limit: number): Promise<SearchRows> {
      const q = sql`${query}::tsquery`;
      const matching = and(sql`${s.search} @@ ${q}`, ofTypes(filter));
      const open = and(opens(filter), filter.drafts ? undefined : eq(s.published, true))!;
      const above = ACCESS_LEVELS.filter((level) => !filter.levels.includes(level));
      const highest = above.at(-1);
      // What the caller opens another way (a course they bought) is never counted beyond their level.
      const counted = above.length
        ? and(eq(s.published, true), eq(s.sold, false), inArray(s.accessLevel, above), sql`not ${opens(filter)}`)!
        : sql`false`;
      const statement = sql`
        with m as materialized (
          select ${s.id} as id, ${s.itemType} as item_type, ${s.slug} as slug, ${s.title} as title, ${s.url} as url,
            ${s.published} as published, ${s.accessLevel} as level, ${open} as open, ${counted} as counted,
            case when ${open} then ts_rank_cd(${s.search}, ${q}) end as rank
          from ${s} where ${matching} limit ${MATCHES_READ})
        (select 'hit' as kind, id, item_type, slug, title, url, published, level, rank, 0 as count
          from m where open order by rank desc, id limit ${limit})
        union all (select 'beyond', null, null, null, null, null, null, level, null, count(*)::int from m where counted group by level)
        union all (select 'read', null, null, null, null, null, null, null, null, count(*)::int from m)
        union all (select 'highest', null, null, null, null, null, null, ${highest ?? null}, null, 0
          where ${highest ? sql`exists (select 1 from ${s} where ${and(matching, counted, eq(s.accessLevel, highest))})` : sql`false`})`;
      const rows = await withIndex(db, statement);
      const hits = rows.filter((r) => r.kind === 'hit').map(rankedRow);
      let beyond = rows.filter((r) => r.kind === 'beyond').map((r) => ({ level: r.level!, count: Number(r.count) }));
      const read = Number(rows.find((r) => r.kind === 'read')?.count ?? 0);
      if (read === MATCHES_READ && above.length && beyond.reduce((sum, b) => sum + b.count, 0) < BEYOND_COUNTED) {
        const more = sql`select 'beyond' as kind, level, count(*)::int as count from (
          select ${s.accessLevel} as level from ${s} where ${and(matching, counted)} limit ${BEYOND_COUNTED}) beyond group by level`;
        beyond = (await withIndex(db, more)).map((r) => ({ level: r.level!, count: Number(r.count) }));
      }
      return { hits, beyond, highest: rows.find((r) => r.kind === 'highest')?.level ?? undefined };
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

export function createContentSearchStore(db: DbOrTx) {
  const deps: StoreDeps = { db };
  return { ...rowWrites(deps), ...searchQueries(deps) };
}

/**
 * Runs a search statement with the GIN index as its only way to the matches: the index answers a
 * word exactly, reading no vector, where a sequential scan reads every row's (which the planner,
 * without statistics on PGlite, took for the cheaper: 65 ms against 3).
 */
async function withIndex(db: DbOrTx, statement: SQL): Promise<MatchRow[]> {
  const result = await db.transaction(async (tx) => {
    await tx.execute(sql`set local enable_seqscan = off`);
    return tx.execute(statement);
  });
  return (result as unknown as { rows: MatchRow[] }).rows;
}

const rankedRow = (r: MatchRow): RankedRow => ({
  id: r.id!,
  itemType: r.item_type!,
  slug: r.slug!,
  title: r.title!,
  url: r.url!,
  published: r.published!,
  rank: Number(r.rank),
});

/** The filter's types, when it leaves one out (every row is of a searched type). */
const ofTypes = (filter: SearchFilter) =>
  SEARCHED_TYPES.every((type) => filter.types.includes(type)) ? undefined : inArray(s.itemType, [...filter.types]);

/**
 * The filter's rule: an item in a plan at an open level, or a course the caller bought (a purchase
 * opens a priced course whatever its level, as the gated service's rule does), or, for staff, every
 * sold item.
 */
function opens(filter: SearchFilter): SQL {
  const inPlan = filter.levels.length ? and(eq(s.sold, false), inArray(s.accessLevel, [...filter.levels])) : undefined;
  const sold =
    filter.sold === 'all'
      ? eq(s.sold, true)
      : filter.sold.length
        ? and(eq(s.itemType, 'course'), inArray(s.slug, [...filter.sold]))
        : undefined;
  if (inPlan && sold) return sql`(${inPlan} or ${sold})`;
  return (inPlan ?? sold ?? sql`false`)!;
}
