/**
 * Holding a claimed batch of mail while the worker is alive. Leases are short (EMAIL_LEASE_SECONDS,
 * 12 s by default), so a worker that dies gives its messages up quickly; a live one renews what it
 * still holds every third of the lease, so a send that takes longer than the lease is never taken
 * by another worker and sent twice. A message whose lease the worker can no longer vouch for (a
 * renewal found it taken, or renewals failed for two thirds of the lease) is not started: another
 * worker may hold it by then.
 */
import type { Logger } from '../platform/logger.ts';
import type { EmailStore } from './store.ts';

export interface LeaseHoldOptions {
  store: Pick<EmailStore, 'renew'>;
  owner: string;
  leaseMs: number;
  logger: Logger;
}

/** Renewals per lease: one may fail and the lease still holds for another third. */
const RENEWALS_PER_LEASE = 3;

/**
 * Holds the leases of `ids`, claimed by `owner` just after `claimedAt` (a `performance.now()` read
 * before the claim's query, so the local deadline is never later than the database's), until
 * `release()`. `mayStart(id)` says whether a send may begin; `settled(id)` stops renewing one.
 */
export function holdLeases(ids: string[], claimedAt: number, { store, owner, leaseMs, logger }: LeaseHoldOptions) {
  const heartbeatMs = Math.max(1, Math.floor(leaseMs / RENEWALS_PER_LEASE));
  const held = new Set(ids);
  const lost = new Set<string>();
  // Measured from before each query was sent: the database's `now()` is later, so its expiry is too.
  let validUntil = claimedAt + leaseMs;
  let renewing = false;

  async function renew(): Promise<void> {
    if (renewing || held.size === 0) return;
    renewing = true;
    const asked = [...held];
    const sentAt = performance.now();
    try {
      const kept = await store.renew(asked, owner, leaseMs);
      validUntil = sentAt + leaseMs;
      for (const id of asked) {
        // Settled meanwhile (its lease cleared by the result), or taken: either way no longer held.
        if (kept.has(id) || !held.has(id)) continue;
        held.delete(id);
        lost.add(id);
      }
    } catch (err) {
      logger.warn({ err, owner }, 'could not renew email leases');
    } finally {
      renewing = false;
    }
  }

  const timer = setInterval(() => void renew(), heartbeatMs);
  // A process that has nothing else to do may exit: its leases then run out, as a dead worker's do.
  timer.unref();

  return {
    /** Whether `id` may be handed to the transport now: still ours, with at least a renewal's time left. */
    mayStart(id: string): boolean {
      return !lost.has(id) && performance.now() < validUntil - heartbeatMs;
    },
    /** `id` has its result (or was given back): no more renewals for it. */
    settled(id: string): void {
      held.delete(id);
    },
    /** Stops renewing (the batch is done). */
    release(): void {
      clearInterval(timer);
      held.clear();
    },
  };
}
