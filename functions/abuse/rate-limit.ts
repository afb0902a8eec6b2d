/**
 * Fixed-window rate limits kept in Postgres, so they hold across any number of server instances.
 * One upsert per check: the window restarts when it has passed, otherwise the counter grows.
 */
import { createHash } from 'node:crypto';
import { lt, sql } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { rateLimits } from '../db/schema.ts';
import { AppError } from '../errors.ts';

export interface Limit {
  /** What is limited, e.g. "contact:ip". */
  name: string;
  max: number;
  windowSeconds: number;
}

export interface LimitResult {
  allowed: boolean;
  remaining: number;
  retryAfterSeconds: number;
}

export function createRateLimiter(db: Db) {
  async function hit(limit: Limit, subject: string): Promise<LimitResult> {
    // Subjects are addresses and IPs: only a digest is stored, so the table holds no personal data.
    const key = `${limit.name}:${createHash('sha256').update(subject.toLowerCase()).digest('base64url').slice(0, 32)}`;
    const window = sql`make_interval(secs => ${limit.windowSeconds})`;
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
    const count = row?.count ?? 1;
    return {
      allowed: count <= limit.max,
      remaining: Math.max(0, limit.max - count),
      retryAfterSeconds: Math.max(1, Number(row?.retry ?? limit.windowSeconds)),
    };
  }

  return {
    hit,
    /** Counts one use against every limit and throws 429 (rate_limited) when any is exceeded. */
    async enforce(checks: [Limit, string][]): Promise<void> {
      for (const [limit, subject] of checks) {
        const result = await hit(limit, subject);
        if (!result.allowed) {
          throw new AppError('rate_limited', `Too many requests. Please try again in ${formatWait(result.retryAfterSeconds)}.`);
        }
      }
    },
    /** Deletes counters whose window ended more than a day ago. */
    async prune(): Promise<number> {
      const gone = await db
        .delete(rateLimits)
        .where(lt(rateLimits.windowStart, sql`now() - interval '1 day'`))
        .returning({ key: rateLimits.key });
      return gone.length;
    },
  };
}

function formatWait(seconds: number): string {
  if (seconds < 90) return `${seconds} seconds`;
  const minutes = Math.ceil(seconds / 60);
  return minutes < 90 ? `${minutes} minutes` : `${Math.ceil(minutes / 60)} hours`;
}

export type RateLimiter = ReturnType<typeof createRateLimiter>;
