/** The only module that touches the content_items table. */
import { and, asc, eq, sql } from 'drizzle-orm';
import type { ContentType } from '#shared/content/registry.ts';
import type { DbOrTx } from '../platform/db/client.ts';
import { announce } from '../platform/changes/store.ts';
import { contentItems, type ContentRow, type NewContentRow } from './tables.ts';

/** NOTIFY channel that tells every instance to drop its cached content answers. */
export const CONTENT_CHANNEL = 'content_changed';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function createContentStore(db: DbOrTx) {
  return {
    /** A type's rows, published ones only unless `drafts` (the admin's catalogue). */
    listByType(type: ContentType, { drafts = false } = {}): Promise<ContentRow[]> {
      const where = drafts ? eq(contentItems.type, type) : and(eq(contentItems.type, type), eq(contentItems.published, true));
      return db.select().from(contentItems).where(where).orderBy(asc(contentItems.createdAt));
    },

    /** A published row by slug: unpublished rows are never read by slug (every slug read is public). */
    async findPublished(type: ContentType, slug: string): Promise<ContentRow | undefined> {
      const [row] = await db
        .select()
        .from(contentItems)
        .where(and(eq(contentItems.type, type), eq(contentItems.slug, slug), eq(contentItems.published, true)))
        .limit(1);
      return row;
    },

    async findById(id: string): Promise<ContentRow | undefined> {
      if (!UUID.test(id)) return undefined;
      const [row] = await db.select().from(contentItems).where(eq(contentItems.id, id)).limit(1);
      return row;
    },

    /** The row, locked until the transaction ends (a write reads what it replaces under the lock). */
    async lockById(id: string): Promise<ContentRow | undefined> {
      if (!UUID.test(id)) return undefined;
      const [row] = await db.select().from(contentItems).where(eq(contentItems.id, id)).for('update');
      return row;
    },

    /** Slugs of this type that start with `prefix`, for picking a free one. */
    async slugsLike(type: ContentType, prefix: string): Promise<string[]> {
      const rows = await db
        .select({ slug: contentItems.slug })
        .from(contentItems)
        .where(and(eq(contentItems.type, type), sql`${contentItems.slug} like ${`${prefix.replace(/[\\%_]/g, '\\$&')}%`}`));
      return rows.map((r) => r.slug);
    },

    async insert(row: NewContentRow): Promise<ContentRow> {
      const [created] = await db.insert(contentItems).values(row).returning();
      return created!;
    },

    async update(id: string, patch: Partial<NewContentRow>): Promise<ContentRow | undefined> {
      const [updated] = await db
        .update(contentItems)
        .set({ ...patch, updatedAt: new Date() })
        .where(eq(contentItems.id, id))
        .returning();
      return updated;
    },

    async remove(id: string): Promise<boolean> {
      const deleted = await db.delete(contentItems).where(eq(contentItems.id, id)).returning({ id: contentItems.id });
      return deleted.length > 0;
    },

    /** Announces the change to every instance when the transaction commits (platform/changes). */
    async notifyChanged(type: ContentType): Promise<void> {
      await announce(db, CONTENT_CHANNEL, type);
    },
  };
}

export type ContentStore = ReturnType<typeof createContentStore>;
