/** The `rate_limits` table: one fixed-window counter per key. */
import { and, eq, lt, notLike, or, sql } from 'drizzle-orm';
import type { DbOrTx } from '../db/client.ts';
import { rateLimits } from './tables.ts';

/**
 * Marks share the counters' table under their own prefix: a counter's window is at most a day, but a
 * mark is worth keeping longer (an address an account signed in from is still its owner's next month).
 */
const MARK_PREFIX = 'mark:';
/** How long a mark is kept at most. */
export const MARK_DAYS = 30;

/** The counters, on the database or inside a caller's transaction (see the service's `within`). */
export function createRateLimitStore(db: DbOrTx) {
  /** The count of `key` in its current window (0 when none or the window has passed), without counting a use. */
  async function peek(key: string, windowSeconds: number): Promise<{ count: number; retrySeconds: number }> {
    const window = sql`make_interval(secs => ${windowSeconds})`;
    const [row] = await db
      .select({
        count: rateLimits.count,
        retry: sql<number>`ceil(extract(epoch from (${rateLimits.windowStart} + ${window} - now())))::int`,
      })
      .from(rateLimits)
      .where(and(eq(rateLimits.key, key), sql`${rateLimits.windowStart} > now() - ${window}`));
    return { count: row?.count ?? 0, retrySeconds: Number(row?.retry ?? 0) };
  }

  return {
    peek,

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

    /** Forgets `key` (a counter its owner has cleared, e.g. by proving who they are). */
    async reset(key: string): Promise<void> {
      await db.delete(rateLimits).where(eq(rateLimits.key, key));
    },

    /** Takes one use back from `key`'s current count (a use counted ahead that turned out not to count). */
    async release(key: string): Promise<void> {
      await db
        .update(rateLimits)
        .set({ count: sql`greatest(${rateLimits.count} - 1, 0)` })
        .where(eq(rateLimits.key, key));
    },

    /** Records that `key` happened now (a mark, kept up to MARK_DAYS; read back with `marked`). */
    async mark(key: string): Promise<void> {
      await db
        .insert(rateLimits)
        .values({ key: `${MARK_PREFIX}${key}`, windowStart: sql`now()`, count: 1 })
        .onConflictDoUpdate({ target: rateLimits.key, set: { windowStart: sql`now()`, count: 1 } });
    },

    /** Whether `key` was marked within the last `seconds`. */
    async marked(key: string, seconds: number): Promise<boolean> {
      return (await peek(`${MARK_PREFIX}${key}`, seconds)).count > 0;
    },

    /** Deletes counters whose window started more than a day ago and marks older than MARK_DAYS; returns how many. */
    async prune(): Promise<number> {
      const gone = await db
        .delete(rateLimits)
        .where(
          or(
            and(lt(rateLimits.windowStart, sql`now() - interval '1 day'`), notLike(rateLimits.key, `${MARK_PREFIX}%`)),
            lt(rateLimits.windowStart, sql`now() - make_interval(days => ${MARK_DAYS})`),
          ),
        )
        .returning({ key: rateLimits.key });
      return gone.length;
    },
  };
}

export type RateLimitStore = ReturnType<typeof createRateLimitStore>;
