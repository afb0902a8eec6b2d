/**
 * Categories as admins manage them (the Moderation tab's Categories part): list with thread counts,
 * create, change (name, description, level, open to visitors, position; the slug is its address
 * and stays), and delete, refused with 409 while the category holds any thread (hidden and deleted
 * ones too: move them first). Each change is logged in its transaction like every staff action.
 */
import type { Db } from '../../platform/db/client.ts';
import { AppError } from '../../platform/errors.ts';
import type { Viewer } from '../../users/index.ts';
import { notifyChanged } from '../store.ts';
import type { CategoryRow } from '../tables.ts';
import type { CategoryInput, CategoryUpdate } from './schema.ts';
import { createModerationStore } from './store.ts';

const NO_CATEGORY = 'No category with that slug.';

/** A category as admins see it. */
function summary(row: CategoryRow, threadCount: number) {
  return {
    id: row.id,
    slug: row.slug,
    name: row.name,
    description: row.description,
    accessLevel: row.accessLevel,
    anyoneReads: row.anyoneReads,
    position: row.position,
    threadCount,
  };
}

/** The fields that differ, as `{ field: [before, after] }` (the log's detail). */
function differences(before: CategoryRow, after: CategoryUpdate): Record<string, [unknown, unknown]> {
  const out: Record<string, [unknown, unknown]> = {};
  for (const key of ['name', 'description', 'accessLevel', 'anyoneReads', 'position'] as const)
    if (before[key] !== after[key]) out[key] = [before[key], after[key]];
  return out;
}

export function createCategoryAdmin({ db, onChange }: { db: Db; onChange?: () => void }) {
  const store = createModerationStore(db);
  const changed = () => onChange?.();
  return {
    /** Every category in display order, with its thread count (any status). */
    async list() {
      return { items: (await store.categories()).map((row) => summary(row, row.threadCount)) };
    },

    /** A new category; 409 when the slug is taken. */
    async create(actor: Viewer, input: CategoryInput) {
      const row = await db.transaction(async (tx) => {
        const inTx = createModerationStore(tx);
        const created = await inTx.createCategory(input);
        if (!created) throw new AppError('conflict', 'A category with that slug exists already.');
        const detail = { slug: created.slug, name: created.name, accessLevel: created.accessLevel, anyoneReads: created.anyoneReads };
        await inTx.log({ actorId: actor.id, action: 'category-create', detail });
        await notifyChanged(tx);
        return created;
      });
      changed();
      return { category: summary(row, 0) };
    },

    /** Changes a category; a change of nothing answers it as it is and logs nothing. */
    async update(actor: Viewer, slug: string, input: CategoryUpdate) {
      const { row, threads } = await db.transaction(async (tx) => {
        const inTx = createModerationStore(tx);
        const before = await inTx.categoryBySlug(slug, { lock: true });
        if (!before) throw new AppError('not_found', NO_CATEGORY);
        const diff = differences(before, input);
        const after = Object.keys(diff).length > 0 ? await inTx.updateCategory(before.id, input) : before;
        if (Object.keys(diff).length > 0) {
          await inTx.log({ actorId: actor.id, action: 'category-update', detail: { slug, changes: diff } });
          // A level or visitors' access that changed must reach every instance's cached lists at once.
          await notifyChanged(tx);
        }
        return { row: after, threads: await inTx.threadCount(before.id) };
      });
      changed();
      return { category: summary(row, threads) };
    },

    /** Deletes an empty category; 409 while it holds threads. */
    async remove(actor: Viewer, slug: string): Promise<void> {
      await db.transaction(async (tx) => {
        const inTx = createModerationStore(tx);
        // Locked first: a thread being started in it waits, then finds it gone.
        const row = await inTx.categoryBySlug(slug, { lock: true });
        if (!row) throw new AppError('not_found', NO_CATEGORY);
        const threads = await inTx.threadCount(row.id);
        if (threads > 0)
          throw new AppError(
            'conflict',
            `This category holds ${threads} ${threads === 1 ? 'thread' : 'threads'} (hidden and deleted ones count): move them first.`,
          );
        await inTx.deleteCategory(row.id);
        await inTx.log({ actorId: actor.id, action: 'category-delete', detail: { slug, name: row.name } });
        await notifyChanged(tx);
      });
      changed();
    },
  };
}

export type CategoryAdmin = ReturnType<typeof createCategoryAdmin>;
