/** The only module with SQL on gifts (tables.ts). */
import { and, asc, desc, eq, gt, inArray, sql } from 'drizzle-orm';
import { accessGrants } from '../grants/tables.ts';
import type { DbOrTx } from '../../platform/db/client.ts';
import { gifts, type GiftRow } from './tables.ts';

export function createGiftStore(db: DbOrTx) {
  return {
    async insert(values: typeof gifts.$inferInsert): Promise<GiftRow> {
      const [row] = await db.insert(gifts).values(values).returning();
      return row!;
    },
    async byCode(code: string): Promise<GiftRow | undefined> {
      const [row] = await db.select().from(gifts).where(eq(gifts.code, code));
      return row;
    },
    async deliveryOf(id: string): Promise<Date | undefined> {
      const [row] = await db.select({ deliverAt: gifts.deliverAt }).from(gifts).where(eq(gifts.id, id));
      return row?.deliverAt;
    },
    async setSession(id: string, sessionId: string): Promise<void> {
      await db.update(gifts).set({ sessionId }).where(eq(gifts.id, id));
    },
    async remove(id: string): Promise<void> {
      await db.delete(gifts).where(and(eq(gifts.id, id), eq(gifts.status, 'pending')));
    },
    /** Marks the gift of a paid checkout paid, once: undefined when it was already (or is not this session's). */
    async markPaid(id: string, sessionId: string, at: Date, expiresAt: Date): Promise<GiftRow | undefined> {
      const [row] = await db
        .update(gifts)
        .set({ status: 'paid', paidAt: at, expiresAt })
        .where(and(eq(gifts.id, id), eq(gifts.sessionId, sessionId), eq(gifts.status, 'pending')))
        .returning();
      return row;
    },
    /** Claims a paid, unexpired gift for a member: one conditional update, so a code redeems once. */
    async claim(code: string, userId: string, at: Date, waiting: boolean): Promise<GiftRow | undefined> {
      const [row] = await db
        .update(gifts)
        .set({ status: 'redeemed', redeemedBy: userId, redeemedAt: at, waiting: waiting ? 1 : 0 })
        .where(and(eq(gifts.code, code), eq(gifts.status, 'paid'), gt(gifts.expiresAt, at)))
        .returning();
      return row;
    },
    /** The member's redeemed gifts waiting for their paid period to end, oldest first. */
    waitingOf(userId: string): Promise<GiftRow[]> {
      return db
        .select()
        .from(gifts)
        .where(and(eq(gifts.redeemedBy, userId), eq(gifts.waiting, 1)))
        .orderBy(asc(gifts.redeemedAt));
    },
    async started(id: string): Promise<void> {
      await db.update(gifts).set({ waiting: 0 }).where(eq(gifts.id, id));
    },
    /** A deleted buyer's gifts keep going to their recipients, signed by no name. */
    async forgetBuyer(userId: string): Promise<void> {
      const theirs = db
        .select({ id: sql`${gifts.id}::text` })
        .from(gifts)
        .where(eq(gifts.buyerId, userId));
      // The recipients' ledger rows named them too ("a gift from …").
      await db
        .update(accessGrants)
        .set({ detail: 'A friend' })
        .where(and(eq(accessGrants.source, 'gift'), inArray(accessGrants.sourceId, theirs)));
      await db.update(gifts).set({ buyerName: 'A friend' }).where(eq(gifts.buyerId, userId));
    },
    /** The gifts a member bought, newest first. */
    boughtBy(userId: string): Promise<GiftRow[]> {
      return db.select().from(gifts).where(eq(gifts.buyerId, userId)).orderBy(desc(gifts.createdAt));
    },
  };
}

export type GiftStore = ReturnType<typeof createGiftStore>;
