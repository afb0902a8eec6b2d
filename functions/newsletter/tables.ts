/** The newsletter's table: subscribers with their double opt-in consent. */
import { integer, pgTable, text, uuid } from 'drizzle-orm/pg-core';
import { timestamptz } from '../platform/db/columns.ts';

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
