/**
 * The only module that touches the idempotency_keys table. Every change an attempt makes names its
 * claim token, so an attempt whose claim another took over (its lease ran out) changes nothing:
 * not the row, and not its own write (`markCommitted` finds the key taken and the write rolls back).
 */
import { and, eq, isNull, lt, sql } from 'drizzle-orm';
import type { DbOrTx } from '../db/client.ts';
import { idempotencyKeys as keys } from './tables.ts';

export type KeyRow = typeof keys.$inferSelect;

/** Which row and which attempt: the caller's scope, the client's key, the attempt's claim token. */
export interface ClaimRef {
  scope: string;
  key: string;
  claim: string;
}

/** An answer as it is kept and replayed. */
export interface KeptAnswer {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/** How long a key's answer is kept and replayed. */
export const KEEP_HOURS = 24;

const leaseEnd = (seconds: number) => sql`now() + make_interval(secs => ${seconds})`;
const expired = sql`${keys.createdAt} < now() - make_interval(hours => ${KEEP_HOURS})`;

export function createIdempotencyStore(db: DbOrTx) {
  const row = (scope: string, key: string) => and(eq(keys.scope, scope), eq(keys.key, key));
  const held = (ref: ClaimRef) => and(row(ref.scope, ref.key), eq(keys.claim, ref.claim));
  return {
    /**
     * Claims the key for a new attempt: a new row; or the row of an attempt that died before its
     * write committed (same request, no answer, lease over); or a row past its day, begun afresh.
     * Answers false when the row stays someone else's.
     */
    async claim(ref: ClaimRef, fingerprint: string, leaseSeconds: number): Promise<boolean> {
      const fresh = { fingerprint, claim: ref.claim, lockedUntil: leaseEnd(leaseSeconds) };
      const [claimed] = await db
        .insert(keys)
        .values({ scope: ref.scope, key: ref.key, ...fresh })
        .onConflictDoUpdate({
          target: [keys.scope, keys.key],
          set: { ...fresh, committedAt: null, status: null, headers: null, body: null, createdAt: sql`now()` },
          setWhere: sql`${expired} or (${keys.fingerprint} = ${fingerprint} and ${keys.status} is null
            and ${keys.committedAt} is null and coalesce(${keys.lockedUntil}, '-infinity') < now())`,
        })
        .returning({ key: keys.key });
      return Boolean(claimed);
    },

    /** The key's row as it is now (with whether an attempt still holds it), unless it is past its day. */
    async find(scope: string, key: string): Promise<(KeyRow & { running: boolean }) | undefined> {
      const [found] = await db
        .select({ row: keys, running: sql<boolean>`coalesce(${keys.lockedUntil} > now(), false)` })
        .from(keys)
        .where(and(row(scope, key), sql`not (${expired})`));
      return found && { ...found.row, running: found.running };
    },

    /**
     * Inside the write's transaction: the key's write committed. `taken` when another attempt holds
     * the key now; `gone` when the key is no more (the write is the member's account deletion).
     */
    async markCommitted(ref: ClaimRef): Promise<'marked' | 'taken' | 'gone'> {
      const marked = await db
        .update(keys)
        .set({ committedAt: sql`now()` })
        .where(held(ref))
        .returning({ key: keys.key });
      if (marked.length > 0) return 'marked';
      const [other] = await db.select({ key: keys.key }).from(keys).where(row(ref.scope, ref.key));
      return other ? 'taken' : 'gone';
    },

    /** Renews the lease of an attempt still running. */
    async extend(ref: ClaimRef, leaseSeconds: number): Promise<void> {
      await db
        .update(keys)
        .set({ lockedUntil: leaseEnd(leaseSeconds) })
        .where(and(held(ref), isNull(keys.status)));
    },

    /**
     * Keeps the attempt's answer for replay: any answer when `always`, otherwise only once its write
     * committed. Answers whether it was kept.
     */
    async keep(ref: ClaimRef, answer: KeptAnswer, always: boolean): Promise<boolean> {
      const kept = await db
        .update(keys)
        .set({ ...answer, claim: null, lockedUntil: null })
        .where(and(held(ref), always ? undefined : sql`${keys.committedAt} is not null`))
        .returning({ key: keys.key });
      return kept.length > 0;
    },

    /**
     * Ends an attempt without keeping its answer: a key whose write never committed is forgotten
     * (the retry runs again); one whose write committed stays, answerless, so no retry writes twice.
     */
    async drop(ref: ClaimRef): Promise<void> {
      await db.delete(keys).where(and(held(ref), isNull(keys.committedAt)));
      await db.update(keys).set({ claim: null, lockedUntil: null }).where(held(ref));
    },

    /** Deletes keys past their day; answers how many. */
    async sweep(): Promise<number> {
      const gone = await db
        .delete(keys)
        .where(lt(keys.createdAt, sql`now() - make_interval(hours => ${KEEP_HOURS})`))
        .returning({ key: keys.key });
      return gone.length;
    },

    /** Deletes a member's keys and kept answers (account deletion). */
    async eraseScope(scope: string): Promise<void> {
      await db.delete(keys).where(eq(keys.scope, scope));
    },
  };
}

export type IdempotencyStore = ReturnType<typeof createIdempotencyStore>;
