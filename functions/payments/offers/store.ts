/** The only module with SQL on offers and their redemptions (tables.ts). */
import { and, desc, eq, gt, isNull, lt, or, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../platform/db/client.ts';
import { offerRedemptions as redemptions, offers, planTrials, type OfferRow, type RedemptionRow } from './tables.ts';

/** What the parts of `createOfferStore` share. */
interface StoreDeps {
  db: DbOrTx;
}

/** Offers: written, found, listed, taken and given back, archived. */
function offerRows({ db }: StoreDeps) {
  return {
    async insert(values: typeof offers.$inferInsert): Promise<OfferRow | undefined> {
      const [row] = await db.insert(offers).values(values).onConflictDoNothing().returning();
      return row;
    },
    async byCode(code: string): Promise<OfferRow | undefined> {
      const [row] = await db.select().from(offers).where(eq(offers.code, code));
      return row;
    },
    async byId(id: string): Promise<OfferRow | undefined> {
      const [row] = await db.select().from(offers).where(eq(offers.id, id));
      return row;
    },
    /** Every offer, newest first, with its redemptions and the revenue they brought. */
    list() {
      return db
        .select({
          offer: offers,
          redeemed: sql<number>`count(${redemptions.id}) filter (where ${redemptions.status} = 'redeemed')`.mapWith(Number),
          pending: sql<number>`count(${redemptions.id}) filter (where ${redemptions.status} = 'pending')`.mapWith(Number),
          revenue: sql<number>`coalesce(sum(${redemptions.revenue}) filter (where ${redemptions.status} = 'redeemed'), 0)`.mapWith(Number),
        })
        .from(offers)
        .leftJoin(redemptions, eq(redemptions.offerId, offers.id))
        .groupBy(offers.id)
        .orderBy(desc(offers.createdAt));
    },
    /** Retention offers still open at `now`, newest first. */
    openRetention(now: Date): Promise<OfferRow[]> {
      return db
        .select()
        .from(offers)
        .where(
          and(
            eq(offers.kind, 'retention'),
            isNull(offers.archivedAt),
            or(isNull(offers.expiresAt), gt(offers.expiresAt, now)),
            or(isNull(offers.maxRedemptions), lt(offers.redemptions, offers.maxRedemptions)),
          ),
        )
        .orderBy(desc(offers.createdAt));
    },
    /**
     * Counts one more redemption unless the offer is used up, expired or archived: one conditional
     * update, so concurrent redemptions never pass the maximum. True when it counted.
     */
    async take(id: string, now: Date): Promise<boolean> {
      const rows = await db
        .update(offers)
        .set({ redemptions: sql`${offers.redemptions} + 1` })
        .where(
          and(
            eq(offers.id, id),
            isNull(offers.archivedAt),
            or(isNull(offers.expiresAt), gt(offers.expiresAt, now)),
            or(isNull(offers.maxRedemptions), lt(offers.redemptions, offers.maxRedemptions)),
          ),
        )
        .returning({ id: offers.id });
      return rows.length === 1;
    },
    async giveBack(id: string): Promise<void> {
      await db
        .update(offers)
        .set({ redemptions: sql`greatest(${offers.redemptions} - 1, 0)` })
        .where(eq(offers.id, id));
    },
    async archive(id: string, at: Date): Promise<OfferRow | undefined> {
      const [row] = await db.update(offers).set({ archivedAt: at }).where(eq(offers.id, id)).returning();
      return row;
    },
  };
}

/** Redemptions of offers, the trial settings and a member's part of the export. */
function redemptionRows({ db }: StoreDeps) {
  return {
    /** The member's use of the offer that still counts (pending or redeemed). */
    async redemptionOf(offerId: string, userId: string): Promise<RedemptionRow | undefined> {
      const [row] = await db
        .select()
        .from(redemptions)
        .where(and(eq(redemptions.offerId, offerId), eq(redemptions.userId, userId), sql`${redemptions.status} <> 'released'`));
      return row;
    },
    /** Records a use; undefined when the member holds one already (the unique index settles a race). */
    async addRedemption(values: typeof redemptions.$inferInsert): Promise<RedemptionRow | undefined> {
      const [row] = await db.insert(redemptions).values(values).onConflictDoNothing().returning();
      return row;
    },
    async updateRedemption(id: string, change: Partial<RedemptionRow>): Promise<void> {
      await db.update(redemptions).set(change).where(eq(redemptions.id, id));
    },
    /** The redemption behind a subscription, with its offer. */
    async ofSubscription(subscriptionId: string) {
      const [row] = await db
        .select({ redemption: redemptions, offer: offers })
        .from(redemptions)
        .innerJoin(offers, eq(offers.id, redemptions.offerId))
        .where(and(eq(redemptions.subscriptionId, subscriptionId), eq(redemptions.status, 'redeemed')))
        .orderBy(desc(redemptions.redeemedAt))
        .limit(1);
      return row;
    },
    /** Pending redemptions older than `before` (checkouts given up), locked and skipped by another sweep. */
    stalePending(before: Date, limit: number): Promise<RedemptionRow[]> {
      return db
        .select()
        .from(redemptions)
        .where(and(eq(redemptions.status, 'pending'), lt(redemptions.createdAt, before)))
        .limit(limit)
        .for('update', { skipLocked: true });
    },
    /** Each plan's free trial days (plans without a row have none). */
    async trials(): Promise<Record<string, number>> {
      const rows = await db.select().from(planTrials);
      return Object.fromEntries(rows.filter((r) => r.days > 0).map((r) => [r.priceId, r.days]));
    },
    async setTrial(priceId: string, days: number, updatedBy: string): Promise<void> {
      const values = { priceId, days, updatedBy, updatedAt: new Date() };
      await db.insert(planTrials).values(values).onConflictDoUpdate({ target: planTrials.priceId, set: values });
    },
    /** Every redemption of the member, for their export (erased with the profile). */
    personalData(userId: string): Promise<RedemptionRow[]> {
      return db.select().from(redemptions).where(eq(redemptions.userId, userId));
    },
  };
}

export function createOfferStore(db: DbOrTx) {
  const deps: StoreDeps = { db };
  return { ...offerRows(deps), ...redemptionRows(deps) };
}

export type OfferStore = ReturnType<typeof createOfferStore>;
