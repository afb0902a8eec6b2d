/** The only module with SQL on the outbound webhooks' tables (tables.ts): endpoints, and the delivery queue and log. */
import { and, asc, count, desc, eq, inArray, isNull, lt, lte, or, sql } from 'drizzle-orm';
import type { DbOrTx } from '../platform/db/client.ts';
import type { DataSubject } from '../users/index.ts';
import { webhookDeliveries, webhookEndpoints, type WebhookDeliveryRow, type WebhookEndpointRow } from './tables.ts';

/** A queued event, as `emit` writes it for every subscribed endpoint. */
export interface QueuedEvent {
  eventId: string;
  type: string;
  payload: Record<string, unknown>;
  userId: string | null;
  at: Date;
  giveUpAt: Date;
}

/** A worker's result for one claimed delivery. */
export type DeliveryPatch = Partial<
  Pick<WebhookDeliveryRow, 'status' | 'nextAttemptAt' | 'lastStatus' | 'lastError' | 'deliveredAt' | 'failedAt'>
>;

/** A claimed delivery with what signing and sending it needs from its endpoint. */
export type ClaimedDelivery = WebhookDeliveryRow & Pick<WebhookEndpointRow, 'url' | 'secret' | 'previousSecret' | 'previousSecretUntil'>;

/** Per endpoint: deliveries queued, delivered, failed, and the last attempt's time. */
export interface EndpointStats {
  queued: number;
  delivered: number;
  failed: number;
  lastAttemptAt: Date | null;
}

const free = (now: Date) => or(isNull(webhookDeliveries.leaseExpiresAt), lt(webhookDeliveries.leaseExpiresAt, now));

/** What the parts of `createOutboundStore` share. */
interface StoreDeps {
  db: DbOrTx;
}

/** Deliveries queued for the endpoints listening to an event. */
function enqueueRows({ db }: StoreDeps) {
  return {
    /**
     * Queues one event for every enabled endpoint subscribed to its type, in one statement (nothing
     * when none is): the event's cost on a site without webhooks is this one indexless query on an empty table.
     */
    async enqueue(e: QueuedEvent): Promise<void> {
      await db.execute(sql`insert into ${webhookDeliveries}
          (event_id, endpoint_id, event_type, payload, user_id, next_attempt_at, give_up_at, created_at)
        select ${e.eventId}, e.id, ${e.type}, ${JSON.stringify(e.payload)}::jsonb, ${e.userId}::uuid,
          ${e.at.toISOString()}::timestamptz, ${e.giveUpAt.toISOString()}::timestamptz, ${e.at.toISOString()}::timestamptz
        from ${webhookEndpoints} e where e.enabled and ${e.type} = any(e.events)
        on conflict do nothing`);
    },
    /** Queues many events of one type (a bulk change) for every enabled endpoint subscribed to it, in one statement. */
    async enqueueMany(type: string, events: Omit<QueuedEvent, 'type'>[]): Promise<void> {
      if (events.length === 0) return;
      const rows = events.map((e) => ({
        event_id: e.eventId,
        payload: e.payload,
        user_id: e.userId,
        at: e.at.toISOString(),
        give_up_at: e.giveUpAt.toISOString(),
      }));
      await db.execute(sql`insert into ${webhookDeliveries}
          (event_id, endpoint_id, event_type, payload, user_id, next_attempt_at, give_up_at, created_at)
        select ev.event_id, e.id, ${type}, ev.payload, ev.user_id, ev.at, ev.give_up_at, ev.at
        from jsonb_to_recordset(${JSON.stringify(rows)}::jsonb)
          as ev(event_id text, payload jsonb, user_id uuid, at timestamptz, give_up_at timestamptz)
        cross join ${webhookEndpoints} e where e.enabled and ${type} = any(e.events)
        on conflict do nothing`);
    },
    /** Whether any enabled endpoint is subscribed to `type`. */
    async listens(type: string): Promise<boolean> {
      const rows = await db
        .select({ id: webhookEndpoints.id })
        .from(webhookEndpoints)
        .where(and(eq(webhookEndpoints.enabled, true), sql`${type} = any(${webhookEndpoints.events})`))
        .limit(1);
      return rows.length > 0;
    },
    /** Queues one event for one endpoint whatever it subscribes to (the dashboard's test event). */
    async enqueueFor(endpointId: string, e: QueuedEvent): Promise<WebhookDeliveryRow> {
      const [row] = await db
        .insert(webhookDeliveries)
        .values({
          eventId: e.eventId,
          endpointId,
          eventType: e.type,
          payload: e.payload,
          userId: e.userId,
          nextAttemptAt: e.at,
          giveUpAt: e.giveUpAt,
          createdAt: e.at,
        })
        .returning();
      return row!;
    },
  };
}

