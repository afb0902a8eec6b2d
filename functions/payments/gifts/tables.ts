/**
 * Gift memberships (issue 34): bought once by a member for a recipient address, with a message and a
 * delivery date; the recipient redeems the code once, within a year of payment, for a grant in the
 * ledger (at once, or after their paid period while a subscription of theirs runs).
 */
import { sql } from 'drizzle-orm';
import { check, index, integer, pgTable, text, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { GIFT_LEVELS } from '#shared/payments/gifts.ts';
import { sqlList, timestamptz } from '../../platform/db/columns.ts';
import { profiles } from '../../users/tables.ts';

export const GIFT_STATUSES = ['pending', 'paid', 'redeemed'] as const;
export type GiftStatus = (typeof GIFT_STATUSES)[number];

export const gifts = pgTable(
  'gifts',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    /** What the recipient types or follows: random, and the only way to the gift. */
    code: text('code').notNull(),
    buyerId: uuid('buyer_id').references(() => profiles.id, { onDelete: 'set null' }),
    /** How the recipient's mail and account page name the giver. */
    buyerName: text('buyer_name').notNull(),
    recipientEmail: text('recipient_email').notNull(),
    recipientName: text('recipient_name'),
    message: text('message'),
    accessLevel: text('access_level', { enum: GIFT_LEVELS }).notNull(),
    months: integer('months').notNull(),
    /** Cents paid. */
    amount: integer('amount').notNull(),
    status: text('status', { enum: GIFT_STATUSES }).notNull(),
    sessionId: text('session_id'),
    deliverAt: timestamptz('deliver_at').notNull(),
    paidAt: timestamptz('paid_at'),
    /** A year after payment: unredeemed by then, it can no longer be redeemed. */
    expiresAt: timestamptz('expires_at'),
    redeemedBy: uuid('redeemed_by').references(() => profiles.id, { onDelete: 'set null' }),
    redeemedAt: timestamptz('redeemed_at'),
    /** Redeemed while the recipient's subscription ran: it starts when their paid access ends. */
    waiting: integer('waiting').notNull().default(0),
    createdAt: timestamptz('created_at').notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('gifts_code_key').on(t.code),
    uniqueIndex('gifts_session_key').on(t.sessionId),
    index('gifts_buyer_idx').on(t.buyerId),
    index('gifts_waiting_idx')
      .on(t.redeemedBy)
      .where(sql`${t.waiting} = 1`),
    check('gifts_status_check', sql`${t.status} in (${sqlList(GIFT_STATUSES)})`),
    check('gifts_level_check', sql`${t.accessLevel} in (${sqlList(GIFT_LEVELS)})`),
    check('gifts_months_check', sql`${t.months} in (1, 3, 6, 12)`),
  ],
);
export type GiftRow = typeof gifts.$inferSelect;
