/**
 * Billing's tables: what the payment provider told us, kept to answer fast and to know which changes
 * already happened (mails and audit entries follow transitions, not events).
 */
import type { PurchasableType } from '#shared/content/registry.ts';
import { sql } from 'drizzle-orm';
import { boolean, check, index, integer, pgTable, text, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { ACCESS_LEVELS } from '#shared/access.ts';
import { sqlList, timestamptz } from '../platform/db/columns.ts';
import { profiles } from '../users/tables.ts';
import { SUBSCRIPTION_STATUSES } from './provider.ts';

/** A member's subscriptions as last read from the provider (never from an event's snapshot). */
export const subscriptions = pgTable(
  'subscriptions',
  {
    id: text('id').primaryKey(),
    userId: uuid('user_id')
      .notNull()
      .references(() => profiles.id, { onDelete: 'cascade' }),
    customerId: text('customer_id').notNull(),
    status: text('status', { enum: SUBSCRIPTION_STATUSES }).notNull(),
    /** The tier id of the price (price_premium_yearly); null for a price we do not sell. */
    tierId: text('tier_id'),
    accessLevel: text('access_level', { enum: ACCESS_LEVELS }).notNull(),
    amount: integer('amount').notNull(),
    interval: text('interval').notNull(),
    cancelAtPeriodEnd: boolean('cancel_at_period_end').notNull().default(false),
    cancelAt: timestamptz('cancel_at'),
    currentPeriodEnd: timestamptz('current_period_end').notNull(),
    endedAt: timestamptz('ended_at'),
    /** A plan change the provider holds for the period end (a downgrade): its tier id, and when it applies. */
    scheduledTierId: text('scheduled_tier_id'),
    scheduledAt: timestamptz('scheduled_at'),
    /** When its free trial ends (null without one), and when the mail that it ends soon went out. */
    trialEnd: timestamptz('trial_end'),
    trialWarnedAt: timestamptz('trial_warned_at'),
    createdAt: timestamptz('created_at').notNull().defaultNow(),
    updatedAt: timestamptz('updated_at').notNull().defaultNow(),
  },
  (t) => [
    index('subscriptions_user_idx').on(t.userId),
    check('subscriptions_status_check', sql`${t.status} in (${sqlList(SUBSCRIPTION_STATUSES)})`),
  ],
);
export type SubscriptionRow = typeof subscriptions.$inferSelect;

/**
 * The registry's purchasable types, in the order the table's check constraint was made with (the
 * migrations hold this order). tables.test.ts fails when the registry sells a type this list lacks,
 * until a migration widens the constraint.
 */
export const PURCHASABLE_TYPES = ['market', 'course'] as const satisfies readonly PurchasableType[];
export type { PurchasableType };

/** One-time purchases: a paid checkout session opens the item for its buyer, whatever their level. */
export const purchases = pgTable(
  'purchases',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => profiles.id, { onDelete: 'cascade' }),
    itemType: text('item_type', { enum: PURCHASABLE_TYPES }).notNull(),
    itemSlug: text('item_slug').notNull(),
    title: text('title').notNull(),
    amount: integer('amount').notNull(),
    currency: text('currency').notNull(),
    /** The checkout session that paid for it: one purchase per session, however often it is confirmed. */
    sessionId: text('session_id').notNull(),
    createdAt: timestamptz('created_at').notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('purchases_session_key').on(t.sessionId),
    uniqueIndex('purchases_user_item_key').on(t.userId, t.itemType, t.itemSlug),
    check('purchases_type_check', sql`${t.itemType} in (${sqlList(PURCHASABLE_TYPES)})`),
  ],
);
export type PurchaseRow = typeof purchases.$inferSelect;
