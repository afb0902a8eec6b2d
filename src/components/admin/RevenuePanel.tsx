/**
 * The overview's Revenue section (issue 35): a range of months (the last 12 by default), the
 * range's headline figures, and charts of monthly recurring revenue and its movements, paying
 * members, gross and net revenue churn, trial conversion, offer redemptions and one-time revenue,
 * each with its table (RevenueChart.tsx), from GET /api/admin/analytics/revenue; "Download CSV"
 * fetches the .csv route with the admin's token and saves it. Browser only.
 */
import { useEffect, useState, type FormEvent } from 'react';
import { formatPlanAmount } from '#shared/payments/display.ts';
import { api, call, type ApiData } from '../../lib/browser/api.ts';
import { toast } from '../../lib/browser/toast.ts';
import { RevenueChart } from './RevenueChart.tsx';

export type RevenueReport = ApiData<typeof api.analytics.revenue.$get>;

/** Cents as dollars, a minus sign for losses. */
const money = (cents: number) => (cents < 0 ? `−${formatPlanAmount(-cents, null)}` : formatPlanAmount(cents, null));
/** Basis points as a percentage. */
const percent = (bps: number) => `${(bps / 100).toFixed(2)}%`;
const count = (n: number) => String(n);

const thisMonth = () => new Date().toISOString().slice(0, 7);
function monthsBefore(month: string, n: number) {
  const [y, m] = month.split('-').map(Number) as [number, number];
  return new Date(Date.UTC(y, m - 1 - n, 1)).toISOString().slice(0, 7);
}

function Figure({ label, value }: { label: string; value: string }) {
  return (
    <div className="rounded-2xl bg-white p-4 shadow-sm ring-1 ring-slate-200">
      <dt className="text-sm text-slate-600">{label}</dt>
      <dd className="mt-1 text-xl font-bold text-slate-900">{value}</dd>
    </div>
  );
}

function Charts({ report }: { report: RevenueReport }) {
  const months = report.series.map((p) => p.month);
  const of = (pick: (p: RevenueReport['series'][number]) => number | null) => report.series.map(pick);
  return (
    <div className="grid gap-4 lg:grid-cols-2">
      <RevenueChart
        title="Monthly recurring revenue"
        kind="lines"
        months={months}
        format={money}
        series={[{ label: 'MRR', color: '#2563eb', values: of((p) => p.mrr) }]}
      />
      <RevenueChart
        title="MRR movements"
        kind="bars"
        months={months}
        format={money}
        series={[
          { label: 'New', color: '#16a34a', values: of((p) => p.new) },
          { label: 'Reactivation', color: '#0d9488', values: of((p) => p.reactivation) },
          { label: 'Expansion', color: '#65a30d', values: of((p) => p.expansion) },
          { label: 'Contraction', color: '#f59e0b', values: of((p) => -p.contraction) },
          { label: 'Churned', color: '#dc2626', values: of((p) => -p.churned) },
        ]}
      />
      <RevenueChart
        title="Paying members"
        kind="lines"
        months={months}
        format={count}
        series={[{ label: 'Paying members', color: '#7c3aed', values: of((p) => p.payingMembers) }]}
      />
      <RevenueChart
        title="Revenue churn"
        kind="lines"
        months={months}
        format={percent}
        series={[
          { label: 'Gross revenue churn', color: '#dc2626', values: of((p) => p.grossRevenueChurn) },
          { label: 'Net revenue churn', color: '#f59e0b', values: of((p) => p.netRevenueChurn) },
        ]}
      />
      <RevenueChart
        title="Trials"
        kind="bars"
        months={months}
        format={count}
        series={[
          { label: 'Converted', color: '#16a34a', values: of((p) => p.trialsConverted) },
          { label: 'Did not convert', color: '#cbd5e1', values: of((p) => p.trialsStarted - p.trialsConverted) },
        ]}
      />
      <RevenueChart
        title="Offer redemptions"
        kind="bars"
        months={months}
        format={count}
        series={[{ label: 'Redemptions', color: '#db2777', values: of((p) => p.offerRedemptions) }]}
      />
      <RevenueChart
        title="Revenue taken"
        kind="bars"
        months={months}
        format={money}
        series={[
          { label: 'Subscriptions', color: '#2563eb', values: of((p) => p.grossRevenue - p.oneTimeRevenue) },
          { label: 'One-time purchases and gifts', color: '#0ea5e9', values: of((p) => p.oneTimeRevenue) },
        ]}
      />
    </div>
  );
}

