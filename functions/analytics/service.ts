/**
 * Revenue analytics (issue 35, item 4): for a range of UTC calendar months, monthly recurring
 * revenue and its movements, paying members, money taken, revenue churn, trial conversion and
 * offers, from payments' revenue history (payments/revenue/history.ts, read-only). All amounts are
 * integer cents; rates are basis points (1/100 of a percent, 10000 = 100 %), rounded half up.
 *
 * Definitions: a month's `mrr` is the monthly recurring revenue at its end; `new`, `reactivation`,
 * `expansion`, `contraction` and `churned` are the month's movements as non-negative cents, so
 * `mrr = previous mrr + new + reactivation + expansion - contraction - churned`. Gross revenue churn
 * is (contraction + churned) / the MRR at the month's start; net revenue churn is (contraction +
 * churned - expansion) / the same (negative when expansion outweighs losses); null when the month
 * starts with no MRR. Over the range, each is the MRR-weighted average of the months' rates (the
 * sums of the numerators over the sum of the starting MRRs). Trials are counted by the month they
 * started, converted if they went on to pay (by now).
 */
import { CURRENCY } from '../payments/index.ts';
import { AppError } from '../platform/errors.ts';
import type { RevenueHistory, RevenueMonth } from '../payments/index.ts';
import { csvCell } from '../platform/http/csv.ts';

/** The longest range one request may ask for, in months. */
export const MAX_MONTHS = 60;

/** `YYYY-MM` of a date's UTC month, and the month `n` months after one. */
export const monthOf = (d: Date) => d.toISOString().slice(0, 7);
export function addMonthsTo(month: string, n: number): string {
  const [y, m] = month.split('-').map(Number) as [number, number];
  return monthOf(new Date(Date.UTC(y, m - 1 + n, 1)));
}
/** How many months from `from` to `to`, both included (0 or less when `to` comes first). */
export function monthSpan(from: string, to: string): number {
  const [fy, fm] = from.split('-').map(Number) as [number, number];
  const [ty, tm] = to.split('-').map(Number) as [number, number];
  return (ty - fy) * 12 + (tm - fm) + 1;
}

/** A rate in basis points, rounded half up; null without a base. */
const bps = (part: number, whole: number) => (whole > 0 ? Math.round((part * 10_000) / whole) : null);

function seriesOf(mrrAtStart: number, months: RevenueMonth[]) {
  let mrr = mrrAtStart;
  return months.map((m) => {
    const start = mrr;
    const mv = m.movements;
    const lost = -mv.contraction.delta - mv.churned.delta;
    mrr = start + Object.values(mv).reduce((sum, x) => sum + x.delta, 0);
    return {
      month: m.month,
      mrr,
      mrrStart: start,
      new: mv.new.delta,
      reactivation: mv.reactivation.delta,
      expansion: mv.expansion.delta,
      contraction: -mv.contraction.delta,
      churned: -mv.churned.delta,
      payingMembers: m.payingAtEnd,
      grossRevenue: m.invoices + m.oneTime,
      oneTimeRevenue: m.oneTime,
      grossRevenueChurn: bps(lost, start),
      netRevenueChurn: bps(lost - mv.expansion.delta, start),
      trialsStarted: m.trialsStarted,
      trialsConverted: m.trialsConverted,
      offerRedemptions: m.offerRedemptions,
      offerRevenue: m.offerRevenue,
    };
  });
}
export type RevenuePoint = ReturnType<typeof seriesOf>[number];

const total = (series: RevenuePoint[], key: keyof RevenuePoint) => series.reduce((sum, p) => sum + Number(p[key] ?? 0), 0);

/** The CSV's columns: the series' fields, in this order. */
const CSV_COLUMNS = [
  ['month', 'month'],
  ['mrr', 'mrr'],
  ['new', 'new'],
  ['reactivation', 'reactivation'],
  ['expansion', 'expansion'],
  ['contraction', 'contraction'],
  ['churned', 'churned'],
  ['paying_members', 'payingMembers'],
  ['gross_revenue', 'grossRevenue'],
  ['one_time_revenue', 'oneTimeRevenue'],
  ['gross_revenue_churn_bps', 'grossRevenueChurn'],
  ['net_revenue_churn_bps', 'netRevenueChurn'],
  ['trials_started', 'trialsStarted'],
  ['trials_converted', 'trialsConverted'],
  ['offer_redemptions', 'offerRedemptions'],
  ['offer_revenue', 'offerRevenue'],
] as const satisfies readonly (readonly [string, keyof RevenuePoint])[];

export function createAnalyticsService({ history, clock = () => new Date() }: { history: RevenueHistory; clock?: () => Date }) {
  /**
   * The months asked for, `to` defaulting to this month and `from` to eleven months before `to`:
   * 400 when `from` comes after `to` or the range is longer than MAX_MONTHS.
   */
  function monthsOf(range: { from?: string | undefined; to?: string | undefined }): string[] {
    const to = range.to ?? monthOf(clock());
    const from = range.from ?? addMonthsTo(to, -11);
    const span = monthSpan(from, to);
    if (span < 1) throw new AppError('bad_request', 'from must not come after to.', { fields: { from: ['Comes after to'] } });
    if (span > MAX_MONTHS)
      throw new AppError('bad_request', `The range may be at most ${MAX_MONTHS} months.`, { fields: { from: ['Range too long'] } });
    return Array.from({ length: span }, (_, i) => addMonthsTo(from, i));
  }

  async function revenue(range: { from?: string | undefined; to?: string | undefined }) {
    const { mrrAtStart, months } = await history.months(monthsOf(range));
    const series = seriesOf(mrrAtStart, months);
    const last = series.at(-1)!;
    const startSum = total(series, 'mrrStart');
    const lost = total(series, 'contraction') + total(series, 'churned');
    const started = total(series, 'trialsStarted');
    const converted = total(series, 'trialsConverted');
    return {
      currency: CURRENCY,
      from: series[0]!.month,
      to: last.month,
      series,
      totals: {
        mrrStart: mrrAtStart,
        mrr: last.mrr,
        new: total(series, 'new'),
        reactivation: total(series, 'reactivation'),
        expansion: total(series, 'expansion'),
        contraction: total(series, 'contraction'),
        churned: total(series, 'churned'),
        payingMembers: last.payingMembers,
        grossRevenue: total(series, 'grossRevenue'),
        oneTimeRevenue: total(series, 'oneTimeRevenue'),
      },
      churn: { grossRevenueChurn: bps(lost, startSum), netRevenueChurn: bps(lost - total(series, 'expansion'), startSum) },
      trials: { started, converted, conversionRate: bps(converted, started) },
      offers: { redemptions: total(series, 'offerRedemptions'), revenue: total(series, 'offerRevenue') },
    };
  }

  return {
    /** GET /api/admin/analytics/revenue: the report (see the file's header for every definition). */
    revenue,

    /** GET /api/admin/analytics/revenue.csv: the report's monthly series as a spreadsheet file. */
    async revenueCsv(range: { from?: string | undefined; to?: string | undefined }): Promise<{ filename: string; body: string }> {
      const report = await revenue(range);
      const lines = [
        CSV_COLUMNS.map(([name]) => name).join(','),
        ...report.series.map((p) => CSV_COLUMNS.map(([, key]) => csvCell(p[key])).join(',')),
      ];
      return { filename: `revenue-${report.from}-to-${report.to}.csv`, body: `${lines.join('\r\n')}\r\n` };
    },
  };
}

export type AnalyticsService = ReturnType<typeof createAnalyticsService>;
export type RevenueReport = Awaited<ReturnType<AnalyticsService['revenue']>>;
