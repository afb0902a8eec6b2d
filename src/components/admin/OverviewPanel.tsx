/**
 * The overview (beyond the spec, what Ghost's dashboard gives its owners): members by level, paying
 * members and monthly recurring revenue, pending cancellations, leads, newsletter confirmations and
 * failed emails, and sign-ups and cancellations over the last 90 days as a chart (uPlot, loaded on
 * demand; the numbers are also in a table for screen readers and when the chart cannot load), then
 * the Revenue section over a chosen range of months (RevenuePanel.tsx).
 */
import { useEffect, useRef, useState } from 'react';
import { ACCESS_LEVELS, accessLabel } from '#shared/access.ts';
import { api, call, type ApiData } from '../../lib/browser/api.ts';
import { formatPlanAmount } from '#shared/payments/display.ts';
import { RevenuePanel } from './RevenuePanel.tsx';

export type Overview = ApiData<typeof api.admin.overview.$get>;

const sum = (rows: { count: number }[]) => rows.reduce((n, r) => n + r.count, 0);

function Stat({ label, value }: { label: string; value: string | number }) {
  return (
    <div className="rounded-2xl bg-white p-5 shadow-sm ring-1 ring-slate-200">
      <dt className="text-sm text-slate-600">{label}</dt>
      <dd className="mt-1 text-2xl font-bold text-slate-900">{value}</dd>
    </div>
  );
}

export function OverviewPanel() {
  const [overview, setOverview] = useState<Overview | null>(null);
  const [error, setError] = useState('');
  const chartRef = useRef<HTMLDivElement>(null);

  useEffect(() => {
    const controller = new AbortController();
    call((o) => api.admin.overview.$get({}, o), { signal: controller.signal })
      .then((result) => {
        if (result.ok) setOverview(result.data);
        else setError(result.kind === 'error' ? result.message : 'The overview could not be loaded.');
      })
      .catch(() => undefined); // aborted
    return () => controller.abort();
  }, []);

  useEffect(() => {
    const target = chartRef.current;
    if (!overview || !target) return;
    let remove: (() => void) | undefined;
    let gone = false;
    import('./overview-chart.ts')
      .then(({ drawDailyChart }) => {
        if (!gone) remove = drawDailyChart(target, overview);
      })
      .catch(() => undefined); // the table below still has the numbers
    return () => {
      gone = true;
      remove?.();
    };
  }, [overview]);

  if (error)
    return (
      <p role="alert" className="text-red-700">
        {error}
      </p>
    );
  if (!overview)
    return (
      <p role="status" className="text-slate-600">
        Loading the overview...
      </p>
    );

  return (
    <div className="space-y-6">
      <dl className="grid gap-4 sm:grid-cols-2 lg:grid-cols-4" data-testid="overview-stats">
        <Stat label="Members" value={overview.members.total} />
        <Stat label="Paying members" value={overview.payingMembers} />
        <Stat label="Monthly recurring revenue" value={formatPlanAmount(overview.monthlyRecurringRevenue.amount, null)} />
        <Stat label="Pending cancellations" value={overview.pendingCancellations} />
        {ACCESS_LEVELS.map((level) => (
          <Stat key={level} label={`${accessLabel(level)} members`} value={overview.members.byLevel[level]} />
        ))}
        <Stat label="Leads" value={overview.leads} />
        <Stat label="Newsletter confirmations" value={overview.newsletterConfirmed} />
        <Stat label="Failed emails" value={overview.failedEmails} />
      </dl>
      <section
        aria-label={`Sign-ups and cancellations, last ${overview.days} days`}
        className="rounded-2xl bg-white p-5 shadow-sm ring-1 ring-slate-200"
      >
        <h3 className="font-semibold text-slate-900">
          Last {overview.days} days: {sum(overview.signups)} sign-ups, {sum(overview.cancellations)} cancellations
        </h3>
        <div ref={chartRef} data-testid="overview-chart" className="mt-4 min-h-64" aria-hidden="true" />
      </section>
      <RevenuePanel />
    </div>
  );
}
