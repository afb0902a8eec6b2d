/**
 * The revenue history as other domains read it (analytics, issue 35): per UTC calendar month, the
 * recurring revenue's movements by kind, paying members at the month's end, the money taken
 * (subscription invoices, one-time purchases and gifts), free trials started and converted, and
 * offers redeemed and what their subscriptions paid. Read-only, and the only door to these tables
 * from outside payments: the figures come raw (cents, counts); analytics does the arithmetic.
 */
import type { Db } from '../../platform/db/client.ts';
import { MOVEMENT_KINDS, type MovementKind } from './tables.ts';
import { createRevenueStore } from './store.ts';

/** One month's raw figures (cents and counts). */
export interface RevenueMonth {
  month: string;
  /** Per kind: the total change of monthly revenue (signed cents) and how many movements. */
  movements: Record<MovementKind, { delta: number; count: number }>;
  payingAtEnd: number;
  invoices: number;
  oneTime: number;
  trialsStarted: number;
  trialsConverted: number;
  offerRedemptions: number;
  offerRevenue: number;
}

/** `YYYY-MM` of a month's first instant (UTC). */
const monthStart = (month: string) => new Date(`${month}-01T00:00:00.000Z`);
const nextMonth = (start: Date) => new Date(Date.UTC(start.getUTCFullYear(), start.getUTCMonth() + 1, 1));

/** Adds each row's figure to its month's entry (months outside the list are ignored). */
function into<R extends { month: string }>(byMonth: Map<string, RevenueMonth>, rows: R[], add: (m: RevenueMonth, row: R) => void) {
  for (const row of rows) {
    const entry = byMonth.get(row.month);
    if (entry) add(entry, row);
  }
}

export function createRevenueHistory(db: Db) {
  return {
    /**
     * The figures of consecutive months `months` (`YYYY-MM`, ascending), and the monthly recurring
     * revenue just before the first of them.
     */
    async months(months: readonly string[]): Promise<{ mrrAtStart: number; months: RevenueMonth[] }> {
      const store = createRevenueStore(db);
      const from = monthStart(months[0]!);
      const ends = months.map((m) => nextMonth(monthStart(m)));
      const to = ends.at(-1)!;
      const [mrrAtStart, moves, paying, invoices, oneTime, trials, offers] = await Promise.all([
        store.mrrBefore(from),
        store.movementsByMonth(from, to),
        store.payingAt(ends),
        store.invoicesByMonth(from, to),
        store.oneTimeByMonth(from, to),
        store.trialsByMonth(from, to),
        store.offersByMonth(from, to),
      ]);
      const zero = () => Object.fromEntries(MOVEMENT_KINDS.map((k) => [k, { delta: 0, count: 0 }])) as RevenueMonth['movements'];
      const list: RevenueMonth[] = months.map((month, i) => ({
        month,
        movements: zero(),
        payingAtEnd: paying[i] ?? 0,
        invoices: 0,
        oneTime: 0,
        trialsStarted: 0,
        trialsConverted: 0,
        offerRedemptions: 0,
        offerRevenue: 0,
      }));
      const byMonth = new Map(list.map((m) => [m.month, m]));
      into(byMonth, moves, (m, r) => (m.movements[r.kind] = { delta: r.delta, count: r.count }));
      into(byMonth, invoices, (m, r) => (m.invoices += r.amount));
      into(byMonth, oneTime, (m, r) => (m.oneTime += r.amount));
      into(byMonth, trials, (m, r) => {
        m.trialsStarted += r.started;
        m.trialsConverted += r.converted;
      });
      into(byMonth, offers.redemptions, (m, r) => (m.offerRedemptions += r.count));
      into(byMonth, offers.revenue, (m, r) => (m.offerRevenue += r.amount));
      return { mrrAtStart, months: list };
    },
  };
}

export type RevenueHistory = ReturnType<typeof createRevenueHistory>;
