/**
 * The outbox worker: claims due messages under a short lease (FOR UPDATE SKIP LOCKED, so any number
 * of workers can run), renews it while it holds them (lease.ts), sends them through the transport
 * with bounded concurrency, and records the result while it still holds the lease. Failures retry
 * with exponential backoff until the message's maximum attempts; permanent rejections fail at once.
 * A worker that dies stops renewing, so its leases run out within one lease and another worker
 * reclaims the messages. `stop()` claims nothing new, gives back messages it had not started, and
 * waits for the ones in flight.
 */
import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import type { Db } from '../platform/db/client.ts';
import type { EmailRow } from './tables.ts';
import type { Logger } from '../platform/logger.ts';
import { holdLeases } from './lease.ts';
import { createEmailStore, type EmailStore } from './store.ts';
import { toMailMessage } from './schema.ts';
import { TransportError, type MailTransport } from '../platform/mail/index.ts';

export interface WorkerOptions {
  db: Db;
  transport: MailTransport;
  logger: Logger;
  /** Messages claimed per round trip. */
  batchSize?: number;
  /** Messages sent at the same time. */
  concurrency?: number;
  /** How long a claim lasts without renewal (renewed every third of it while the worker holds the message). */
  leaseMs?: number;
  /** Idle poll interval (wake-ups by NOTIFY come sooner). */
  pollMs?: number;
  /** Delay before retry number `attempt` (1-based). */
  backoff?: (attempt: number) => number;
  /** Subscribes to "mail queued" notices; returns the unsubscribe function. */
  subscribe?: (wake: () => void) => Promise<() => Promise<void>>;
}

/** 30 s, 1 min, 2 min, 4 min... capped at 1 h, with ±20% jitter so retries do not stampede. */
export function defaultBackoff(attempt: number): number {
  const base = Math.min(30_000 * 2 ** Math.max(0, attempt - 1), 3_600_000);
  return Math.round(base * (0.8 + Math.random() * 0.4));
}

/** What one delivery needs: the transport, the store and the lease's owner, the retry delay, the figures it moves. */
interface DeliveryDeps {
  transport: MailTransport;
  logger: Logger;
  store: EmailStore;
  owner: string;
  backoff: (attempt: number) => number;
  stats: { sent: number; failed: number; retried: number };
}

/** How a sleeping worker is woken early. */
interface WakeSignal {
  wake?: () => void;
}

/** Sends one claimed message and records the result under the lease: sent, retried later or failed. */
async function deliver({ transport, logger, store, owner, backoff, stats }: DeliveryDeps, email: EmailRow): Promise<void> {
  try {
    const result = await transport.send(toMailMessage(email));
    const now = new Date();
    const kept = await store.settle(email.id, owner, {
      status: result.delivered ? 'delivered' : 'sent',
      sentAt: now,
      deliveredAt: result.delivered ? now : null,
      providerMessageId: result.providerMessageId,
      errorMessage: null,
    });
    if (!kept) logger.warn({ emailId: email.id }, 'lease lost before the result was recorded');
    stats.sent += 1;
  } catch (err) {
    const message = err instanceof Error ? err.message : String(err);
    const final = (err instanceof TransportError && err.permanent) || email.attempts >= email.maxAttempts;
    await store.settle(
      email.id,
      owner,
      final
        ? { status: 'failed', failedAt: new Date(), errorMessage: message }
        : { status: 'queued', nextAttemptAt: new Date(Date.now() + backoff(email.attempts)), errorMessage: message },
    );
    if (final) stats.failed += 1;
    else stats.retried += 1;
    logger.warn({ emailId: email.id, attempt: email.attempts, final, err: message }, 'email delivery failed');
  }
}

/** Waits `pollMs`, or less when woken (a "mail queued" notice). */
function idle(pollMs: number, signal: WakeSignal): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(done, pollMs);
    function done() {
      clearTimeout(timer);
      signal.wake = undefined;
      resolve();
    }
    signal.wake = done;
  });
}

export function createEmailWorker(options: WorkerOptions) {
  const { db, transport, logger, batchSize = 50, concurrency = 16, leaseMs = 12_000, pollMs = 1000 } = options;
  const backoff = options.backoff ?? defaultBackoff;
  const owner = `${hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`;
  const store = createEmailStore(db);
  const pending = new Set<string>();
  let running = false;
  const signal: WakeSignal = {};
  let loop: Promise<void> | undefined;
  let unsubscribe: (() => Promise<void>) | undefined;
  const stats = { sent: 0, failed: 0, retried: 0 };

  /** Claims one batch and sends it, holding its leases meanwhile; returns how many messages were claimed. */
  async function runOnce(): Promise<number> {
    const claimedAt = performance.now();
    const batch = await store.claim(owner, batchSize, leaseMs);
    if (batch.length === 0) return 0;
    const leases = holdLeases(
      batch.map((e) => e.id),
      claimedAt,
      { store, owner, leaseMs, logger },
    );
    for (const e of batch) pending.add(e.id);
    let next = 0;
    const lane = async () => {
      while (next < batch.length) {
        const email = batch[next++]!;
        if (!running && !pending.has(email.id)) continue;
        pending.delete(email.id);
        if (!leases.mayStart(email.id)) {
          // Another worker may hold it now: it goes out from there (or from here, once the lease ran out).
          logger.warn({ emailId: email.id }, 'email lease lost before sending; left for the next claim');
          leases.settled(email.id);
          continue;
        }
        await deliver({ transport, logger, store, owner, backoff, stats }, email);
        leases.settled(email.id);
      }
    };
    // Every lane ends before the leases stop being renewed (one lane's database error ends only that lane).
    const lanes = await Promise.allSettled(Array.from({ length: Math.min(concurrency, batch.length) }, lane));
    leases.release();
    const failed = lanes.find((l) => l.status === 'rejected');
    if (failed) throw failed.reason;
    return batch.length;
  }

  async function run(): Promise<void> {
    while (running) {
      try {
        if ((await runOnce()) < batchSize && running) await idle(pollMs, signal);
      } catch (err) {
        logger.error({ err }, 'email worker round failed');
        if (running) await idle(pollMs, signal);
      }
    }
  }

  return {
    owner,
    stats,
    runOnce,
    async start(): Promise<void> {
      if (running) return;
      running = true;
      unsubscribe = await options.subscribe?.(() => signal.wake?.());
      loop = run();
      logger.info({ owner, transport: transport.kind }, 'email worker started');
    },
    /** Stops claiming, gives back unstarted messages, and waits up to `graceMs` for sends in flight. */
    async stop(graceMs = 10_000): Promise<void> {
      if (!running) return;
      running = false;
      signal.wake?.();
      const unstarted = [...pending];
      pending.clear();
      await store.release(unstarted, owner).catch((err: unknown) => logger.warn({ err }, 'could not release email leases'));
      await Promise.race([loop, new Promise((r) => setTimeout(r, graceMs).unref())]);
      await unsubscribe?.().catch(() => undefined);
      logger.info({ owner, ...stats }, 'email worker stopped');
    },
  };
}

export type EmailWorker = ReturnType<typeof createEmailWorker>;
