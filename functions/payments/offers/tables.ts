/**
 * Offers (issue 34): a code staff create for a discount at sign-up or to keep a member who goes to
 * cancel, backed by a coupon at the payment provider; each member's redemption of one, counted
 * atomically against the offer's maximum, with the revenue it brought; and each plan's free trial.
 */
import { sql } from 'drizzle-orm';
import { check, index, integer, pgTable, text, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { OFFER_DURATIONS, OFFER_KINDS } from '#shared/payments/offers.ts';
import { sqlList, timestamptz } from '../../platform/db/columns.ts';
import { profiles } from '../../users/tables.ts';

export const offers = pgTable(
  'offers',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    /** Upper-case; what members type, compared without case. */
    code: text('code').notNull(),
    kind: text('kind', { enum: OFFER_KINDS }).notNull(),
    percentOff: integer('percent_off'),
    /** Cents. */
    amountOff: integer('amount_off'),
    duration: text('duration', { enum: OFFER_DURATIONS }).notNull(),
    durationInMonths: integer('duration_in_months'),
    /** The plans it applies to (tier ids, e.g. price_premium_monthly); null: every plan. */
    priceIds: text('price_ids').array(),
    maxRedemptions: integer('max_redemptions'),
    /** Redemptions held or made (a checkout under way holds one until it completes or is given up). */
    redemptions: integer('redemptions').notNull().default(0),
    expiresAt: timestamptz('expires_at'),
    /** The provider's coupon. */
    couponId: text('coupon_id').notNull(),
    createdBy: uuid('created_by').notNull(),
    createdAt: timestamptz('created_at').notNull().defaultNow(),
    archivedAt: timestamptz('archived_at'),
  },
  (t) => [
    uniqueIndex('offers_code_key').on(t.code),
    check('offers_kind_check', sql`${t.kind} in (${sqlList(OFFER_KINDS)})`),
    check('offers_duration_check', sql`${t.duration} in (${sqlList(OFFER_DURATIONS)})`),
    check('offers_discount_check', sql`(${t.percentOff} is null) <> (${t.amountOff} is null)`),
    check('offers_percent_check', sql`${t.percentOff} is null or (${t.percentOff} between 1 and 99)`),
    check('offers_amount_check', sql`${t.amountOff} is null or ${t.amountOff} > 0`),
    check('offers_redemptions_check', sql`${t.maxRedemptions} is null or ${t.redemptions} <= ${t.maxRedemptions}`),
  ],
);
export type OfferRow = typeof offers.$inferSelect;

export const REDEMPTION_STATUSES = ['pending', 'redeemed', 'released'] as const;

export const offerRedemptions = pgTable(
  'offer_redemptions',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    offerId: uuid('offer_id')
      .notNull()
      .references(() => offers.id),
    userId: uuid('user_id')
      .notNull()
      .references(() => profiles.id, { onDelete: 'cascade' }),
    /** pending: a checkout under way holds it; redeemed: on a subscription; released: given up (counted no more). */
    status: text('status', { enum: REDEMPTION_STATUSES }).notNull(),
    sessionId: text('session_id'),
    subscriptionId: text('subscription_id'),
    /** Cents paid on the subscription while it carried the offer, invoice by invoice (`lastInvoiceId` the newest counted). */
    revenue: integer('revenue').notNull().default(0),
    lastInvoiceId: text('last_invoice_id'),
    createdAt: timestamptz('created_at').notNull().defaultNow(),
    redeemedAt: timestamptz('redeemed_at'),
  },
  (t) => [
    // One use of an offer per member.
    uniqueIndex('offer_redemptions_member_key')
      .on(t.offerId, t.userId)
      .where(sql`${t.status} <> 'released'`),
    index('offer_redemptions_subscription_idx').on(t.subscriptionId),
    check('offer_redemptions_status_check', sql`${t.status} in (${sqlList(REDEMPTION_STATUSES)})`),
  ],
);
export type RedemptionRow = typeof offerRedemptions.$inferSelect;

/** Free trial days per plan (tier id), set by staff; a plan without a row has none. */
export const planTrials = pgTable(
  'plan_trials',
  {
    priceId: text('price_id').primaryKey(),
    days: integer('days').notNull(),
    updatedBy: uuid('updated_by').notNull(),
    updatedAt: timestamptz('updated_at').notNull().defaultNow(),
  },
  (t) => [check('plan_trials_days_check', sql`${t.days} between 0 and 90`)],
);
