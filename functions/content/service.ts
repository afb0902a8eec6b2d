/**
 * The one content service: MDX items from git and database items from the creator tools, merged
 * into one list per type. On a slug clash the reviewed MDX file wins and the row is reported.
 * Writes notify every instance (Postgres NOTIFY, delivered on commit) and local listeners, and run
 * the write hook in their transaction (`connect`: another domain's rules about a change, such as the
 * events' registrants, without content importing that domain). This file holds the reads and
 * assembles the writes (writes.ts: the creator tools' checks and transactions).
 */
import {
  CONTENT_REGISTRY,
  CONTENT_TYPES,
  itemPath,
  sortItems,
  type ContentItem,
  type ContentItemOf,
  type ContentType,
} from '#shared/content/registry.ts';
import type { Db, DbOrTx } from '../platform/db/client.ts';
import type { ContentRow } from './tables.ts';
import type { Logger } from '../platform/logger.ts';
import type { MdxSource } from './mdx-source.ts';
import { itemFromRow } from './rows.ts';
import { createContentStore } from './store.ts';
import { createContentWrites, type ContentWriteHook } from './writes.ts';
import { createContentSearch } from './search/service.ts';

export type { ContentChange, ContentWriteHook } from './writes.ts';

export interface ContentServiceDeps {
  db: Db;
  mdx: MdxSource;
  logger: Logger;
  /** Hosts outside download links may name (DOWNLOAD_HOSTS); none when absent. */
  downloadHosts?: readonly string[];
}

/** A database row as a content item; undefined (logged) when it no longer validates. */
function toItem(logger: Logger, row: ContentRow): ContentItem | undefined {
  try {
    return itemFromRow(row);
  } catch (err) {
    logger.error({ err, id: row.id, type: row.type }, 'content row failed validation; skipped');
    return undefined;
  }
}

/** One type's list: the MDX items and the database rows they do not shadow, in list order as seen at `now`. */
function merged<T extends ContentType>(
  { mdx, logger }: Pick<ContentServiceDeps, 'mdx' | 'logger'>,
  type: T,
  rows: ContentRow[],
  now = Date.now(),
): ContentItemOf<T>[] {
  const fromDb = rows.flatMap((row) => {
    if (mdx.has(type, row.slug)) {
      logger.warn({ type, slug: row.slug }, 'database item shadowed by an MDX file with the same slug');
      return [];
    }
    const item = toItem(logger, row);
    return item ? [item] : [];
  });
  return sortItems([...mdx.list(type), ...fromDb], now) as ContentItemOf<T>[];
}

export function createContentService({ db, mdx, logger, downloadHosts = [] }: ContentServiceDeps) {
  const store = createContentStore(db);
  const listeners = new Set<(type: ContentType) => void>();
  const changed = (type: ContentType) => listeners.forEach((fn) => fn(type));
  // Does nothing until connected, so the service can be made alone (tests, the build's reader).
  let onWrite: ContentWriteHook = async () => undefined;
  const search = createContentSearch({ db, mdx, logger });
  const writes = createContentWrites({
    db,
    store,
    mdx,
    downloadHosts,
    changed,
    onWrite: (tx, change) => onWrite(tx, change),
    index: search.indexItem,
  });

  return {
    /** Every published item of a type, gated fields included, in list order as seen at `now` (ms; events move to the past as they end). */
    async list<T extends ContentType>(type: T, now = Date.now()): Promise<ContentItemOf<T>[]> {
      return merged({ mdx, logger }, type, await store.listByType(type), now);
    },

    /** One published item by slug, gated fields included; undefined when no source has it. */
    async get<T extends ContentType>(type: T, slug: string): Promise<ContentItemOf<T> | undefined> {
      const fromMdx = mdx.get(type, slug);
      if (fromMdx) return fromMdx as ContentItemOf<T>;
      const row = await store.findPublished(type, slug);
      return (row && toItem(logger, row)) as ContentItemOf<T> | undefined;
    },

    /**
     * One published item by its stable id (an MDX item's is its slug, a database item's its row's
     * uuid, which a new slug does not change); read on `tx` when given, inside a transaction.
     */
    async getById<T extends ContentType>(type: T, id: string, tx?: DbOrTx): Promise<ContentItemOf<T> | undefined> {
      const fromMdx = mdx.get(type, id);
      if (fromMdx) return fromMdx as ContentItemOf<T>;
      const row = await (tx ? createContentStore(tx) : store).findById(id);
      if (!row || row.type !== type || !row.published || mdx.has(type, row.slug)) return undefined;
      return toItem(logger, row) as ContentItemOf<T> | undefined;
    },

    /** Creates a database item from unvalidated input; a missing slug is derived from the title. */
    create: writes.create,

    /** Applies a partial change to a database item and validates the result as a whole. */
    update: writes.update,

    /** A database item as its creation form holds it (the type's input fields only), for editing. */
    editable: writes.editable,

    /** Deletes a database item. MDX items are removed through git. */
    remove: writes.remove,

    /**
     * Every item of every type from both sources, for the admin's content tab: git items with their
     * file (read-only here), database items with who created them, when, and whether they are
     * published (unpublished ones are listed here only).
     */
    async catalog() {
      const rowsByType = await Promise.all(CONTENT_TYPES.map((type) => store.listByType(type, { drafts: true })));
      const rows = new Map(rowsByType.flat().map((r) => [r.id, r]));
      return CONTENT_TYPES.flatMap((type, i) => merged({ mdx, logger }, type, rowsByType[i]!)).map((item) => {
        const row = item.source === 'db' ? rows.get(item.id) : undefined;
        return {
          type: item.type,
          id: item.id,
          slug: item.slug,
          title: item.title,
          accessLevel: item.accessLevel,
          source: item.source,
          path: itemPath(item.type, item.slug),
          file:
            item.source === 'mdx'
              ? `content/${mdx.file(item.type, item.slug) ?? `${CONTENT_REGISTRY[item.type].folder}/${item.slug}.mdx`}`
              : null,
          published: row?.published ?? true,
          createdBy: row?.createdBy ?? null,
          createdAt: row ? row.createdAt.toISOString() : null,
        };
      });
    },

    /** Site search's gated text of articles and lessons (search/service.ts): `sync` at start, then `search` and `headlines`. */
    search,

    /** Connects the write hook (compose.ts), run in every write's transaction before it commits. */
    connect(hooks: { onWrite: ContentWriteHook }): void {
      onWrite = hooks.onWrite;
    },

    /** Subscribes to local writes; returns the unsubscribe function. */
    onChange(listener: (type: ContentType) => void): () => void {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}

export type ContentService = ReturnType<typeof createContentService>;
