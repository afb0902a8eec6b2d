/** The `upload_registrations` table: direct uploads registered before the browser sends the bytes. */
import { and, eq, isNull, lt, sql } from 'drizzle-orm';
import type { Db } from '../platform/db/client.ts';
import { uploadRegistrations } from './tables.ts';

export type UploadRegistration = typeof uploadRegistrations.$inferSelect;

export function createUploadStore(db: Db) {
  return {
    async register(row: Pick<UploadRegistration, 'key' | 'area' | 'contentType' | 'size' | 'userId'>): Promise<void> {
      await db.insert(uploadRegistrations).values(row);
    },

    /** The caller's registration of `key` made less than `maxAgeSeconds` ago; another member's is as unknown as none. */
    async find(key: string, userId: string, maxAgeSeconds: number): Promise<UploadRegistration | undefined> {
      const [row] = await db
        .select()
        .from(uploadRegistrations)
        .where(
          and(
            eq(uploadRegistrations.key, key),
            eq(uploadRegistrations.userId, userId),
            sql`${uploadRegistrations.createdAt} > now() - make_interval(secs => ${maxAgeSeconds})`,
          ),
        );
      return row;
    },

    /** Marks the registration done (a second completion, on any instance, finds it done). */
    async complete(key: string): Promise<void> {
      await db
        .update(uploadRegistrations)
        .set({ completedAt: sql`now()` })
        .where(eq(uploadRegistrations.key, key));
    },

    /** Marks the registration done if nobody did yet: true for the one caller that did. */
    async claim(key: string): Promise<boolean> {
      const rows = await db
        .update(uploadRegistrations)
        .set({ completedAt: sql`now()` })
        .where(and(eq(uploadRegistrations.key, key), isNull(uploadRegistrations.completedAt)))
        .returning({ key: uploadRegistrations.key });
      return rows.length === 1;
    },

    async remove(key: string): Promise<void> {
      await db.delete(uploadRegistrations).where(eq(uploadRegistrations.key, key));
    },

    /**
     * Deletes registrations older than `maxAgeSeconds` and answers them (whether each was completed), so
     * the objects no file list names can be deleted. Each row goes to exactly one caller, so every
     * instance may prune at once.
     */
    async prune(maxAgeSeconds: number): Promise<(Pick<UploadRegistration, 'key' | 'area'> & { completed: boolean })[]> {
      const old = lt(uploadRegistrations.createdAt, sql`now() - make_interval(secs => ${maxAgeSeconds})`);
      const rows = await db
        .delete(uploadRegistrations)
        .where(old)
        .returning({ key: uploadRegistrations.key, area: uploadRegistrations.area, completedAt: uploadRegistrations.completedAt });
      return rows.map(({ key, area, completedAt }) => ({ key, area, completed: completedAt !== null }));
    },

    /** Registrations still waiting for their bytes (tests). */
    async pending(): Promise<string[]> {
      const rows = await db
        .select({ key: uploadRegistrations.key })
        .from(uploadRegistrations)
        .where(isNull(uploadRegistrations.completedAt));
      return rows.map((r) => r.key);
    },
  };
}

export type UploadStore = ReturnType<typeof createUploadStore>;
