/**
 * The only module with SQL on the revenue history (tables.ts): what billing's sync writes (a change
 * of a subscription's monthly contribution, a paid invoice) and the monthly aggregates analytics
 * reads, which also read payments' own purchases, gifts and offers. Months are UTC calendar months,
 * named `YYYY-MM`.
 */
import { and, desc, eq, gte, lt, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../platform/db/client.ts';
import { gifts } from '../gifts/tables.ts';
import { offerRedemptions, offers } from '../offers/tables.ts';
import { purchases } from '../tables.ts';
import { invoicePayments, revenueMovements as movements, type MovementKind, type RevenueMovementRow } from './tables.ts';

/** A UTC month's name (`YYYY-MM`) of a timestamp column. */
const monthOf = (column: unknown) => sql<string>`to_char(${column} at time zone 'UTC', 'YYYY-MM')`;
const int = (expression: ReturnType<typeof sql>) => sql<number>`coalesce(${expression}, 0)::bigint`.mapWith(Number);

/** What the parts of `createRevenueStore` share. */
interface StoreDeps {
  db: DbOrTx;
}

/** The revenue ledger as billing writes it: movements, invoice payments, coupon terms. */
function ledgerRows({ db }: StoreDeps) {
  return {
    /** The newest movement of a subscription (its contribution now is that row's `mrrAfter`). */
    async lastMovement(subscriptionId: string): Promise<RevenueMovementRow | undefined> {
      const [row] = await db
        .select()
        .from(movements)
        .where(eq(movements.subscriptionId, subscriptionId))
        .orderBy(desc(movements.id))
        .limit(1);
      return row;
    },
    /** Whether any subscription of the member churned before (a new one paying is then a reactivation). */
    async churnedBefore(userId: string): Promise<boolean> {
      const [row] = await db
        .select({ id: movements.id })
        .from(movements)
        .where(and(eq(movements.userId, userId), eq(movements.kind, 'churned')))
        .limit(1);
      return Boolean(row);
    },
    async addMovement(values: typeof movements.$inferInsert): Promise<void> {
      await db.insert(movements).values(values);
    },
    /** Records a paid invoice once; a second sync that sees it again changes nothing. */
    async addInvoicePayment(values: typeof invoicePayments.$inferInsert): Promise<void> {
      await db.insert(invoicePayments).values(values).onConflictDoNothing();
    },
    /** The terms of one of our offers' coupons (undefined for a coupon we did not make, e.g. a promotion code). */
    async couponTerms(couponId: string): Promise<{ percentOff: number | null; amountOff: number | null } | undefined> {
      const [row] = await db
        .select({ percentOff: offers.percentOff, amountOff: offers.amountOff })
        .from(offers)
        .where(eq(offers.couponId, couponId));
      return row;
    },
    /** Monthly recurring revenue (cents) just before `at`: the sum of every earlier change. */
    async mrrBefore(at: Date): Promise<number> {
      const [row] = await db
        .select({ mrr: int(sql`sum(${movements.mrrAfter} - ${movements.mrrBefore})`) })
        .from(movements)
        .where(lt(movements.at, at));
      return row?.mrr ?? 0;
    },
  };
}

/** The report's months: movements, paying members and invoices. */
function monthlyMovements({ db }: StoreDeps) {
  return {
    /** Per month and kind in [from, to): the movements' total change (cents, signed) and how many. */
    movementsByMonth(from: Date, to: Date) {
      const month = monthOf(movements.at);
      return db
        .select({
          month,
          kind: movements.kind,
          delta: int(sql`sum(${movements.mrrAfter} - ${movements.mrrBefore})`),
          count: int(sql`count(*)`),
        })
        .from(movements)
        .where(and(gte(movements.at, from), lt(movements.at, to)))
        .groupBy(month, movements.kind) as Promise<{ month: string; kind: MovementKind; delta: number; count: number }[]>;
    },
    /**
     * Paying members at each instant of `ends` (in that order): members (or, once deleted, their
     * subscriptions) whose subscription's newest movement before then leaves it paying.
     */
    async payingAt(ends: Date[]): Promise<number[]> {
      if (ends.length === 0) return [];
      const result = (await db.execute(sql`
        select (select count(distinct coalesce(m.user_id::text, m.subscription_id))
                  from (select distinct on (r.subscription_id) r.subscription_id, r.user_id, r.mrr_after
                          from ${movements} r where r.at < e.at_end
                          order by r.subscription_id, r.at desc, r.id desc) m
                 where m.mrr_after > 0)::int as paying
          from unnest(${sql.param(ends.map((d) => d.toISOString()))}::timestamptz[]) with ordinality as e(at_end, n)
         order by e.n`)) as unknown as { rows: { paying: number | string }[] };
      return result.rows.map((r) => Number(r.paying));
    },
    /** Subscription invoices paid per month in [from, to), in cents. */
    invoicesByMonth(from: Date, to: Date) {
      const month = monthOf(invoicePayments.paidAt);
      return db
        .select({ month, amount: int(sql`sum(${invoicePayments.amount})`) })
        .from(invoicePayments)
        .where(and(gte(invoicePayments.paidAt, from), lt(invoicePayments.paidAt, to)))
        .groupBy(month);
    },
  };
}

/** The report's months: one-time sales, trials and offers. */
function monthlySales({ db }: StoreDeps) {
  return {
    /** One-time revenue per month in [from, to): purchases of items, and gifts paid for, in cents. */
    async oneTimeByMonth(from: Date, to: Date): Promise<{ month: string; amount: number }[]> {
      const bought = monthOf(purchases.createdAt);
      const given = monthOf(gifts.paidAt);
      const [items, presents] = await Promise.all([
        db
          .select({ month: bought, amount: int(sql`sum(${purchases.amount})`) })
          .from(purchases)
          .where(and(gte(purchases.createdAt, from), lt(purchases.createdAt, to)))
          .groupBy(bought),
        db
          .select({ month: given, amount: int(sql`sum(${gifts.amount})`) })
          .from(gifts)
          .where(and(gte(gifts.paidAt, from), lt(gifts.paidAt, to)))
          .groupBy(given),
      ]);
      return [...items, ...presents];
    },
    /** Free trials started per month in [from, to), and how many of those went on to pay (by now). */
    trialsByMonth(from: Date, to: Date) {
      const month = monthOf(movements.at);
      return db
        .select({
          month,
          started: int(sql`count(*)`),
          converted: int(sql`count(*) filter (where exists (select 1 from ${movements} paid
            where paid.subscription_id = ${movements.subscriptionId} and paid.kind in ('new', 'reactivation')))`),
        })
        .from(movements)
        .where(and(eq(movements.kind, 'trial'), gte(movements.at, from), lt(movements.at, to)))
        .groupBy(month);
    },
    /** Offers redeemed per month in [from, to), and what subscriptions that redeemed one paid per month (the Offers tab's revenue). */
    async offersByMonth(from: Date, to: Date) {
      const redeemed = monthOf(offerRedemptions.redeemedAt);
      const paid = monthOf(invoicePayments.paidAt);
      const [redemptions, revenue] = await Promise.all([
        db
          .select({ month: redeemed, count: int(sql`count(*)`) })
          .from(offerRedemptions)
          .where(and(eq(offerRedemptions.status, 'redeemed'), gte(offerRedemptions.redeemedAt, from), lt(offerRedemptions.redeemedAt, to)))
          .groupBy(redeemed),
        db
          .select({ month: paid, amount: int(sql`sum(${invoicePayments.amount})`) })
          .from(invoicePayments)
          .where(
            and(
              gte(invoicePayments.paidAt, from),
              lt(invoicePayments.paidAt, to),
              sql`${invoicePayments.subscriptionId} in (select ${offerRedemptions.subscriptionId} from ${offerRedemptions}
                where ${offerRedemptions.status} = 'redeemed')`,
            ),
          )
          .groupBy(paid),
      ]);
      return { redemptions, revenue };
    },
  };
}

export function createRevenueStore(db: DbOrTx) {
  const deps: StoreDeps = { db };
  return { ...ledgerRows(deps), ...monthlyMovements(deps), ...monthlySales(deps) };
}

export type RevenueStore = ReturnType<typeof createRevenueStore>;
