/** The `rate_limits` table: one fixed-window counter per key. */
import { and, eq, lt, sql } from 'drizzle-orm';
import type { DbOrTx } from '../db/client.ts';
import { rateLimits } from './tables.ts';

/** The counters, on the database or inside a caller's transaction (see the service's `within`). */
export function createRateLimitStore(db: DbOrTx) {
  return {
    /**
     * Counts one use of `key` in one upsert: the window restarts when it has passed, otherwise the
     * counter grows. Returns the count and the seconds until the window ends.
     */
    async hit(key: string, windowSeconds: number): Promise<{ count: number; retrySeconds: number }> {
      const window = sql`make_interval(secs => ${windowSeconds})`;
      const expired = sql`${rateLimits.windowStart} <= now() - ${window}`;
      const [row] = await db
        .insert(rateLimits)
        .values({ key, windowStart: sql`now()`, count: 1 })
        .onConflictDoUpdate({
          target: rateLimits.key,
          set: {
            count: sql`case when ${expired} then 1 else ${rateLimits.count} + 1 end`,
            windowStart: sql`case when ${expired} then now() else ${rateLimits.windowStart} end`,
          },
        })
        .returning({
          count: rateLimits.count,
          retry: sql<number>`ceil(extract(epoch from (${rateLimits.windowStart} + ${window} - now())))::int`,
        });
      return { count: row?.count ?? 1, retrySeconds: Number(row?.retry ?? windowSeconds) };
    },

    /** The count of `key` in its current window (0 when none or the window has passed), without counting a use. */
    async peek(key: string, windowSeconds: number): Promise<{ count: number; retrySeconds: number }> {
      const window = sql`make_interval(secs => ${windowSeconds})`;
      const [row] = await db
        .select({
          count: rateLimits.count,
          retry: sql<number>`ceil(extract(epoch from (${rateLimits.windowStart} + ${window} - now())))::int`,
        })
        .from(rateLimits)
        .where(and(eq(rateLimits.key, key), sql`${rateLimits.windowStart} > now() - ${window}`));
      return { count: row?.count ?? 0, retrySeconds: Number(row?.retry ?? 0) };
    },

    /** Forgets `key` (a counter its owner has cleared, e.g. by proving who they are). */
    async reset(key: string): Promise<void> {
      await db.delete(rateLimits).where(eq(rateLimits.key, key));
    },

    /** Deletes counters whose window started more than a day ago; returns how many. */
    async prune(): Promise<number> {
      const gone = await db
        .delete(rateLimits)
        .where(lt(rateLimits.windowStart, sql`now() - interval '1 day'`))
        .returning({ key: rateLimits.key });
      return gone.length;
    },
  };
}

export type RateLimitStore = ReturnType<typeof createRateLimitStore>;