export function RevenuePanel() {
  const [range, setRange] = useState(() => ({ from: monthsBefore(thisMonth(), 11), to: thisMonth() }));
  const [draft, setDraft] = useState(range);
  const [report, setReport] = useState<RevenueReport | null>(null);
  const [error, setError] = useState('');

  useEffect(() => {
    const controller = new AbortController();
    call((o) => api.analytics.revenue.$get({ query: range }, o), { signal: controller.signal })
      .then((result) => {
        setError('');
        if (result.ok) setReport(result.data);
        else setError(result.kind === 'error' ? result.message : 'The revenue figures could not be loaded.');
      })
      .catch(() => undefined); // aborted
    return () => controller.abort();
  }, [range]);

  function apply(event: FormEvent) {
    event.preventDefault();
    setRange(draft);
  }

  async function download() {
    try {
      const res = await api.analytics['revenue.csv'].$get({ query: range });
      if (!res.ok) throw new Error(String(res.status));
      const href = URL.createObjectURL(await res.blob());
      const a = Object.assign(document.createElement('a'), { href, download: `revenue-${range.from}-to-${range.to}.csv` });
      a.click();
      setTimeout(() => URL.revokeObjectURL(href), 10_000);
    } catch {
      toast({ title: 'Error', description: 'The CSV file could not be downloaded.', variant: 'destructive' });
    }
  }

  return (
    <section aria-labelledby="revenue-heading" className="space-y-4">
      <div className="flex flex-wrap items-end justify-between gap-4">
        <h2 id="revenue-heading" className="text-xl font-bold text-slate-900">
          Revenue
        </h2>
        <RangeForm draft={draft} onDraft={setDraft} onSubmit={apply} onDownload={() => void download()} />
      </div>
      {error && (
        <p role="alert" className="text-red-700">
          {error}
        </p>
      )}
      {!error && !report && (
        <p role="status" className="text-slate-600">
          Loading the revenue figures...
        </p>
      )}
      {report && (
        <>
          <Totals report={report} />
          <Charts report={report} />
        </>
      )}
    </section>
  );
}

/** A range of months, as YYYY-MM. */
type MonthRange = { from: string; to: string };
type RangeFormProps = {
  draft: MonthRange;
  onDraft: (draft: MonthRange) => void;
  onSubmit: (event: FormEvent) => void;
  onDownload: () => void;
};

/** The months to show, and the CSV of them. */
function RangeForm({ draft, onDraft, onSubmit, onDownload }: RangeFormProps) {
  return (
    <form onSubmit={onSubmit} className="flex flex-wrap items-end gap-3 text-sm">
      {(['from', 'to'] as const).map((field) => (
        <label key={field} className="flex flex-col gap-1 text-slate-700">
          {field === 'from' ? 'From' : 'To'}
          <input
            type="month"
            required
            min="2000-01"
            max="2099-12"
            value={draft[field]}
            onChange={(e) => onDraft({ ...draft, [field]: e.target.value })}
            className="rounded-lg border border-slate-300 px-2 py-1.5"
          />
        </label>
      ))}
      <button type="submit" className="min-h-9 rounded-lg bg-brand-600 px-3 py-1.5 font-semibold text-white hover:bg-brand-700">
        Show
      </button>
      <button
        type="button"
        onClick={onDownload}
        className="min-h-9 rounded-lg px-3 py-1.5 font-semibold text-brand-700 ring-1 ring-inset ring-brand-200 hover:bg-brand-50"
      >
        Download CSV
      </button>
    </form>
  );
}

/** The range's headline figures. */
function Totals({ report }: { report: RevenueReport }) {
  const t = report.totals;
  return (
    <dl className="grid gap-4 sm:grid-cols-2 lg:grid-cols-4" data-testid="revenue-totals">
      <Figure label={`MRR at the end of ${report.to}`} value={money(t.mrr)} />
      <Figure label="Paying members" value={count(t.payingMembers)} />
      <Figure label="Revenue taken" value={money(t.grossRevenue)} />
      <Figure label="Net new MRR" value={money(t.mrr - t.mrrStart)} />
      <Figure
        label="Gross revenue churn (a month)"
        value={report.churn.grossRevenueChurn === null ? '—' : percent(report.churn.grossRevenueChurn)}
      />
      <Figure
        label="Net revenue churn (a month)"
        value={report.churn.netRevenueChurn === null ? '—' : percent(report.churn.netRevenueChurn)}
      />
      <Figure
        label={`Trial conversion (${report.trials.converted} of ${report.trials.started})`}
        value={report.trials.conversionRate === null ? '—' : percent(report.trials.conversionRate)}
      />
      <Figure label={`Offers redeemed: ${report.offers.redemptions}`} value={money(report.offers.revenue)} />
    </dl>
  );
}
