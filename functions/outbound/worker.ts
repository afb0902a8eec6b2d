/**
 * The webhook delivery worker, on the email outbox's pattern (email/worker.ts): it claims due
 * deliveries under a lease (FOR UPDATE SKIP LOCKED, so every instance and every serverless round can
 * run one), signs each attempt (signing.ts), POSTs it (send.ts) and records the result only while it
 * still holds the lease (fencing). A 2xx is delivered; anything else (a 3xx included: redirects are
 * not followed, a timeout, a refused address) is retried with backoff (30 s, 2 min, 10 min, 1 h, 6 h,
 * then every 12 h, ±10%) until the delivery's give-up time, 3 days after the event, then failed.
 *
 * No heartbeat is needed: the lease (60 s) outlasts a whole batch's sends (each bounded by the send
 * timeout, a lane sending at most batch/concurrency of them), and a delivery whose turn comes too
 * late to finish inside the lease is given back unsent. A worker killed before sending leaves its
 * leases to run out; the next worker sends the same delivery, with the same `webhook-id`, so each
 * event reaches the endpoint once. Killed between the endpoint's answer and the record, it is sent
 * again: delivery is at least once, and receivers drop repeats by `webhook-id`, as the Standard
 * Webhooks specification asks of them.
 */
import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import type { Db } from '../platform/db/client.ts';
import type { Logger } from '../platform/logger.ts';
import type { SendWebhook } from './send.ts';
import { signedHeaders } from './signing.ts';
import { createOutboundStore, type ClaimedDelivery, type OutboundStore } from './store.ts';

export interface WebhookWorkerOptions {
  db: Db;
  logger: Logger;
  send: SendWebhook;
  /** Now, for leases, due times and give-up times (tests move it). */
  clock: () => Date;
  /** Each request's bound (the sender's timeout): a delivery is not started unless it can end within the lease. */
  timeoutMs: number;
  leaseMs?: number;
  batchSize?: number;
  concurrency?: number;
  /** Delay before the attempt after attempt number `attempt` (1-based). */
  backoff?: (attempt: number) => number;
}

const STEPS_MS = [30_000, 120_000, 600_000, 3_600_000, 6 * 3_600_000, 12 * 3_600_000];

/** 30 s, 2 min, 10 min, 1 h, 6 h, then 12 h, each ±10% so retries of many events do not arrive together. */
export function defaultWebhookBackoff(attempt: number): number {
  const base = STEPS_MS[Math.min(Math.max(attempt, 1), STEPS_MS.length) - 1]!;
  return Math.round(base * (0.9 + Math.random() * 0.2));
}

/** The body every attempt sends: the Standard Webhooks envelope. */
export const webhookBody = (d: Pick<ClaimedDelivery, 'eventType' | 'createdAt' | 'payload'>) =>
  JSON.stringify({ type: d.eventType, timestamp: d.createdAt.toISOString(), data: d.payload });

/** What one delivery needs: how it is sent, the clock, the store and the lease's owner, the retry delay, the figures it moves. */
interface DeliveryDeps extends Pick<WebhookWorkerOptions, 'send' | 'clock' | 'logger'> {
  store: OutboundStore;
  owner: string;
  backoff: (attempt: number) => number;
  stats: { delivered: number; retried: number; failed: number };
}

/** Sends one claimed delivery, signed, and records the result under the lease: delivered, retried later or failed. */
async function deliver({ send, clock, logger, store, owner, backoff, stats }: DeliveryDeps, d: ClaimedDelivery): Promise<void> {
  const body = webhookBody(d);
  const signedAt = clock();
  const secrets = [d.secret, ...(d.previousSecret && d.previousSecretUntil && d.previousSecretUntil > signedAt ? [d.previousSecret] : [])];
  // The signature's time is the moment the request leaves (receivers refuse stale ones); `clock` only schedules the queue.
  const headers = signedHeaders(secrets, d.eventId, Math.floor(Date.now() / 1000), body);
  const result = await send({ url: d.url, headers, body });
  const now = clock();
  if (result.status !== null && result.status >= 200 && result.status < 300) {
    stats.delivered += 1;
    if (!(await store.settle(d.id, owner, { status: 'delivered', deliveredAt: now, lastStatus: result.status, lastError: null })))
      logger.warn({ deliveryId: d.id }, 'webhook lease lost before its delivery was recorded');
    return;
  }
  const next = new Date(now.getTime() + backoff(d.attempts));
  const final = next > d.giveUpAt;
  await store.settle(
    d.id,
    owner,
    final
      ? { status: 'failed', failedAt: now, lastStatus: result.status, lastError: result.error ?? null }
      : { status: 'queued', nextAttemptAt: next, lastStatus: result.status, lastError: result.error ?? null },
  );
  if (final) stats.failed += 1;
  else stats.retried += 1;
  logger.warn(
    { deliveryId: d.id, eventId: d.eventId, attempt: d.attempts, final, status: result.status, err: result.error },
    'webhook delivery failed',
  );
}

export function createWebhookWorker(options: WebhookWorkerOptions) {
  const { db, logger, send, clock, timeoutMs, leaseMs = 60_000, batchSize = 10, concurrency = 5 } = options;
  const backoff = options.backoff ?? defaultWebhookBackoff;
  const owner = `${hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`;
  const store = createOutboundStore(db);
  const stats = { delivered: 0, retried: 0, failed: 0 };

  /** Claims one batch and delivers it; answers how many deliveries it claimed. */
  async function runOnce(): Promise<number> {
    const claimedAt = performance.now();
    const batch = await store.claim(owner, batchSize, leaseMs, clock());
    let next = 0;
    const lane = async () => {
      while (next < batch.length) {
        const d = batch[next++]!;
        // Too late to finish inside the lease: given back for the next claim rather than risk a second sender.
        if (performance.now() - claimedAt + timeoutMs + 5_000 > leaseMs) {
          await store.release([d.id], owner);
          continue;
        }
        await deliver({ send, clock, logger, store, owner, backoff, stats }, d);
      }
    };
    const lanes = await Promise.allSettled(Array.from({ length: Math.min(concurrency, batch.length) }, lane));
    const failed = lanes.find((l) => l.status === 'rejected');
    if (failed) throw failed.reason;
    return batch.length;
  }

  /** Delivers until nothing is due or `deadline` (a Date.now() time) passes; answers how many it claimed. */
  async function drain(deadline = Infinity): Promise<number> {
    let claimed = 0;
    while (Date.now() < deadline) {
      const n = await runOnce();
      claimed += n;
      if (n < batchSize) break;
    }
    return claimed;
  }

  let timer: NodeJS.Timeout | undefined;
  let running: Promise<unknown> | undefined;

  return {
    owner,
    stats,
    runOnce,
    drain,
    /** Looks for due deliveries every `intervalMs` (services.start(), every instance). */
    start(intervalMs = 5_000): void {
      if (timer) return;
      timer = setInterval(() => {
        running ??= drain(Date.now() + 50_000)
          .catch((err: unknown) => logger.warn({ err }, 'webhook delivery round failed'))
          .finally(() => (running = undefined));
      }, intervalMs);
      timer.unref();
    },
    /** Stops looking and waits for the round under way (its sends are bounded by the timeout). */
    async stop(): Promise<void> {
      clearInterval(timer);
      timer = undefined;
      await running;
    },
  };
}

export type WebhookWorker = ReturnType<typeof createWebhookWorker>;
