/** The newsletter's tables: subscribers with their double opt-in consent; staff's issues, their copies and suppressed addresses. */
import { sql } from 'drizzle-orm';
import { boolean, check, index, integer, jsonb, pgTable, primaryKey, text, uuid } from 'drizzle-orm/pg-core';
import { ACCESS_LEVELS } from '#shared/access.ts';
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

export const ISSUE_STATUSES = ['draft', 'scheduled', 'sending', 'sent', 'cancelled'] as const;
export type IssueStatus = (typeof ISSUE_STATUSES)[number];
export const AUDIENCES = ['newsletter', 'free', 'subscriber', 'premium'] as const;
export type Audience = (typeof AUDIENCES)[number];

/**
 * Newsletter issues written by staff: Markdown with the articles' preview marker, an access level
 * that cuts each copy, an audience, and a send time. `sending` is set in the transaction that writes
 * every copy, so an issue is expanded once, whoever sends it.
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
    audience: jsonb('audience').$type<Audience[]>().notNull(),
    status: text('status', { enum: ISSUE_STATUSES }).notNull().default('draft'),
    /** When a scheduled issue goes out (a UTC instant; the editor picked it in `timeZone`). */
    sendAt: timestamptz('send_at'),
    timeZone: text('time_zone'),
    /** Copies written when the issue was sent (the audience at that moment). */
    recipients: integer('recipients').notNull().default(0),
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
 * do, an address gets one copy of an issue. `emailId` is the copy in the outbox (null when the
 * address was suppressed); `level` is the level the copy was cut at (null: a visitor).
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
