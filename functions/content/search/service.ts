/**
 * The content domain's part of site search (issue 36): the gated text of articles and lessons from
 * both sources in `content_search`, searched with Postgres full text and cut with the one access
 * rule. Git rows are written at start (`sync`); database rows by every content write, in its
 * transaction (`indexItem`), so a search never sees half a write.
 */
import { ACCESS_LEVELS, accessRank, checkAccess, isStaff, type AccessLevel, type Viewer } from '#shared/access.ts';
import type { ContentType } from '#shared/content/registry.ts';
import { beyondOf, SEARCH_BEYOND_MAX, type BeyondLevel, type SourceMatches } from '#shared/search.ts';
import type { Db, DbOrTx } from '../../platform/db/client.ts';
import type { Logger } from '../../platform/logger.ts';
import type { MdxSource } from '../mdx-source.ts';
import { itemFromRow } from '../rows.ts';
import type { ContentRow } from '../tables.ts';
import { searchRowsOf } from './rows.ts';
import { createContentSearchStore, type SearchFilter } from './store.ts';
import { SEARCHED_TYPES, type NewSearchRow, type SearchedType } from './tables.ts';

/** Items indexed per statement when filling in rows missing at start. */
const BATCH = 200;

const isSearched = (type: ContentType): type is SearchedType => (SEARCHED_TYPES as readonly string[]).includes(type);

/** Who searches: the viewer (null: a visitor), the slugs of the sold courses they bought, and whether staff asked for drafts. */
export interface ContentSearcher {
  viewer: Viewer;
  owned: readonly string[];
  drafts: boolean;
}

/** The count, stopped at SEARCH_BEYOND_MAX, with its level raised to the highest level with a match (the count may have stopped before reaching one). */
function withHighest(beyond: BeyondLevel | undefined, highest: AccessLevel | undefined): BeyondLevel | undefined {
  if (!beyond) return undefined;
  const level = highest && accessRank(highest) > accessRank(beyond.level) ? highest : beyond.level;
  return { count: Math.min(beyond.count, SEARCH_BEYOND_MAX), level };
}

export interface ContentSearchDeps {
  db: Db;
  mdx: MdxSource;
  logger: Logger;
}

export function createContentSearch({ db, mdx, logger }: ContentSearchDeps) {
  const store = createContentSearchStore(db);

  /** A database row's search rows: none when its type's text is public, a git file shadows it, or it no longer validates. */
  function rowsOf(row: ContentRow): NewSearchRow[] {
    if (!isSearched(row.type) || mdx.has(row.type, row.slug)) return [];
    try {
      return searchRowsOf(itemFromRow(row), { source: 'db', published: row.published });
    } catch (err) {
      logger.error({ err, id: row.id, type: row.type }, 'content row failed validation; not searchable');
      return [];
    }
  }

  const filterOf = ({ viewer, owned, drafts }: ContentSearcher, types: readonly SearchedType[]): SearchFilter => ({
    types,
    levels: ACCESS_LEVELS.filter((level) => checkAccess(viewer, level).allowed),
    sold: viewer && isStaff(viewer.role) ? 'all' : owned,
    drafts,
  });

  return {
    /**
     * Writes the git items' rows as they are now and removes rows of files gone and of database items
     * a file shadows (one transaction, under a lock: instances starting together take turns), then
     * fills in rows for database items that have none (items written before the table existed), and
     * sets every database row's level, published and sold flags from its item again.
     */
    async sync(): Promise<void> {
      const items = SEARCHED_TYPES.flatMap((type) => mdx.list(type));
      const rows = items.flatMap((item) => searchRowsOf(item, { source: 'git', published: true }));
      const shadows = items.map((item) => ({ type: item.type as SearchedType, slug: item.slug }));
      await db.transaction((tx) => createContentSearchStore(tx).replaceGit(rows, shadows));
      let after: string | undefined;
      for (;;) {
        const missing = await store.unindexed(after, BATCH);
        // An item deleted meanwhile (its rows' foreign key fails) is left out: the next start sees.
        await store.addMissing(missing.flatMap(rowsOf)).catch((err: unknown) => {
          const e = err as { code?: string; cause?: { code?: string } };
          if (e.code !== '23503' && e.cause?.code !== '23503') throw err;
        });
        if (missing.length < BATCH) break;
        after = missing.at(-1)!.id;
      }
      await store.reconcileAccess();
    },

    /** A database item's rows after a write (`row` undefined: deleted), on the write's transaction. */
    async indexItem(tx: DbOrTx, id: string, row: ContentRow | undefined): Promise<void> {
      await createContentSearchStore(tx).replaceItem(id, row ? rowsOf(row) : []);
    },

    /** The best `limit` matches the searcher may read, and how many published ones lie beyond their level. */
    async search(searcher: ContentSearcher, query: string, types: readonly SearchedType[], limit: number): Promise<SourceMatches> {
      const filter = filterOf(searcher, types);
      const { hits: rows, beyond, highest } = await store.search(query, filter, limit);
      return {
        hits: rows.map((r) => ({
          key: r.id,
          type: r.itemType,
          slug: r.slug,
          title: r.title,
          url: r.url,
          rank: r.rank,
          ...(r.published ? {} : { status: 'unpublished' as const }),
        })),
        beyond: withHighest(beyondOf(beyond), highest),
      };
    },

    /** The highlighted fragment of each hit's text, by key. */
    async headlines(keys: readonly string[], query: string): Promise<Map<string, string>> {
      return new Map((await store.headlines(keys, query)).map((r) => [r.id, r.headline]));
    },
  };
}

export type ContentSearch = ReturnType<typeof createContentSearch>;
