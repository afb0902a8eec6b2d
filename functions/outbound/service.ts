/**
 * Outbound webhooks (issue 35, item 5): the emitter the domains call in their transactions (port.ts),
 * the admins' endpoints (registered with a URL the target policy accepts, their secret shown at
 * creation and at rotation only), the delivery log with replay, a test event, and the worker that
 * delivers the queue (worker.ts). Built once in compose.ts, which passes the target policy from the
 * configuration; nothing here reads configuration.
 */
import type { WebhookEvent } from '#shared/webhooks.ts';
import { MAX_WEBHOOK_ENDPOINTS, WEBHOOK_TEST_EVENT } from '#shared/webhooks.ts';
import type { Db, DbOrTx } from '../platform/db/client.ts';
import { AppError } from '../platform/errors.ts';
import type { Logger } from '../platform/logger.ts';
import type { WebhookEmitter } from './port.ts';
import { createSender, type SendWebhook } from './send.ts';
import { newEventId, newSecret } from './signing.ts';
import { createOutboundStore, type EndpointStats, type OutboundStore } from './store.ts';
import type { WebhookDeliveryRow, WebhookEndpointRow } from './tables.ts';
import { checkTarget, RefusedTarget, type TargetPolicy } from './targets.ts';
import { createWebhookWorker, type WebhookWorkerOptions } from './worker.ts';

/** Deliveries are retried this long after their event (or their replay). */
export const RETRY_WINDOW_MS = 3 * 24 * 3_600_000;
/** After a rotation, the old secret signs too for this long. */
export const ROTATION_OVERLAP_MS = 24 * 3_600_000;
/** Finished deliveries stay in the log this long. */
const LOG_DAYS = 30;

export interface OutboundOptions {
  db: Db;
  logger: Logger;
  /** Which targets are allowed (compose.ts: the embedded defaults allow loopback, private and http). */
  policy: TargetPolicy;
  clock?: () => Date;
  /** Each request's time limit. */
  timeoutMs?: number;
  /** How requests go out (tests: a recording fake); default: node:http(s) under the policy. */
  send?: SendWebhook;
  /** The worker's tuning (tests). */
  worker?: Partial<Pick<WebhookWorkerOptions, 'leaseMs' | 'batchSize' | 'concurrency' | 'backoff'>>;
}

const NO_STATS: EndpointStats = { queued: 0, delivered: 0, failed: 0, lastAttemptAt: null };

function endpointView(e: WebhookEndpointRow, stats: EndpointStats, now: Date) {
  return {
    id: e.id,
    url: e.url,
    events: e.events as WebhookEvent[],
    enabled: e.enabled,
    createdAt: e.createdAt.toISOString(),
    /** Until when the previous secret signs too (a rotation under way), else null. */
    previousSecretUntil: e.previousSecretUntil && e.previousSecretUntil > now ? e.previousSecretUntil.toISOString() : null,
    stats: { ...stats, lastAttemptAt: stats.lastAttemptAt?.toISOString() ?? null },
  };
}
export type EndpointView = ReturnType<typeof endpointView>;

function deliveryView(d: WebhookDeliveryRow) {
  return {
    id: d.id,
    eventId: d.eventId,
    type: d.eventType,
    status: d.status,
    attempts: d.attempts,
    lastStatus: d.lastStatus,
    lastError: d.lastError,
    createdAt: d.createdAt.toISOString(),
    nextAttemptAt: d.status === 'queued' ? d.nextAttemptAt.toISOString() : null,
    deliveredAt: d.deliveredAt?.toISOString() ?? null,
    failedAt: d.failedAt?.toISOString() ?? null,
  };
}
export type DeliveryView = ReturnType<typeof deliveryView>;

/** An endpoint's changes from the dashboard. */
export interface EndpointPatch {
  url?: string | undefined;
  events?: WebhookEvent[] | undefined;
  enabled?: boolean | undefined;
}

/** 404 for an endpoint that is not there. */
const notFound = () => new AppError('not_found', 'No such webhook endpoint.');

/** The URL as the policy accepts it; 422 naming why not. */
async function acceptedUrl(policy: TargetPolicy, url: string): Promise<string> {
  try {
    return await checkTarget(url, policy);
  } catch (err) {
    if (err instanceof RefusedTarget) throw new AppError('validation_failed', err.message, { fields: { url: [err.message] } });
    throw err;
  }
}

/** The endpoint, or 404. */
async function existing(store: OutboundStore, id: string): Promise<WebhookEndpointRow> {
  const row = await store.endpoint(id);
  if (!row) throw notFound();
  return row;
}

/** What domains emit through: events queued in the caller's transaction for every endpoint that listens. */
function createEmitter(clock: () => Date): WebhookEmitter {
  return {
    async emit(tx: DbOrTx, type, data, userId) {
      const at = clock();
      const giveUpAt = new Date(at.getTime() + RETRY_WINDOW_MS);
      await createOutboundStore(tx).enqueue({ eventId: newEventId(), type, payload: data, userId: userId ?? null, at, giveUpAt });
    },
    async emitMany(tx: DbOrTx, type, events) {
      // A bulk change (a members import) asks once whether anyone listens before queueing each event.
      if (events.length === 0 || !(await createOutboundStore(tx).listens(type))) return;
      const at = clock();
      const giveUpAt = new Date(at.getTime() + RETRY_WINDOW_MS);
      await createOutboundStore(tx).enqueueMany(
        type,
        events.map((e) => ({ eventId: newEventId(), payload: e.data, userId: e.userId ?? null, at, giveUpAt })),
      );
    },
  };
}

