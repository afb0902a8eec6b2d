/**
 * The embedded test payment provider's own state: what Stripe keeps on its side. Only the embedded
 * provider reads or writes these tables.
 */
import { boolean, index, integer, jsonb, pgTable, text } from 'drizzle-orm/pg-core';
import { timestamptz } from '../../platform/db/columns.ts';
import { SUBSCRIPTION_STATUSES } from '../provider.ts';

export const testBillingCustomers = pgTable('test_billing_customers', {
  id: text('id').primaryKey(),
  email: text('email').notNull(),
  userId: text('user_id').notNull(),
  idempotencyKey: text('idempotency_key').notNull().unique(),
  /** Last four digits of the card on file, and whether later charges fail (test card 4000 0000 0000 0341). */
  cardLast4: text('card_last4'),
  cardFailsLater: boolean('card_fails_later').notNull().default(false),
  /** Cents of credit from prorated plan changes, taken off the next invoices (Stripe's customer balance). */
  credit: integer('credit').notNull().default(0),
  createdAt: timestamptz('created_at').notNull().defaultNow(),
});

export const testBillingSessions = pgTable('test_billing_sessions', {
  id: text('id').primaryKey(),
  kind: text('kind', { enum: ['checkout', 'portal'] }).notNull(),
  customerId: text('customer_id').notNull(),
  /** Checkout: mode, price (a plan's lookup key or an inline one-time line), urls, metadata, outcome. */
  detail: jsonb('detail').$type<Record<string, unknown>>().notNull(),
  status: text('status').notNull(),
  subscriptionId: text('subscription_id'),
  expiresAt: timestamptz('expires_at').notNull(),
  createdAt: timestamptz('created_at').notNull().defaultNow(),
});

export const testBillingSubscriptions = pgTable('test_billing_subscriptions', {
  id: text('id').primaryKey(),
  customerId: text('customer_id').notNull(),
  status: text('status', { enum: SUBSCRIPTION_STATUSES }).notNull(),
  lookupKey: text('lookup_key').notNull(),
  /** The plan the next period renews on (a scheduled downgrade, Stripe's subscription schedule); null keeps the plan. */
  pendingLookupKey: text('pending_lookup_key'),
  cancelAtPeriodEnd: boolean('cancel_at_period_end').notNull().default(false),
  currentPeriodStart: timestamptz('current_period_start').notNull(),
  currentPeriodEnd: timestamptz('current_period_end').notNull(),
  endedAt: timestamptz('ended_at'),
  /** The subscription's newest invoice: what it charged and why (Stripe's `latest_invoice`). */
  latestInvoice: jsonb('latest_invoice').$type<{ id: string; amountPaid: number; billingReason: string }>(),
  /** A coupon on its invoices: a `once` one is used up by the first invoice it takes money off; a `repeating` one lasts until `end`. */
  discount: jsonb('discount').$type<EmbeddedDiscount>(),
  /** When its free trial ends (the first period's end), null without one. */
  trialEnd: timestamptz('trial_end'),
  metadata: jsonb('metadata').$type<Record<string, string>>().notNull().default({}),
  createdAt: timestamptz('created_at').notNull().defaultNow(),
});

/** Coupons made for offers (Stripe's coupons): money off subscriptions' invoices. */
export const testBillingCoupons = pgTable('test_billing_coupons', {
  id: text('id').primaryKey(),
  name: text('name').notNull(),
  percentOff: integer('percent_off'),
  amountOff: integer('amount_off'),
  duration: text('duration', { enum: ['once', 'repeating', 'forever'] }).notNull(),
  durationInMonths: integer('duration_in_months'),
  createdAt: timestamptz('created_at').notNull().defaultNow(),
});

/** A coupon as a subscription carries it. */
export interface EmbeddedDiscount {
  couponId: string;
  percentOff: number | null;
  amountOff: number | null;
  duration: 'once' | 'repeating' | 'forever';
  /** ISO: a repeating coupon's end; null otherwise. */
  end: string | null;
}

/** Events the embedded provider raised, delivered to the billing handler until it took them. */
export const testBillingEvents = pgTable(
  'test_billing_events',
  {
    id: text('id').primaryKey(),
    type: text('type').notNull(),
    object: jsonb('object').$type<Record<string, unknown>>().notNull(),
    created: integer('created').notNull(),
    deliveredAt: timestamptz('delivered_at'),
  },
  (t) => [index('test_billing_events_pending_idx').on(t.created)],
);
