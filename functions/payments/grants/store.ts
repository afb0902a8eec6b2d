/** The only module with SQL on the grants ledger (tables.ts). */
import { and, asc, desc, eq, gt, inArray, isNull, lte, or, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../platform/db/client.ts';
import { subscriptions } from '../tables.ts';
import { accessGrants, SUBSCRIPTION_SOURCES, type AccessGrantRow, type GrantSource, type NewAccessGrant } from './tables.ts';

/** Still giving access at `now` or later: open, or ending after `now`. */
const current = (now: Date) => or(isNull(accessGrants.endsAt), gt(accessGrants.endsAt, now));

/** What the parts of `createGrantStore` share. */
interface StoreDeps {
  db: DbOrTx;
}

/** Grants: a member's current and past ones, by subscription or source, written and ended. */
function grantRows({ db }: StoreDeps) {
  return {
    async byId(id: string): Promise<AccessGrantRow | undefined> {
      const [row] = await db.select().from(accessGrants).where(eq(accessGrants.id, id));
      return row;
    },
    /** The member's grants that give access now or later (started or not). */
    currentOf(userId: string, now: Date): Promise<AccessGrantRow[]> {
      return db
        .select()
        .from(accessGrants)
        .where(and(eq(accessGrants.userId, userId), current(now)));
    },
    /** Every grant of the member, with the subscription a subscription's row follows (for its cadence and renewal). */
    historyOf(userId: string) {
      return db
        .select({
          grant: accessGrants,
          interval: subscriptions.interval,
          renewsAt: subscriptions.currentPeriodEnd,
          cancelling: subscriptions.cancelAtPeriodEnd,
        })
        .from(accessGrants)
        .leftJoin(subscriptions, and(eq(subscriptions.id, accessGrants.sourceId), inArray(accessGrants.source, SUBSCRIPTION_SOURCES)))
        .where(eq(accessGrants.userId, userId))
        .orderBy(desc(accessGrants.startsAt), desc(accessGrants.createdAt));
    },
    /** The row a subscription's access follows now (one at most: a unique index holds open rows to one). */
    async currentOfSubscription(subscriptionId: string, now: Date): Promise<AccessGrantRow | undefined> {
      const [row] = await db
        .select()
        .from(accessGrants)
        .where(and(eq(accessGrants.sourceId, subscriptionId), inArray(accessGrants.source, SUBSCRIPTION_SOURCES), current(now)))
        .orderBy(desc(accessGrants.startsAt))
        .limit(1);
      return row;
    },
    /** The member's grants of one source that give access now or later. */
    currentOfSource(userId: string, source: GrantSource, now: Date): Promise<AccessGrantRow[]> {
      return db
        .select()
        .from(accessGrants)
        .where(and(eq(accessGrants.userId, userId), eq(accessGrants.source, source), current(now)));
    },
    /** Whether the member ever had a grant of this source (one trial per member, ever). */
    async hadSource(userId: string, source: GrantSource): Promise<boolean> {
      const [row] = await db
        .select({ id: accessGrants.id })
        .from(accessGrants)
        .where(and(eq(accessGrants.userId, userId), eq(accessGrants.source, source)))
        .limit(1);
      return Boolean(row);
    },
    async insert(values: NewAccessGrant): Promise<AccessGrantRow> {
      const [row] = await db.insert(accessGrants).values(values).returning();
      return row!;
    },
    /** Moves a grant's end (earlier, later or open); an end at or before its start leaves a zero-length row. */
    async setEnd(id: string, endsAt: Date | null, endedBy?: string): Promise<void> {
      await db
        .update(accessGrants)
        .set({
          endsAt: endsAt === null ? null : sql`greatest(${accessGrants.startsAt}, ${endsAt.toISOString()}::timestamptz)`,
          ...(endedBy ? { endedBy } : {}),
          // A moved end is a new end: it is settled (and warned about) again.
          settledAt: null,
          warnedAt: null,
        })
        .where(eq(accessGrants.id, id));
    },
  };
}

/** The daily round's grants (to settle, to warn of) and a member's part of the export. */
function settlementRows({ db }: StoreDeps) {
  return {
    /** Grants whose end has come and is not yet applied (the sweep re-reads each under its member's lock). */
    dueToSettle(now: Date, limit: number): Promise<AccessGrantRow[]> {
      return db
        .select()
        .from(accessGrants)
        .where(and(isNull(accessGrants.settledAt), lte(accessGrants.endsAt, now)))
        .orderBy(asc(accessGrants.endsAt))
        .limit(limit);
    },
    /** Grants of these sources ending before `horizon`, not yet warned about (re-read like dueToSettle's). */
    dueToWarn(sources: readonly GrantSource[], now: Date, horizon: Date, limit: number): Promise<AccessGrantRow[]> {
      return db
        .select()
        .from(accessGrants)
        .where(
          and(
            isNull(accessGrants.settledAt),
            isNull(accessGrants.warnedAt),
            inArray(accessGrants.source, sources),
            gt(accessGrants.endsAt, now),
            lte(accessGrants.endsAt, horizon),
          ),
        )
        .orderBy(asc(accessGrants.endsAt))
        .limit(limit);
    },
    async markSettled(id: string, at: Date): Promise<void> {
      await db.update(accessGrants).set({ settledAt: at }).where(eq(accessGrants.id, id));
    },
    async markWarned(id: string, at: Date): Promise<void> {
      await db.update(accessGrants).set({ warnedAt: at }).where(eq(accessGrants.id, id));
    },
    /** Every grant of the member, for their export (erased with the profile: `on delete cascade`). */
    personalData(userId: string): Promise<AccessGrantRow[]> {
      return db.select().from(accessGrants).where(eq(accessGrants.userId, userId)).orderBy(asc(accessGrants.startsAt));
    },
  };
}

export function createGrantStore(db: DbOrTx) {
  const deps: StoreDeps = { db };
  return { ...grantRows(deps), ...settlementRows(deps) };
}

export type GrantStore = ReturnType<typeof createGrantStore>;
