/**
 * The creator tools' writes to database items: each body is checked whole against the type's input
 * schema (no unknown fields, no outside download hosts), slugs stay unique across both sources, and
 * editors change only what they wrote. Each write, the write hook (another domain's rules about the
 * change, connected in compose.ts) and the change notice share one transaction.
 */
import { CONTENT_REGISTRY, inputFromDetails, type ContentItem, type ContentType } from '#shared/content/registry.ts';
import type { Db, Tx } from '../platform/db/client.ts';
import type { ContentRow } from './tables.ts';
import { downloadHostErrors } from '#shared/content/downloads.ts';
import { AppError, fieldErrors } from '../platform/errors.ts';
import type { MdxSource } from './mdx-source.ts';
import { itemFromRow, rowFromInput, slugify } from './rows.ts';
import { createContentStore, type ContentStore } from './store.ts';

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

/** A write to a database item, as visitors saw the item before and see it after (undefined: absent or unpublished). */
export interface ContentChange {
  type: ContentType;
  before: ContentItem | undefined;
  after: ContentItem | undefined;
}

/**
 * Runs inside a write's transaction, after the write and before the commit: throwing refuses the
 * write (an event with registrants is not deleted), and what it writes on `tx` commits with it.
 */
export type ContentWriteHook = (tx: Tx, change: ContentChange) => Promise<void>;

/** The item a row shows visitors: undefined when unpublished (or no longer valid, which no channel serves either). */
function visible(row: ContentRow | undefined): ContentItem | undefined {
  if (!row?.published) return undefined;
  try {
    return itemFromRow(row);
  } catch {
    return undefined;
  }
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
    ...inputFromDetails(row.type, row.details),
  };
}

export interface ContentWritesDeps {
  db: Db;
  store: ContentStore;
  mdx: MdxSource;
  downloadHosts: readonly string[];
  /** Tells local listeners that a type's items changed (after the commit). */
  changed: (type: ContentType) => void;
  /** Called with every write inside its transaction. */
  onWrite: ContentWriteHook;
  /** Writes the item's search rows (`row` undefined: deleted), inside the write's transaction (search/service.ts). */
  index: (tx: Tx, id: string, row: ContentRow | undefined) => Promise<void>;
}

async function freeSlug({ store, mdx }: ContentWritesDeps, type: ContentType, wanted: string, explicit: boolean): Promise<string> {
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

/**
 * Runs a write, its search rows, the write hook and the change notice in one transaction; maps slug races to 409.
 * The item written to (`id`; none for a new one) is read again under its row lock first, so the
 * hook compares the state this write replaces, whatever another write committed meanwhile.
 */
async function write(
  { db, changed, onWrite, index }: ContentWritesDeps,
  type: ContentType,
  id: string | undefined,
  fn: (tx: ContentStore) => Promise<ContentRow | undefined>,
): Promise<ContentRow | undefined> {
  try {
    const result = await db.transaction(async (tx) => {
      const txStore = createContentStore(tx);
      const before = id === undefined ? undefined : await txStore.lockById(id);
      if (id !== undefined && !before) throw new AppError('not_found', `No ${type} item with id ${id}.`);
      const row = await fn(txStore);
      await index(tx, id ?? row!.id, row);
      await onWrite(tx, { type, before: visible(before), after: visible(row) });
      await txStore.notifyChanged(type);
      return row;
    });
    changed(type);
    return result;
  } catch (err) {
    if (isUniqueViolation(err))
      throw new AppError('conflict', 'That slug was just taken. Please choose another.', {
        fields: { slug: ['Already in use'] },
      });
    throw err;
  }
}

/** The database item of this type with this id that the actor may change; 404 or 403 otherwise. */
async function changeable({ store }: ContentWritesDeps, type: ContentType, id: string, actor: Actor | undefined): Promise<ContentRow> {
  const existing = await store.findById(id);
  if (!existing || existing.type !== type) throw new AppError('not_found', `No ${type} item with id ${id}.`);
  assertMayChange(existing, actor);
  return existing;
}

export function createContentWrites(deps: ContentWritesDeps) {
  const { downloadHosts } = deps;

  return {
    /** Creates a database item from unvalidated input; a missing slug is derived from the title. */
    async create(type: ContentType, body: unknown, options: WriteOptions = {}): Promise<ContentItem> {
      const { published = true, rest: input } = takePublished(body);
      refuseUnknownFields(type, input);
      const data = parseInput(type, input);
      refuseOutsideDownloads(data, downloadHosts);
      const slug = await freeSlug(deps, type, data.slug ?? slugify(data.title), data.slug !== undefined);
      const row = await write(deps, type, undefined, (tx) =>
        tx.insert({ ...rowFromInput(type, slug, data), published, createdBy: options.createdBy ?? null }),
      );
      return itemFromRow(row!);
    },

    /** Applies a partial change to a database item and validates the result as a whole. */
    async update(type: ContentType, id: string, body: Record<string, unknown>, actor?: Actor): Promise<ContentItem> {
      const existing = await changeable(deps, type, id, actor);
      const { published, rest } = takePublished(body);
      const patch = rest as Record<string, unknown>;
      refuseUnknownFields(type, patch);
      // null removes a field (a change is partial: an absent field keeps its value); the whole is checked below.
      const cleared = Object.keys(patch).filter((key) => patch[key] === null);
      // A tool's "updated" date means last edited (not published or unpublished), unless the change sets it.
      const edited = Object.keys(patch).length > 0;
      const touched = type === 'tool' && edited && !('updatedAt' in patch) ? { updatedAt: new Date() } : {};
      const merged: Record<string, unknown> = { ...inputFromRow(existing), ...touched, ...patch };
      for (const key of cleared) delete merged[key];
      const data = parseInput(type, merged);
      // Publishing or unpublishing alone changes no link.
      if (edited) refuseOutsideDownloads(data, downloadHosts);
      const slug = data.slug === existing.slug ? existing.slug : await freeSlug(deps, type, data.slug ?? existing.slug, true);
      const { type: _type, ...columns } = rowFromInput(type, slug, data);
      // Publishing alone writes only its flag, so it never puts back fields another write changed since the read.
      const change = !edited && published !== undefined ? { published } : published === undefined ? columns : { ...columns, published };
      const row = await write(deps, type, id, async (tx) => {
        const updated = await tx.update(id, change);
        if (!updated) throw new AppError('not_found', `No ${type} item with id ${id}.`);
        return updated;
      });
      return itemFromRow(row!);
    },

    /** A database item as its creation form holds it (the type's input fields only), for editing. */
    async editable(
      type: ContentType,
      id: string,
      actor?: Actor,
    ): Promise<{ id: string; type: ContentType; published: boolean; input: Record<string, unknown> }> {
      const existing = await changeable(deps, type, id, actor);
      const known = CONTENT_REGISTRY[type].input.shape;
      const input = Object.fromEntries(Object.entries(inputFromRow(existing)).filter(([key]) => Object.hasOwn(known, key)));
      return { id, type, published: existing.published, input };
    },

    /** Deletes a database item. MDX items are removed through git. */
    async remove(type: ContentType, id: string, actor?: Actor): Promise<void> {
      await changeable(deps, type, id, actor);
      await write(deps, type, id, async (tx) => {
        await tx.remove(id);
        return undefined;
      });
    },
  };
}
