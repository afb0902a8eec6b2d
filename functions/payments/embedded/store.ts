/**
 * The only module that touches the embedded test provider's tables (test_billing_*): its customers,
 * checkout and portal sessions, subscriptions and the events it raised. Pass a transaction for the
 * locks (`lock…`) and for writes that must commit with an event.
 */
import { and, asc, desc, eq, inArray, isNull, lte } from 'drizzle-orm';
import type { DbOrTx } from '../../platform/db/client.ts';
import type { SubscriptionStatus } from '../provider.ts';
import {
  testBillingCoupons as coupons,
  testBillingCustomers as customers,
  testBillingEvents as events,
  testBillingSessions as sessions,
  testBillingSubscriptions as subs,
} from './tables.ts';

export type CustomerRow = typeof customers.$inferSelect;
export type SessionRow = typeof sessions.$inferSelect;
export type SubRow = typeof subs.$inferSelect;
export type EventRow = typeof events.$inferSelect;
export type CouponRow = typeof coupons.$inferSelect;
export type SessionKind = SessionRow['kind'];

/** What the parts of `createEmbeddedStore` share. */
interface StoreDeps {
  db: DbOrTx;
}

/** Customers and checkout sessions. */
function checkoutRows({ db }: StoreDeps) {
  return {
    /** Creates a customer once per idempotency key; answers the id stored for the key either way. */
    async addCustomer(values: typeof customers.$inferInsert): Promise<string> {
      await db.insert(customers).values(values).onConflictDoNothing();
      const [row] = await db.select({ id: customers.id }).from(customers).where(eq(customers.idempotencyKey, values.idempotencyKey));
      return row!.id;
    },
    async customerEmail(id: string): Promise<string | undefined> {
      const [row] = await db.select({ email: customers.email }).from(customers).where(eq(customers.id, id));
      return row?.email;
    },
    async lockCustomer(id: string): Promise<CustomerRow | undefined> {
      const [row] = await db.select().from(customers).where(eq(customers.id, id)).for('update');
      return row;
    },
    async updateCustomer(id: string, change: Partial<CustomerRow>): Promise<void> {
      await db.update(customers).set(change).where(eq(customers.id, id));
    },
    async addSession(values: typeof sessions.$inferInsert): Promise<void> {
      await db.insert(sessions).values(values);
    },
    /** Adds a session unless one with its id exists; answers the row stored under the id either way. */
    async addSessionOnce(values: typeof sessions.$inferInsert): Promise<SessionRow> {
      const [made] = await db.insert(sessions).values(values).onConflictDoNothing().returning();
      if (made) return made;
      const [row] = await db.select().from(sessions).where(eq(sessions.id, values.id));
      return row!;
    },
    async session(id: string, kind: SessionKind): Promise<SessionRow | undefined> {
      const [row] = await db
        .select()
        .from(sessions)
        .where(and(eq(sessions.id, id), eq(sessions.kind, kind)));
      return row;
    },
    async lockSession(id: string, kind: SessionKind): Promise<SessionRow | undefined> {
      const [row] = await db
        .select()
        .from(sessions)
        .where(and(eq(sessions.id, id), eq(sessions.kind, kind)))
        .for('update');
      return row;
    },
    async updateSession(id: string, change: Partial<SessionRow>): Promise<SessionRow | undefined> {
      const [row] = await db.update(sessions).set(change).where(eq(sessions.id, id)).returning();
      return row;
    },
  };
}

/** Subscriptions, coupons and the events the provider sends. */
function billingRows({ db }: StoreDeps) {
  return {
    async subscription(id: string): Promise<SubRow | undefined> {
      const [row] = await db.select().from(subs).where(eq(subs.id, id));
      return row;
    },
    async lockSubscription(id: string): Promise<SubRow | undefined> {
      const [row] = await db.select().from(subs).where(eq(subs.id, id)).for('update');
      return row;
    },
    /** The customer's subscriptions, newest first. */
    subscriptionsOf(customerId: string): Promise<SubRow[]> {
      return db.select().from(subs).where(eq(subs.customerId, customerId)).orderBy(desc(subs.createdAt));
    },
    async addSubscription(values: typeof subs.$inferInsert): Promise<SubRow> {
      const [row] = await db.insert(subs).values(values).returning();
      return row!;
    },
    async updateSubscription(id: string, change: Partial<SubRow>): Promise<SubRow | undefined> {
      const [row] = await db.update(subs).set(change).where(eq(subs.id, id)).returning();
      return row;
    },
    /** Ids of subscriptions in one of `statuses` whose period ended by `now`. */
    async endedPeriods(statuses: readonly SubscriptionStatus[], now: Date): Promise<string[]> {
      const rows = await db
        .select({ id: subs.id })
        .from(subs)
        .where(and(inArray(subs.status, [...statuses]), lte(subs.currentPeriodEnd, now)));
      return rows.map((r) => r.id);
    },
    /** Adds a coupon unless one with its id exists; answers the stored one either way. */
    async addCouponOnce(values: typeof coupons.$inferInsert): Promise<CouponRow> {
      const [made] = await db.insert(coupons).values(values).onConflictDoNothing().returning();
      if (made) return made;
      const [row] = await db.select().from(coupons).where(eq(coupons.id, values.id));
      return row!;
    },
    async coupon(id: string): Promise<CouponRow | undefined> {
      const [row] = await db.select().from(coupons).where(eq(coupons.id, id));
      return row;
    },
    async addEvent(values: typeof events.$inferInsert): Promise<void> {
      await db.insert(events).values(values);
    },
    /** Events not yet taken by the handler, oldest first. */
    pendingEvents(limit: number): Promise<EventRow[]> {
      return db.select().from(events).where(isNull(events.deliveredAt)).orderBy(asc(events.created), asc(events.id)).limit(limit);
    },
    async markDelivered(id: string, at: Date): Promise<void> {
      await db.update(events).set({ deliveredAt: at }).where(eq(events.id, id));
    },
  };
}

export function createEmbeddedStore(db: DbOrTx) {
  const deps: StoreDeps = { db };
  return { ...checkoutRows(deps), ...billingRows(deps) };
}

export type EmbeddedStore = ReturnType<typeof createEmbeddedStore>;
