/**
 * The one content service: MDX items from git and database items from the creator tools, merged
 * into one list per type. On a slug clash the reviewed MDX file wins and the row is reported.
 * Writes notify every instance (Postgres NOTIFY, delivered on commit) and local listeners.
 */
import {
  CONTENT_REGISTRY,
  CONTENT_TYPES,
  compareItems,
  itemPath,
  type ContentItem,
  type ContentItemOf,
  type ContentType,
} from '#shared/content/registry.ts';
import type { Db } from '../platform/db/client.ts';
import type { ContentRow } from './tables.ts';
import { downloadHostErrors } from '#shared/content/downloads.ts';
import { AppError, fieldErrors } from '../platform/errors.ts';
import type { Logger } from '../platform/logger.ts';
import type { MdxSource } from './mdx-source.ts';
import { itemFromRow, rowFromInput, slugify } from './rows.ts';
import { createContentStore, type ContentStore } from './store.ts';

export interface ContentServiceDeps {
  db: Db;
  mdx: MdxSource;
  logger: Logger;
  /** Hosts outside download links may name (DOWNLOAD_HOSTS); none when absent. */
  downloadHosts?: readonly string[];
}

export interface WriteOptions {
  /** Id of the user who wrote the item. */
  createdBy?: string;
}

/** Who changes an existing item: editors change what they wrote, admins anything. */
export interface Actor {
  id: string;
  admin: boolean;
}

function assertMayChange(row: ContentRow, actor: Actor | undefined): void {
  if (actor && !actor.admin && row.createdBy !== actor.id)
    throw new AppError('forbidden', 'Editors can change only the items they created. Ask an admin.');
}

function parseInput(type: ContentType, input: unknown) {
  const parsed = CONTENT_REGISTRY[type].input.safeParse(input);
  if (!parsed.success) throw new AppError('validation_failed', 'Some fields are not valid.', { fields: fieldErrors(parsed.error) });
  return parsed.data;
}

/**
 * Splits `published` (whether the item is public; beside the type's own fields, so the creation form's
 * schema stays the spec's) from the rest of a write. Absent means unchanged (true on create).
 */
function takePublished(input: unknown): { published: boolean | undefined; rest: unknown } {
  if (typeof input !== 'object' || input === null || Array.isArray(input) || !Object.hasOwn(input, 'published'))
    return { published: undefined, rest: input };
  const { published, ...rest } = input as Record<string, unknown>;
  if (typeof published !== 'boolean')
    throw new AppError('validation_failed', 'Some fields are not valid.', { fields: { published: ['Must be true or false'] } });
  return { published, rest };
}

/** Refuses outside download links (an https `downloadUrl` or lesson file) whose host is not on the list, naming each field. */
function refuseOutsideDownloads(data: unknown, hosts: readonly string[]): void {
  const fields = downloadHostErrors(data, hosts);
  if (Object.keys(fields).length) throw new AppError('validation_failed', 'Some fields are not valid.', { fields });
}

/** Refuses fields the type does not have, so a misspelt or foreign field is never silently dropped. */
function refuseUnknownFields(type: ContentType, input: unknown): void {
  if (typeof input !== 'object' || input === null || Array.isArray(input)) return; // the schema says what is wrong
  const known = CONTENT_REGISTRY[type].input.shape;
  const unknown = Object.keys(input).filter((key) => !Object.hasOwn(known, key));
  if (unknown.length)
    throw new AppError('validation_failed', 'Some fields are not valid.', {
      fields: Object.fromEntries(unknown.map((key) => [key, [`Not a field of a ${type}`]])),
    });
}

function isUniqueViolation(err: unknown): boolean {
  const e = err as { code?: string; cause?: { code?: string } };
  return e?.code === '23505' || e?.cause?.code === '23505';
}

