/** The only module with SQL on API keys. */
import { and, desc, eq, isNull, or, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../platform/db/client.ts';
import { apiKeys, type ApiKeyRow } from '../tables.ts';

export function createApiKeyStore(db: DbOrTx) {
  return {
    list: () => db.select().from(apiKeys).orderBy(desc(apiKeys.createdAt)),
    async insert(values: typeof apiKeys.$inferInsert): Promise<ApiKeyRow> {
      const [row] = await db.insert(apiKeys).values(values).returning();
      return row!;
    },
    /** The key with this hash, unless revoked. */
    async live(hash: string): Promise<ApiKeyRow | undefined> {
      const [row] = await db
        .select()
        .from(apiKeys)
        .where(and(eq(apiKeys.hash, hash), isNull(apiKeys.revokedAt)));
      return row;
    },
    /** Revokes a key; false when there is none or it was revoked already. */
    async revoke(id: string): Promise<boolean> {
      const rows = await db
        .update(apiKeys)
        .set({ revokedAt: sql`now()` })
        .where(and(eq(apiKeys.id, id), isNull(apiKeys.revokedAt)))
        .returning({ id: apiKeys.id });
      return rows.length > 0;
    },
    /** Marks a key used now, unless it was within the minute. */
    async touch(id: string): Promise<void> {
      await db
        .update(apiKeys)
        .set({ lastUsedAt: sql`now()` })
        .where(and(eq(apiKeys.id, id), or(isNull(apiKeys.lastUsedAt), sql`${apiKeys.lastUsedAt} < now() - interval '1 minute'`)));
    },
  };
}
