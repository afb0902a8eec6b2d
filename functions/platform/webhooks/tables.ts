/** The webhook inbox's table: signed events from any provider, one row per provider event id. */
import { pgTable, primaryKey, text } from 'drizzle-orm/pg-core';
import { timestamptz } from '../db/columns.ts';

/**
 * Signed webhook events from any provider (payments, mail delivery), one row per provider event
 * id: `processed_at` marks it applied; `claimed_at` lets one delivery work on it at a time (a claim
 * older than a minute is taken to be a crashed attempt).
 */
export const webhookEvents = pgTable(
  'webhook_events',
  {
    source: text('source').notNull(),
    id: text('id').notNull(),
    type: text('type').notNull(),
    claimedAt: timestamptz('claimed_at').notNull().defaultNow(),
    processedAt: timestamptz('processed_at'),
    receivedAt: timestamptz('received_at').notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.source, t.id] })],
);