/** Endpoints as staff manage them, with their delivery figures. */
function endpointRows({ db }: StoreDeps) {
  return {
    async createEndpoint(values: typeof webhookEndpoints.$inferInsert): Promise<WebhookEndpointRow> {
      const [row] = await db.insert(webhookEndpoints).values(values).returning();
      return row!;
    },
    async countEndpoints(): Promise<number> {
      const [row] = await db.select({ n: count() }).from(webhookEndpoints);
      return row?.n ?? 0;
    },
    async endpoint(id: string): Promise<WebhookEndpointRow | undefined> {
      const [row] = await db.select().from(webhookEndpoints).where(eq(webhookEndpoints.id, id));
      return row;
    },
    endpoints(): Promise<WebhookEndpointRow[]> {
      return db.select().from(webhookEndpoints).orderBy(asc(webhookEndpoints.createdAt));
    },
    /** Each endpoint's delivery counts, in one grouped query. */
    async stats(): Promise<Map<string, EndpointStats>> {
      const rows = await db
        .select({
          endpointId: webhookDeliveries.endpointId,
          queued: sql<number>`count(*) filter (where ${webhookDeliveries.status} = 'queued')`.mapWith(Number),
          delivered: sql<number>`count(*) filter (where ${webhookDeliveries.status} = 'delivered')`.mapWith(Number),
          failed: sql<number>`count(*) filter (where ${webhookDeliveries.status} = 'failed')`.mapWith(Number),
          lastAttemptAt: sql<Date | null>`max(${webhookDeliveries.updatedAt}) filter (where ${webhookDeliveries.attempts} > 0)`.mapWith(
            (v: string | Date | null) => (v === null ? null : new Date(v)),
          ),
        })
        .from(webhookDeliveries)
        .groupBy(webhookDeliveries.endpointId);
      return new Map(rows.map(({ endpointId, ...s }) => [endpointId, s]));
    },
    async updateEndpoint(id: string, patch: Partial<typeof webhookEndpoints.$inferInsert>): Promise<WebhookEndpointRow | undefined> {
      const [row] = await db
        .update(webhookEndpoints)
        .set({ ...patch, updatedAt: sql`now()` })
        .where(eq(webhookEndpoints.id, id))
        .returning();
      return row;
    },
    /** Deletes an endpoint and (cascade) its deliveries; false when there was none. */
    async removeEndpoint(id: string): Promise<boolean> {
      const rows = await db.delete(webhookEndpoints).where(eq(webhookEndpoints.id, id)).returning({ id: webhookEndpoints.id });
      return rows.length > 0;
    },
  };
}

/** Deliveries as staff read and replay them. */
function deliveryRows({ db }: StoreDeps) {
  return {
    /** The endpoint's deliveries, newest first. */
    deliveries(endpointId: string, limit: number): Promise<WebhookDeliveryRow[]> {
      return db
        .select()
        .from(webhookDeliveries)
        .where(eq(webhookDeliveries.endpointId, endpointId))
        .orderBy(desc(webhookDeliveries.createdAt), desc(webhookDeliveries.id))
        .limit(limit);
    },
    async delivery(endpointId: string, id: string): Promise<WebhookDeliveryRow | undefined> {
      const [row] = await db
        .select()
        .from(webhookDeliveries)
        .where(and(eq(webhookDeliveries.id, id), eq(webhookDeliveries.endpointId, endpointId)));
      return row;
    },
    /**
     * Queues a delivery again now (same event id, same body), retried until `giveUpAt`; one a worker
     * holds is left alone (undefined).
     */
    async replay(endpointId: string, id: string, now: Date, giveUpAt: Date): Promise<WebhookDeliveryRow | undefined> {
      const [row] = await db
        .update(webhookDeliveries)
        .set({
          status: 'queued',
          nextAttemptAt: now,
          giveUpAt,
          failedAt: null,
          leaseOwner: null,
          leaseExpiresAt: null,
          updatedAt: sql`now()`,
        })
        .where(and(eq(webhookDeliveries.id, id), eq(webhookDeliveries.endpointId, endpointId), free(now)))
        .returning();
      return row;
    },
  };
}

