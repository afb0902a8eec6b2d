/**
 * The overview's chart: sign-ups and cancellations per day, drawn with uPlot (small, canvas, no
 * dependencies). Imported on demand by OverviewPanel, so the library loads only on /admin, and only
 * when the overview is shown.
 */
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';

export interface DailySeries {
  signups: { date: string; count: number }[];
  cancellations: { date: string; count: number }[];
}

/** Draws the chart into `target` at its width; answers a function that removes it. */
export function drawDailyChart(target: HTMLElement, data: DailySeries): () => void {
  const xs = data.signups.map((d) => Date.parse(`${d.date}T00:00:00Z`) / 1000);
  const chart = new uPlot(
    {
      width: Math.max(320, target.clientWidth),
      height: 260,
      scales: { x: { time: true } },
      axes: [{}, { label: 'Members per day' }],
      series: [{}, { label: 'Sign-ups', stroke: '#2563eb', width: 2 }, { label: 'Cancellations', stroke: '#dc2626', width: 2 }],
    },
    [xs, data.signups.map((d) => d.count), data.cancellations.map((d) => d.count)],
    target,
  );
  return () => chart.destroy();
}
