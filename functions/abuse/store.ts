/** The `rate_limits` table: one fixed-window counter per key. */
import { lt, sql } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { rateLimits } from '../db/schema.ts';

export function createRateLimitStore(db: Db) {
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
