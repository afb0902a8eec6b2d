/**
 * Revenue history (issue 35): what billing's sync saw happen to money, kept append-only so that
 * analytics can say what the recurring revenue was in any past month. Our copy of a subscription
 * (`subscriptions`) holds only its present; these rows hold each change of its monthly contribution
 * and each paid invoice. A member's deletion keeps the figures and drops the link to them (user id
 * set null), so past months do not change when an account goes.
 */
import { sql } from 'drizzle-orm';
import { bigserial, check, index, integer, pgTable, text, uuid } from 'drizzle-orm/pg-core';
import { sqlList, timestamptz } from '../../platform/db/columns.ts';
import { profiles } from '../../users/tables.ts';

/**
 * What a change of a subscription's monthly contribution was: `new` (first paying), `reactivation`
 * (paying again after a churn of the member's), `expansion` and `contraction` (more or less, still
 * paying), `churned` (no longer paying); `trial` marks a free trial's start (0 to 0, nothing counted).
 */
export const MOVEMENT_KINDS = ['new', 'reactivation', 'expansion', 'contraction', 'churned', 'trial'] as const;
export type MovementKind = (typeof MOVEMENT_KINDS)[number];

export const revenueMovements = pgTable(
  'revenue_movements',
  {
    /** Ascending in the order rows were written: ties of `at` keep their order. */
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    subscriptionId: text('subscription_id').notNull(),
    userId: uuid('user_id').references(() => profiles.id, { onDelete: 'set null' }),
    at: timestamptz('at').notNull(),
    kind: text('kind', { enum: MOVEMENT_KINDS }).notNull(),
    /** Cents per month before and after (a year's price a twelfth, rounded; a running offer's discount taken off). */
    mrrBefore: integer('mrr_before').notNull(),
    mrrAfter: integer('mrr_after').notNull(),
    /** The subscription's status before (null: first seen) and after. */
    statusBefore: text('status_before'),
    statusAfter: text('status_after').notNull(),
  },
  (t) => [
    index('revenue_movements_at_idx').on(t.at),
    index('revenue_movements_subscription_idx').on(t.subscriptionId, t.id),
    index('revenue_movements_user_idx').on(t.userId),
    check('revenue_movements_kind_check', sql`${t.kind} in (${sqlList(MOVEMENT_KINDS)})`),
    check('revenue_movements_amounts_check', sql`${t.mrrBefore} >= 0 and ${t.mrrAfter} >= 0`),
  ],
);
export type RevenueMovementRow = typeof revenueMovements.$inferSelect;

/** Each paid subscription invoice, once (by the provider's invoice id), as sync saw it. */
export const invoicePayments = pgTable(
  'invoice_payments',
  {
    invoiceId: text('invoice_id').primaryKey(),
    subscriptionId: text('subscription_id').notNull(),
    userId: uuid('user_id').references(() => profiles.id, { onDelete: 'set null' }),
    /** Cents taken (a prorated change's difference, a renewal, a first payment). */
    amount: integer('amount').notNull(),
    /** The provider's billing reason (subscription_create, subscription_cycle, subscription_update), when it says. */
    reason: text('reason'),
    paidAt: timestamptz('paid_at').notNull(),
  },
  (t) => [
    index('invoice_payments_paid_idx').on(t.paidAt),
    index('invoice_payments_subscription_idx').on(t.subscriptionId),
    check('invoice_payments_amount_check', sql`${t.amount} > 0`),
  ],
);
export type InvoicePaymentRow = typeof invoicePayments.$inferSelect;