/** The worker's side: claims under a lease, settling, releasing and pruning. */
function claimRows({ db }: StoreDeps) {
  return {
    /**
     * Leases up to `limit` due deliveries of enabled endpoints to `owner` until `now + leaseMs`: queued,
     * due, and free or with a lease run out (its worker died). SKIP LOCKED lets workers claim side by
     * side; each claim counts an attempt.
     */
    async claim(owner: string, limit: number, leaseMs: number, now: Date): Promise<ClaimedDelivery[]> {
      const due = db
        .select({ id: webhookDeliveries.id })
        .from(webhookDeliveries)
        .innerJoin(webhookEndpoints, eq(webhookEndpoints.id, webhookDeliveries.endpointId))
        .where(
          and(
            eq(webhookDeliveries.status, 'queued'),
            lte(webhookDeliveries.nextAttemptAt, now),
            free(now),
            eq(webhookEndpoints.enabled, true),
          ),
        )
        .orderBy(asc(webhookDeliveries.nextAttemptAt))
        .limit(limit)
        .for('update', { of: webhookDeliveries, skipLocked: true });
      const claimed = await db
        .update(webhookDeliveries)
        .set({
          leaseOwner: owner,
          leaseExpiresAt: new Date(now.getTime() + leaseMs),
          attempts: sql`${webhookDeliveries.attempts} + 1`,
          updatedAt: sql`now()`,
        })
        .where(inArray(webhookDeliveries.id, due))
        .returning();
      if (claimed.length === 0) return [];
      const ends = await db
        .select()
        .from(webhookEndpoints)
        .where(inArray(webhookEndpoints.id, [...new Set(claimed.map((d) => d.endpointId))]));
      const byId = new Map(ends.map((e) => [e.id, e]));
      return claimed.flatMap((d) => {
        const e = byId.get(d.endpointId);
        return e
          ? [{ ...d, url: e.url, secret: e.secret, previousSecret: e.previousSecret, previousSecretUntil: e.previousSecretUntil }]
          : [];
      });
    },
    /** Records a worker's result, only while it still holds the lease (fencing); false when it no longer does. */
    async settle(id: string, owner: string, patch: DeliveryPatch): Promise<boolean> {
      const rows = await db
        .update(webhookDeliveries)
        .set({ ...patch, leaseOwner: null, leaseExpiresAt: null, updatedAt: sql`now()` })
        .where(and(eq(webhookDeliveries.id, id), eq(webhookDeliveries.leaseOwner, owner)))
        .returning({ id: webhookDeliveries.id });
      return rows.length > 0;
    },
    /** Gives unstarted deliveries back at once (a stopping worker), uncounting their attempt. */
    async release(ids: string[], owner: string): Promise<void> {
      if (ids.length === 0) return;
      await db
        .update(webhookDeliveries)
        .set({ leaseOwner: null, leaseExpiresAt: null, attempts: sql`greatest(${webhookDeliveries.attempts} - 1, 0)` })
        .where(and(inArray(webhookDeliveries.id, ids), eq(webhookDeliveries.leaseOwner, owner)));
    },
    /** Deletes finished deliveries (delivered or failed) older than `before`: the log keeps 30 days. */
    async prune(before: Date): Promise<number> {
      const rows = await db
        .delete(webhookDeliveries)
        .where(and(inArray(webhookDeliveries.status, ['delivered', 'failed']), lt(webhookDeliveries.createdAt, before)))
        .returning({ id: webhookDeliveries.id });
      return rows.length;
    },
  };
}

/** A member's part of the export and erasure. */
function subjectRows({ db }: StoreDeps) {
  return {
    /** The events about a member, for their export: type and time (the bodies hold only what their profile does). */
    async personalData({ id: userId }: DataSubject) {
      const rows = await db
        .selectDistinctOn([webhookDeliveries.eventId], {
          eventId: webhookDeliveries.eventId,
          type: webhookDeliveries.eventType,
          at: webhookDeliveries.createdAt,
        })
        .from(webhookDeliveries)
        .where(eq(webhookDeliveries.userId, userId))
        .orderBy(webhookDeliveries.eventId);
      return { webhookEvents: rows.map((r) => ({ id: r.eventId, type: r.type, at: r.at.toISOString() })) };
    },
    /** Forgets the member in the log: finished deliveries about them go; queued ones (their deletion's own event) still go out. */
    async erase({ id: userId }: DataSubject): Promise<void> {
      await db
        .delete(webhookDeliveries)
        .where(and(eq(webhookDeliveries.userId, userId), inArray(webhookDeliveries.status, ['delivered', 'failed'])));
    },
  };
}

export function createOutboundStore(db: DbOrTx) {
  const deps: StoreDeps = { db };
  return { ...enqueueRows(deps), ...endpointRows(deps), ...deliveryRows(deps), ...claimRows(deps), ...subjectRows(deps) };
}

export type OutboundStore = ReturnType<typeof createOutboundStore>;
