/**
 * Outbound webhooks' tables (issue 35, item 5): the endpoints admins register, with their signing
 * secrets (the previous one kept signing until a time, so a rotation has no downtime), and the
 * durable delivery queue that is also the delivery log: one row per (event, endpoint), claimed by
 * workers under a lease, retried with backoff until its give-up time.
 */
import { sql } from 'drizzle-orm';
import { boolean, check, index, integer, jsonb, pgTable, text, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { DELIVERY_STATUSES } from '#shared/webhooks.ts';
import { sqlList, timestamptz } from '../platform/db/columns.ts';

export const webhookEndpoints = pgTable('webhook_endpoints', {
  id: uuid('id').primaryKey().defaultRandom(),
  url: text('url').notNull(),
  /** The event names it receives (`#shared/webhooks.ts`). */
  events: text('events').array().notNull(),
  /** `whsec_<base64>`: signs every request (Standard Webhooks). Needed in clear to sign, so never shown after it is made. */
  secret: text('secret').notNull(),
  /** The secret before the last rotation, which also signs until `previous_secret_until`. */
  previousSecret: text('previous_secret'),
  previousSecretUntil: timestamptz('previous_secret_until'),
  enabled: boolean('enabled').notNull().default(true),
  createdBy: uuid('created_by').notNull(),
  createdAt: timestamptz('created_at').notNull().defaultNow(),
  updatedAt: timestamptz('updated_at').notNull().defaultNow(),
});
export type WebhookEndpointRow = typeof webhookEndpoints.$inferSelect;

export const webhookDeliveries = pgTable(
  'webhook_deliveries',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    /** The event's id (`msg_…`), the `webhook-id` header: the same for every endpoint and every attempt. */
    eventId: text('event_id').notNull(),
    endpointId: uuid('endpoint_id')
      .notNull()
      .references(() => webhookEndpoints.id, { onDelete: 'cascade' }),
    eventType: text('event_type').notNull(),
    /** The body's `data`. */
    payload: jsonb('payload').$type<Record<string, unknown>>().notNull(),
    /** The member the event is about, if any (their deletion erases the delivered log rows). No key: the log outlives nothing. */
    userId: uuid('user_id'),
    status: text('status', { enum: DELIVERY_STATUSES }).notNull().default('queued'),
    attempts: integer('attempts').notNull().default(0),
    nextAttemptAt: timestamptz('next_attempt_at').notNull(),
    /** After this, a failed attempt fails the delivery (3 days after the event, or after a replay). */
    giveUpAt: timestamptz('give_up_at').notNull(),
    leaseOwner: text('lease_owner'),
    leaseExpiresAt: timestamptz('lease_expires_at'),
    /** The last attempt's HTTP status (null: no answer: refused address, timeout, connection error). */
    lastStatus: integer('last_status'),
    lastError: text('last_error'),
    deliveredAt: timestamptz('delivered_at'),
    failedAt: timestamptz('failed_at'),
    /** When the event happened: the body's `timestamp`. */
    createdAt: timestamptz('created_at').notNull(),
    updatedAt: timestamptz('updated_at').notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('webhook_deliveries_event_endpoint_key').on(t.eventId, t.endpointId),
    // The workers' question: which queued deliveries are due.
    index('webhook_deliveries_due_idx')
      .on(t.nextAttemptAt)
      .where(sql`${t.status} = 'queued'`),
    // The delivery log of one endpoint, newest first.
    index('webhook_deliveries_endpoint_idx').on(t.endpointId, t.createdAt),
    index('webhook_deliveries_user_idx')
      .on(t.userId)
      .where(sql`${t.userId} is not null`),
    check('webhook_deliveries_status_check', sql`${t.status} in (${sqlList(DELIVERY_STATUSES)})`),
  ],
);
export type WebhookDeliveryRow = typeof webhookDeliveries.$inferSelect;
