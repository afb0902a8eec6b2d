/**
 * The only payments module with SQL: our copy of members' subscriptions (as last read from the
 * provider) and their one-time purchases. Profiles and the audit log are the users domain's
 * (reached through users/access-level.ts).
 */
import { and, desc, eq, gt, isNull, lte, sql } from 'drizzle-orm';
import type { DbOrTx } from '../platform/db/client.ts';
import { purchases, subscriptions, type PurchasableType, type PurchaseRow, type SubscriptionRow } from './tables.ts';

export type NewSubscriptionRow = typeof subscriptions.$inferInsert;
export type NewPurchaseRow = typeof purchases.$inferInsert;

export function createPaymentStore(db: DbOrTx) {
  return {
    /** Our copy of one subscription. */
    async subscription(id: string): Promise<SubscriptionRow | undefined> {
      const [row] = await db.select().from(subscriptions).where(eq(subscriptions.id, id));
      return row;
    },

    /** Every subscription of the member, whatever its status. */
    subscriptionsOf(userId: string): Promise<SubscriptionRow[]> {
      return db.select().from(subscriptions).where(eq(subscriptions.userId, userId));
    },

    /** Every subscription of the member, the latest period end first. */
    latestSubscriptionsOf(userId: string): Promise<SubscriptionRow[]> {
      return db.select().from(subscriptions).where(eq(subscriptions.userId, userId)).orderBy(desc(subscriptions.currentPeriodEnd));
    },

    /** Writes our copy of a subscription: inserted, or replaced by id. */
    async saveSubscription(row: NewSubscriptionRow): Promise<void> {
      await db.insert(subscriptions).values(row).onConflictDoUpdate({ target: subscriptions.id, set: row });
    },

    /** Trialing subscriptions whose trial ends by `horizon` (and after `now`), not yet announced, that lasted longer than the notice. */
    trialsEndingBy(now: Date, horizon: Date, noticeMs: number): Promise<SubscriptionRow[]> {
      return db
        .select()
        .from(subscriptions)
        .where(
          and(
            eq(subscriptions.status, 'trialing'),
            // A trial cancelled during it lapses: nothing continues, so nothing to announce.
            eq(subscriptions.cancelAtPeriodEnd, false),
            isNull(subscriptions.cancelAt),
            isNull(subscriptions.trialWarnedAt),
            gt(subscriptions.trialEnd, now),
            lte(subscriptions.trialEnd, horizon),
            sql`${subscriptions.trialEnd} - ${subscriptions.createdAt} > make_interval(secs => ${noticeMs / 1000})`,
          ),
        )
        .limit(100);
    },

    /** Marks a trial's notice sent; false when another round marked it first. */
    async claimTrialNotice(id: string, at: Date): Promise<boolean> {
      const rows = await db
        .update(subscriptions)
        .set({ trialWarnedAt: at })
        .where(and(eq(subscriptions.id, id), isNull(subscriptions.trialWarnedAt)))
        .returning({ id: subscriptions.id });
      return rows.length === 1;
    },

    /** Whether the member bought this item. */
    async owns(userId: string, type: PurchasableType, slug: string): Promise<boolean> {
      const [row] = await db
        .select({ id: purchases.id })
        .from(purchases)
        .where(and(eq(purchases.userId, userId), eq(purchases.itemType, type), eq(purchases.itemSlug, slug)));
      return Boolean(row);
    },

    /** Whether a purchase was recorded for this checkout session. */
    async purchasedIn(sessionId: string): Promise<boolean> {
      const [row] = await db.select({ id: purchases.id }).from(purchases).where(eq(purchases.sessionId, sessionId));
      return Boolean(row);
    },

    /** Records a purchase; undefined when its session (or the member's item) was recorded already. */
    async addPurchase(values: NewPurchaseRow): Promise<PurchaseRow | undefined> {
      const [inserted] = await db.insert(purchases).values(values).onConflictDoNothing().returning();
      return inserted;
    },

    /** The member's purchases, newest first. */
    purchasesOf(userId: string): Promise<PurchaseRow[]> {
      return db.select().from(purchases).where(eq(purchases.userId, userId)).orderBy(desc(purchases.createdAt));
    },

    /**
     * Everything payments keeps about a member, for their export. Both tables reference the profile
     * with `on delete cascade`, so deleting the profile erases them.
     */
    async personalData(userId: string): Promise<{ subscriptions: SubscriptionRow[]; purchases: PurchaseRow[] }> {
      const [plans, bought] = await Promise.all([
        db.select().from(subscriptions).where(eq(subscriptions.userId, userId)),
        db.select().from(purchases).where(eq(purchases.userId, userId)),
      ]);
      return { subscriptions: plans, purchases: bought };
    },
  };
}

export type PaymentStore = ReturnType<typeof createPaymentStore>;
