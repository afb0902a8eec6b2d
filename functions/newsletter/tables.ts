/** The newsletter's tables: subscribers with their double opt-in consent; staff's issues, their copies and suppressed addresses. */
import { sql } from 'drizzle-orm';
import { boolean, check, index, integer, jsonb, pgTable, primaryKey, text, uuid } from 'drizzle-orm/pg-core';
import { ACCESS_LEVELS } from '#shared/access.ts';
import type { IssueAudience } from '#shared/newsletter.ts';
import { sqlList, timestamptz } from '../platform/db/columns.ts';
import { emails } from '../email/tables.ts';

export const SUBSCRIBER_STATUSES = ['pending', 'confirmed', 'unsubscribed'] as const;

/** Newsletter subscribers with their double opt-in consent. */
export const newsletterSubscribers = pgTable('newsletter_subscribers', {
  id: uuid('id').primaryKey().defaultRandom(),
  email: text('email').notNull().unique(),
  status: text('status', { enum: SUBSCRIBER_STATUSES }).notNull().default('pending'),
  /** Bumped on every new subscription, so older confirmation links stop working. */
  tokenVersion: integer('token_version').notNull().default(1),
  consentSource: text('consent_source'),
  consentAt: timestamptz('consent_at').notNull().defaultNow(),
  confirmedAt: timestamptz('confirmed_at'),
  unsubscribedAt: timestamptz('unsubscribed_at'),
  createdAt: timestamptz('created_at').notNull().defaultNow(),
  updatedAt: timestamptz('updated_at').notNull().defaultNow(),
});

export type SubscriberRow = typeof newsletterSubscribers.$inferSelect;

/**
 * `failed`: the scheduler could not write a due issue's copies (its body no longer renders, say);
 * nothing went out, and staff may change it and send or schedule it again.
 */
export const ISSUE_STATUSES = ['draft', 'scheduled', 'sending', 'sent', 'failed'] as const;
export type IssueStatus = (typeof ISSUE_STATUSES)[number];

/**
 * Newsletter issues written by staff: Markdown with the articles' preview marker, an access level
 * that cuts each copy, an audience, and a send time. `sending` is set in the transaction that writes
 * every copy, so an issue is expanded once, whoever sends it. The account: `recipients` and
 * `suppressed` are written with the copies; `sent` and `failed` when the last copy leaves the queue
 * (status `sent`; while sending they are counted live); `bounced` and `unsubscribed` count up as
 * reports and unsubscribes arrive, once per copy.
 */
export const newsletterIssues = pgTable(
  'newsletter_issues',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    slug: text('slug').notNull().unique(),
    subject: text('subject').notNull(),
    previewText: text('preview_text').notNull().default(''),
    body: text('body').notNull(),
    accessLevel: text('access_level', { enum: ACCESS_LEVELS }).notNull().default('free'),
    audience: jsonb('audience').$type<IssueAudience[]>().notNull(),
    status: text('status', { enum: ISSUE_STATUSES }).notNull().default('draft'),
    /** When a scheduled issue goes out (a UTC instant; the editor picked it in `timeZone`). */
    sendAt: timestamptz('send_at'),
    timeZone: text('time_zone'),
    /** Copies written when the issue was sent (the audience at that moment). */
    recipients: integer('recipients').notNull().default(0),
    /** Copies written without mail: the address was suppressed or had turned the newsletter off. */
    suppressed: integer('suppressed_count').notNull().default(0),
    /** Copies sent and failed, fixed when the issue is marked sent. */
    sent: integer('sent_count').notNull().default(0),
    failed: integer('failed_count').notNull().default(0),
    /** Copies the provider reported bounced or complained about, and copies unsubscribed through. */
    bounced: integer('bounced_count').notNull().default(0),
    unsubscribed: integer('unsubscribed_count').notNull().default(0),
    createdBy: uuid('created_by'),
    createdAt: timestamptz('created_at').notNull().defaultNow(),
    updatedAt: timestamptz('updated_at').notNull().defaultNow(),
    sentAt: timestamptz('sent_at'),
  },
  (t) => [
    index('newsletter_issues_due_idx')
      .on(t.sendAt)
      .where(sql`${t.status} = 'scheduled'`),
    check('newsletter_issues_status_check', sql`${t.status} in (${sqlList(ISSUE_STATUSES)})`),
    check('newsletter_issues_access_check', sql`${t.accessLevel} in (${sqlList(ACCESS_LEVELS)})`),
  ],
);
export type IssueRow = typeof newsletterIssues.$inferSelect;

/**
 * One row per issue and recipient address (the primary key): whatever retries, workers or instances
 * do, an address gets one copy of an issue (the row is written first; mail is queued only for a row
 * that was new). `emailId` is the copy in the outbox (null when the address was suppressed); `level`
 * is the level the copy was cut at (null: a visitor). A deleted member's rows stay, anonymised, so a
 * sent issue's account never changes.
 */
export const newsletterDeliveries = pgTable(
  'newsletter_deliveries',
  {
    issueId: uuid('issue_id')
      .notNull()
      .references(() => newsletterIssues.id, { onDelete: 'cascade' }),
    address: text('address').notNull(),
    userId: uuid('user_id'),
    level: text('level', { enum: ACCESS_LEVELS }),
    suppressed: boolean('suppressed').notNull().default(false),
    emailId: uuid('email_id').references(() => emails.id, { onDelete: 'set null' }),
    /** When the provider first reported this copy bounced or complained about. */
    bouncedAt: timestamptz('bounced_at'),
    unsubscribedAt: timestamptz('unsubscribed_at'),
    createdAt: timestamptz('created_at').notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.issueId, t.address] }), index('newsletter_deliveries_email_idx').on(t.emailId)],
);
export type DeliveryRow = typeof newsletterDeliveries.$inferSelect;

/** Addresses no issue goes to any more: a bounce or complaint the mail provider reported. */
export const newsletterSuppressions = pgTable('newsletter_suppressions', {
  address: text('address').primaryKey(),
  reason: text('reason').notNull(),
  detail: text('detail'),
  createdAt: timestamptz('created_at').notNull().defaultNow(),
});
