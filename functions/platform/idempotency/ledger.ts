/**
 * The idempotency keys' rules over their store: who may run a keyed request, what a retry is
 * answered, and which answers are kept. See index.ts for the middleware that applies them.
 */
import { randomUUID } from 'node:crypto';
import type { Db, Tx } from '../db/client.ts';
import { AppError } from '../errors.ts';
import { createIdempotencyStore, type ClaimRef, type KeptAnswer } from './store.ts';

/** What a keyed request may do: run (it holds the claim), or answer without running. */
export type Begun =
  | { kind: 'claimed'; ref: ClaimRef }
  | { kind: 'replay'; answer: KeptAnswer }
  /** The key came with another request before. */
  | { kind: 'reused' }
  /** An attempt holds the key now: it is running, or died less than a lease ago. */
  | { kind: 'running' }
  /** Its write committed, and its answer was lost (the attempt died before keeping it). */
  | { kind: 'lost' };

export interface LedgerOptions {
  /**
   * How long a claim holds without news of its attempt: a retry after an instance's death waits
   * at most this long before it may run again. Attempts renew it while they run.
   */
  leaseSeconds?: number;
}

/** The lease by default: a few of the browser's retry delays (src/lib/browser/write-fetch.ts). */
const LEASE_SECONDS = 10;

export function createIdempotencyLedger(db: Db, { leaseSeconds = LEASE_SECONDS }: LedgerOptions = {}) {
  const store = createIdempotencyStore(db);
  return {
    leaseSeconds,

    /** Claims the key for this request, or says what it is to be answered instead. */
    async begin(scope: string, key: string, fingerprint: string): Promise<Begun> {
      const ref = { scope, key, claim: randomUUID() };
      // Twice at most: a row dropped between the claim and the read is claimed on the second round.
      for (let round = 0; round < 2; round++) {
        if (await store.claim(ref, fingerprint, leaseSeconds)) return { kind: 'claimed', ref };
        const row = await store.find(scope, key);
        if (!row) continue;
        if (row.fingerprint !== fingerprint) return { kind: 'reused' };
        if (row.status !== null)
          return { kind: 'replay', answer: { status: row.status, headers: row.headers ?? {}, body: row.body ?? '' } };
        if (row.running) return { kind: 'running' };
        if (row.committedAt) return { kind: 'lost' };
      }
      return { kind: 'running' };
    },

    /**
     * Records, inside a write's transaction, that the attempt's write committed. An attempt that
     * lost its claim (its lease ran out and a retry took the key) rolls its write back instead. A
     * key the write itself erased (an account deletion takes the member's keys) has nothing to mark.
     */
    async markCommitted(tx: Tx, ref: ClaimRef): Promise<void> {
      if ((await createIdempotencyStore(tx).markCommitted(ref)) === 'taken') {
        throw new AppError('request_in_progress', 'A later attempt with this Idempotency-Key took it over; this one changed nothing.');
      }
    },

    /** Keeps the attempt's claim while it runs. */
    extend: (ref: ClaimRef) => store.extend(ref, leaseSeconds),

    /**
     * Ends the attempt. A success (below 400) is kept whatever it wrote; a 4xx only once a write
     * committed (one that changed nothing is asked again: the retry gets the answer of the moment,
     * a new token or a lifted limit included); a 5xx, or an answer that cannot be kept, never (then
     * the retry runs again, unless a write committed: see `lost`).
     */
    async finish(ref: ClaimRef, answer: KeptAnswer | undefined): Promise<void> {
      if (answer && answer.status < 500 && (await store.keep(ref, answer, answer.status < 400))) return;
      await store.drop(ref);
    },

    /** Deletes keys past their day (the hourly prune). */
    sweep: () => store.sweep(),
  };
}

export type IdempotencyLedger = ReturnType<typeof createIdempotencyLedger>;
