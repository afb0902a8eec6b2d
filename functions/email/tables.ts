/** The email domain's tables: the outbox and the delivery events the mail provider reports. */
import { sql } from 'drizzle-orm';
import { boolean, check, index, integer, jsonb, pgTable, text, uuid } from 'drizzle-orm/pg-core';
import { timestamptz } from '../platform/db/columns.ts';

/** A file attached to a message: small text files only (an .ics), kept in the row like the body. */
export interface EmailAttachment {
  filename: string;
  contentType: string;
  content: string;
}

export const EMAIL_STATUSES = ['queued', 'sent', 'delivered', 'failed'] as const;
export type EmailStatus = (typeof EMAIL_STATUSES)[number];

/**
 * The outbox: every message the product sends, written in the same transaction as the change that
 * causes it, and delivered by the worker (lease + attempts + backoff).
 */
export const emails = pgTable(
  'emails',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    subject: text('subject').notNull(),
    bodyHtml: text('body_html').notNull(),
    bodyText: text('body_text').notNull(),
    to: text('to_address').notNull(),
    from: text('from_address').notNull(),
    replyTo: text('reply_to'),
    headers: jsonb('headers').$type<Record<string, string>>().notNull().default({}),
    /** Small files sent with the message (a calendar invitation), their content as text. */
    attachments: jsonb('attachments').$type<EmailAttachment[]>().notNull().default([]),
    template: text('template').notNull(),
    /** Bulk mail (a newsletter issue's copies): the worker takes every due transactional message first. */
    bulk: boolean('bulk').notNull().default(false),
    /** The set a message belongs to, named by the domain that sent it (`newsletter:<issue id>`), so the outbox can account for it. */
    batch: text('batch'),
    status: text('status', { enum: EMAIL_STATUSES }).notNull().default('queued'),
    attempts: integer('attempts').notNull().default(0),
    maxAttempts: integer('max_attempts').notNull().default(6),
    nextAttemptAt: timestamptz('next_attempt_at').notNull().defaultNow(),
    leaseOwner: text('lease_owner'),
    leaseExpiresAt: timestamptz('lease_expires_at'),
    providerMessageId: text('provider_message_id'),
    errorMessage: text('error_message'),
    userId: text('user_id'),
    createdAt: timestamptz('created_at').notNull().defaultNow(),
    updatedAt: timestamptz('updated_at').notNull().defaultNow(),
    sentAt: timestamptz('sent_at'),
    deliveredAt: timestamptz('delivered_at'),
    failedAt: timestamptz('failed_at'),
  },
  (t) => [
    // The claim's order: transactional mail first, then by due time.
    index('emails_due_idx')
      .on(t.bulk, t.nextAttemptAt)
      .where(sql`${t.status} = 'queued'`),
    index('emails_batch_idx')
      .on(t.batch)
      .where(sql`${t.batch} is not null`),
    index('emails_created_idx').on(t.createdAt),
    index('emails_provider_id_idx').on(t.providerMessageId),
    check('emails_status_check', sql`${t.status} in ('queued', 'sent', 'delivered', 'failed')`),
  ],
);

export type EmailRow = typeof emails.$inferSelect;
export type NewEmailRow = typeof emails.$inferInsert;

/** Delivery events reported by the mail provider, recorded once per provider event id. */
export const emailEvents = pgTable('email_events', {
  id: uuid('id').primaryKey().defaultRandom(),
  eventId: text('event_id').notNull().unique(),
  emailId: uuid('email_id').references(() => emails.id, { onDelete: 'cascade' }),
  type: text('type').notNull(),
  detail: text('detail'),
  occurredAt: timestamptz('occurred_at').notNull(),
  receivedAt: timestamptz('received_at').notNull().defaultNow(),
});