/** Input shape of an existing row, so an update can be validated as a whole item. */
function inputFromRow(row: ContentRow): Record<string, unknown> {
  return {
    title: row.title,
    description: row.description,
    slug: row.slug,
    tags: row.tags,
    accessLevel: row.accessLevel,
    media: row.media,
    ...row.details,
  };
}

export function createContentService({ db, mdx, logger, downloadHosts = [] }: ContentServiceDeps) {
  const store = createContentStore(db);
  const listeners = new Set<(type: ContentType) => void>();
  const changed = (type: ContentType) => listeners.forEach((fn) => fn(type));

  const toItem = (row: ContentRow): ContentItem | undefined => {
    try {
      return itemFromRow(row);
    } catch (err) {
      logger.error({ err, id: row.id, type: row.type }, 'content row failed validation; skipped');
      return undefined;
    }
  };

  /** One type's list: the MDX items and the database rows they do not shadow, in list order. */
  function merged<T extends ContentType>(type: T, rows: ContentRow[]): ContentItemOf<T>[] {
    const fromDb = rows.flatMap((row) => {
      if (mdx.has(type, row.slug)) {
        logger.warn({ type, slug: row.slug }, 'database item shadowed by an MDX file with the same slug');
        return [];
      }
      const item = toItem(row);
      return item ? [item] : [];
    });
    return [...mdx.list(type), ...fromDb].sort(compareItems) as ContentItemOf<T>[];
  }

  async function freeSlug(type: ContentType, wanted: string, explicit: boolean): Promise<string> {
    const taken = new Set(await store.slugsLike(type, wanted));
    const isFree = (s: string) => !taken.has(s) && !mdx.has(type, s);
    if (isFree(wanted)) return wanted;
    if (explicit) {
      throw new AppError('conflict', `The slug "${wanted}" is already used by another ${type} item.`, {
        fields: { slug: ['Already in use'] },
      });
    }
    for (let n = 2; ; n++) if (isFree(`${wanted}-${n}`)) return `${wanted}-${n}`;
  }

  /** Runs a write and its change notice in one transaction; maps slug races to 409. */
  async function write<R>(type: ContentType, fn: (tx: ContentStore) => Promise<R>): Promise<R> {
    try {
      const result = await db.transaction(async (tx) => {
        const txStore = createContentStore(tx);
        const out = await fn(txStore);
        await txStore.notifyChanged(type);
        return out;
      });
      changed(type);
      return result;
    } catch (err) {
      if (isUniqueViolation(err)) throw new AppError('conflict', 'That slug was just taken. Please choose another.', {
          fields: { slug: ['Already in use'] },
        });
      throw err;
    }
  }

  return {
    /** Every published item of a type, gated fields included, in list order. */
    async list<T extends ContentType>(type: T): Promise<ContentItemOf<T>[]> {
      return merged(type, await store.listByType(type));
    },

    /** One published item by slug, gated fields included; undefined when no source has it. */
    async get<T extends ContentType>(type: T, slug: string): Promise<ContentItemOf<T> | undefined> {
      const fromMdx = mdx.get(type, slug);
      if (fromMdx) return fromMdx as ContentItemOf<T>;
      const row = await store.findPublished(type, slug);
      return (row && toItem(row)) as ContentItemOf<T> | undefined;
    },

    /** Creates a database item from unvalidated input; a missing slug is derived from the title. */
    async create(type: ContentType, body: unknown, options: WriteOptions = {}): Promise<ContentItem> {
      const { published = true, rest: input } = takePublished(body);
      refuseUnknownFields(type, input);
      const data = parseInput(type, input);
      refuseOutsideDownloads(data, downloadHosts);
      const slug = await freeSlug(type, data.slug ?? slugify(data.title), data.slug !== undefined);
      const row = await write(type, (tx) =>
        tx.insert({ ...rowFromInput(type, slug, data), published, createdBy: options.createdBy ?? null }),
      );
      return itemFromRow(row);
    },

    /** Applies a partial change to a database item and validates the result as a whole. */
    async update(type: ContentType, id: string, body: Record<string, unknown>, actor?: Actor): Promise<ContentItem> {
      const existing = await store.findById(id);
      if (!existing || existing.type !== type) throw new AppError('not_found', `No ${type} item with id ${id}.`);
      assertMayChange(existing, actor);
      const { published, rest } = takePublished(body);
      const patch = rest as Record<string, unknown>;
      refuseUnknownFields(type, patch);
      // A tool's "updated" date means last edited (not published or unpublished), unless the change sets it.
      const edited = Object.keys(patch).length > 0;
      const touched = type === 'tool' && edited && !('updatedAt' in patch) ? { updatedAt: new Date() } : {};
      const data = parseInput(type, { ...inputFromRow(existing), ...touched, ...patch });
      // Publishing or unpublishing alone changes no link.
      if (edited) refuseOutsideDownloads(data, downloadHosts);
      const slug = data.slug === existing.slug ? existing.slug : await freeSlug(type, data.slug ?? existing.slug, true);
      const { type: _type, ...columns } = rowFromInput(type, slug, data);
      // Publishing alone writes only its flag, so it never puts back fields another write changed since the read.
      const change = !edited && published !== undefined ? { published } : published === undefined ? columns : { ...columns, published };
      const row = await write(type, async (tx) => {
        const updated = await tx.update(id, change);
        if (!updated) throw new AppError('not_found', `No ${type} item with id ${id}.`);
        return updated;
      });
      return itemFromRow(row);
    },

    /** A database item as its creation form holds it (the type's input fields only), for editing. */
    async editable(
      type: ContentType,
      id: string,
      actor?: Actor,
    ): Promise<{ id: string; type: ContentType; published: boolean; input: Record<string, unknown> }> {
      const existing = await store.findById(id);
      if (!existing || existing.type !== type) throw new AppError('not_found', `No ${type} item with id ${id}.`);
      assertMayChange(existing, actor);
      const known = CONTENT_REGISTRY[type].input.shape;
      const input = Object.fromEntries(Object.entries(inputFromRow(existing)).filter(([key]) => Object.hasOwn(known, key)));
      return { id, type, published: existing.published, input };
    },

    /** Deletes a database item. MDX items are removed through git. */
    async remove(type: ContentType, id: string, actor?: Actor): Promise<void> {
      const existing = await store.findById(id);
      if (!existing || existing.type !== type) throw new AppError('not_found', `No ${type} item with id ${id}.`);
      assertMayChange(existing, actor);
      await write(type, (tx) => tx.remove(id));
    },

    /**
     * Every item of every type from both sources, for the admin's content tab: git items with their
     * file (read-only here), database items with who created them, when, and whether they are
     * published (unpublished ones are listed here only).
     */
    async catalog() {
      const rowsByType = await Promise.all(CONTENT_TYPES.map((type) => store.listByType(type, { drafts: true })));
      const rows = new Map(rowsByType.flat().map((r) => [r.id, r]));
      return CONTENT_TYPES.flatMap((type, i) => merged(type, rowsByType[i]!)).map((item) => {
        const row = item.source === 'db' ? rows.get(item.id) : undefined;
        return {
          type: item.type,
          id: item.id,
          slug: item.slug,
          title: item.title,
          accessLevel: item.accessLevel,
          source: item.source,
          path: itemPath(item.type, item.slug),
          file: item.source === 'mdx' ? `content/${mdx.file(item.type, item.slug) ?? `${CONTENT_REGISTRY[item.type].folder}/${item.slug}.mdx`}` : null,
          published: row?.published ?? true,
          createdBy: row?.createdBy ?? null,
          createdAt: row ? row.createdAt.toISOString() : null,
        };
      });
    },

    /** Subscribes to local writes; returns the unsubscribe function. */
    onChange(listener: (type: ContentType) => void): () => void {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}

export type ContentService = ReturnType<typeof createContentService>;