export function createOutboundService({ db, logger, policy, clock = () => new Date(), timeoutMs = 10_000, ...options }: OutboundOptions) {
  const send = options.send ?? createSender(policy, timeoutMs);
  const worker = createWebhookWorker({ db, logger, send, clock, timeoutMs, ...options.worker });
  const store = createOutboundStore(db);
  const emitter = createEmitter(clock);

  return {
    emitter,
    worker,

    /** POST /api/admin/outbound: a new endpoint; its secret, shown this once. */
    async create(actorId: string, input: { url: string; events: WebhookEvent[] }) {
      const url = await acceptedUrl(policy, input.url);
      if ((await store.countEndpoints()) >= MAX_WEBHOOK_ENDPOINTS)
        throw new AppError('conflict', `A site keeps at most ${MAX_WEBHOOK_ENDPOINTS} webhook endpoints; delete one first.`);
      const row = await store.createEndpoint({ url, events: [...new Set(input.events)], secret: newSecret(), createdBy: actorId });
      return { ...endpointView(row, NO_STATS, clock()), secret: row.secret };
    },

    /** GET /api/admin/outbound: every endpoint with its delivery counts (no secret). */
    async list(): Promise<EndpointView[]> {
      const [rows, stats] = await Promise.all([store.endpoints(), store.stats()]);
      const now = clock();
      return rows.map((e) => endpointView(e, stats.get(e.id) ?? NO_STATS, now));
    },

    /** PATCH /api/admin/outbound/{id}: its URL (checked again), events, or whether it is enabled. */
    async update(id: string, patch: EndpointPatch): Promise<EndpointView> {
      await existing(store, id);
      const url = patch.url === undefined ? undefined : await acceptedUrl(policy, patch.url);
      const row = await store.updateEndpoint(id, {
        ...(url === undefined ? {} : { url }),
        ...(patch.events === undefined ? {} : { events: [...new Set(patch.events)] }),
        ...(patch.enabled === undefined ? {} : { enabled: patch.enabled }),
      });
      if (!row) throw notFound();
      return endpointView(row, (await store.stats()).get(id) ?? NO_STATS, clock());
    },

    /** DELETE /api/admin/outbound/{id}: the endpoint and its log. */
    async remove(id: string): Promise<void> {
      if (!(await store.removeEndpoint(id))) throw notFound();
    },

    /** POST /api/admin/outbound/{id}/rotate: a new secret (shown this once); the old one signs too for 24 hours. */
    async rotate(id: string): Promise<{ secret: string; previousSecretUntil: string }> {
      const row = await existing(store, id);
      const until = new Date(clock().getTime() + ROTATION_OVERLAP_MS);
      const secret = newSecret();
      await store.updateEndpoint(id, { secret, previousSecret: row.secret, previousSecretUntil: until });
      return { secret, previousSecretUntil: until.toISOString() };
    },

    /** GET /api/admin/outbound/{id}/deliveries: the delivery log, newest first. */
    async deliveries(id: string, limit: number): Promise<DeliveryView[]> {
      await existing(store, id);
      return (await store.deliveries(id, limit)).map(deliveryView);
    },

    /** POST …/deliveries/{deliveryId}/replay: sends it again now, with the same webhook-id; 409 while a worker holds it. */
    async replay(id: string, deliveryId: string): Promise<DeliveryView> {
      if (!(await store.delivery(id, deliveryId))) throw new AppError('not_found', 'No such delivery for this endpoint.');
      const now = clock();
      const row = await store.replay(id, deliveryId, now, new Date(now.getTime() + RETRY_WINDOW_MS));
      if (!row) throw new AppError('conflict', 'This delivery is being sent right now; replay it once it is done.');
      return deliveryView(row);
    },

    /** POST /api/admin/outbound/{id}/test: queues a `webhook.test` event to this endpoint only. */
    async test(id: string, actorId: string): Promise<DeliveryView> {
      const endpoint = await existing(store, id);
      const at = clock();
      const row = await store.enqueueFor(endpoint.id, {
        eventId: newEventId(),
        type: WEBHOOK_TEST_EVENT,
        payload: { endpointId: endpoint.id, sentBy: actorId },
        userId: null,
        at,
        giveUpAt: new Date(at.getTime() + RETRY_WINDOW_MS),
      });
      return deliveryView(row);
    },

    /** Deletes the log's finished deliveries older than 30 days (the hourly prune). */
    prune: () => store.prune(new Date(clock().getTime() - LOG_DAYS * 24 * 3_600_000)),

    /** The members' export and deletion hook (compose.ts registers it). */
    personalData: createOutboundStore,
  };
}

export type OutboundService = ReturnType<typeof createOutboundService>;
