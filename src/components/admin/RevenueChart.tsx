/**
 * One chart of the overview's Revenue section, drawn by hand as inline SVG (a few rects and
 * polylines; no chart library for a dozen points a series): bars (stacked, positive values above
 * zero and negative ones below) or lines, one colour a series with a legend, a zero line and three
 * gridlines. The SVG is a picture only (aria-hidden); every chart carries its numbers as a real
 * table behind "Show as table", for screen readers and for reading exact figures.
 */
import { useId } from 'react';

export interface ChartSeries {
  label: string;
  color: string;
  /** One value per month; null: no figure (a rate without a base). */
  values: (number | null)[];
}

interface ChartProps {
  title: string;
  months: string[];
  series: ChartSeries[];
  kind: 'bars' | 'lines';
  /** How a value reads in the axis and the table (cents as dollars, basis points as percent). */
  format: (value: number) => string;
}

const WIDTH = 640;
const HEIGHT = 200;
const PAD = { left: 64, right: 8, top: 8, bottom: 24 };

/** "Mar 31" for 2031-03. */
const monthLabel = (month: string) =>
  new Date(`${month}-01T00:00:00Z`).toLocaleDateString('en-US', { month: 'short', year: '2-digit', timeZone: 'UTC' });

/** The lowest and highest values to show: stacked sums for bars, every point for lines, zero always. */
function extent(series: ChartSeries[], kind: ChartProps['kind'], n: number): [number, number] {
  let low = 0;
  let high = 0;
  for (let i = 0; i < n; i++) {
    const values = series.map((s) => s.values[i] ?? 0);
    if (kind === 'bars') {
      high = Math.max(
        high,
        values.filter((v) => v > 0).reduce((a, b) => a + b, 0),
      );
      low = Math.min(
        low,
        values.filter((v) => v < 0).reduce((a, b) => a + b, 0),
      );
    } else for (const v of values) [low, high] = [Math.min(low, v), Math.max(high, v)];
  }
  return high === low ? [low, low + 1] : [low, high];
}

export function RevenueChart({ title, months, series, kind, format }: ChartProps) {
  const id = useId();
  const n = months.length;
  const [low, high] = extent(series, kind, n);
  const plotW = WIDTH - PAD.left - PAD.right;
  const plotH = HEIGHT - PAD.top - PAD.bottom;
  const y = (v: number) => PAD.top + ((high - v) / (high - low)) * plotH;
  const slot = plotW / Math.max(n, 1);
  const x = (i: number) => PAD.left + slot * (i + 0.5);
  const grid = [0, 1, 2, 3].map((k) => low + ((high - low) * k) / 3);
  const every = Math.ceil(n / 12);
  const scale: Scale = { x, y, slot };

  return (
    <figure className="rounded-2xl bg-white p-5 shadow-sm ring-1 ring-slate-200" aria-labelledby={`${id}-title`}>
      <figcaption id={`${id}-title`} className="font-semibold text-slate-900">
        {title}
      </figcaption>
      <Legend series={series} />
      <svg viewBox={`0 0 ${WIDTH} ${HEIGHT}`} className="mt-2 h-auto w-full" aria-hidden="true" data-testid="revenue-chart">
        {grid.map((v) => (
          <g key={v}>
            <line x1={PAD.left} x2={WIDTH - PAD.right} y1={y(v)} y2={y(v)} stroke="#e2e8f0" />
            <text x={PAD.left - 6} y={y(v) + 4} textAnchor="end" fontSize="11" fill="#64748b">
              {format(Math.round(v))}
            </text>
          </g>
        ))}
        <line x1={PAD.left} x2={WIDTH - PAD.right} y1={y(0)} y2={y(0)} stroke="#94a3b8" />
        {months.map((m, i) =>
          i % every === 0 ? (
            <text key={m} x={x(i)} y={HEIGHT - 6} textAnchor="middle" fontSize="11" fill="#64748b">
              {monthLabel(m)}
            </text>
          ) : null,
        )}
        {kind === 'bars' ? <Bars months={months} series={series} scale={scale} /> : <Lines months={months} series={series} scale={scale} />}
      </svg>
      <details className="mt-2 text-sm">
        <summary className="cursor-pointer text-brand-700">Show as table</summary>
        <ChartTable title={title} months={months} series={series} format={format} />
      </details>
    </figure>
  );
}

/** Where a month and a value sit in the SVG, and each month's width. */
type Scale = { x: (i: number) => number; y: (v: number) => number; slot: number };
type PlotProps = { months: string[]; series: ChartSeries[]; scale: Scale };

/** One colour a series, with its label. */
function Legend({ series }: { series: ChartSeries[] }) {
  return (
    <ul className="mt-2 flex flex-wrap gap-x-4 gap-y-1 text-xs text-slate-600" aria-hidden="true">
      {series.map((s) => (
        <li key={s.label} className="flex items-center gap-1.5">
          <span className="inline-block h-2.5 w-2.5 rounded-sm" style={{ background: s.color }} />
          {s.label}
        </li>
      ))}
    </ul>
  );
}

/** Stacked bars a month: positive values up from zero, negative ones down. */
function Bars({ months, series, scale: { x, y, slot } }: PlotProps) {
  return (
    <>
      {months.map((m, i) => {
        let up = 0;
        let down = 0;
        return (
          <g key={m}>
            {series.map((s) => {
              const v = s.values[i] ?? 0;
              if (v === 0) return null;
              const from = v > 0 ? up : down;
              const to = from + v;
              if (v > 0) up = to;
              else down = to;
              return (
                <rect
                  key={s.label}
                  x={x(i) - slot * 0.3}
                  width={slot * 0.6}
                  y={y(Math.max(from, to))}
                  height={Math.abs(y(from) - y(to))}
                  fill={s.color}
                />
              );
            })}
          </g>
        );
      })}
    </>
  );
}

/** A line a series, with a dot at each value (none where there is no figure). */
function Lines({ months, series, scale: { x, y } }: PlotProps) {
  return (
    <>
      {series.map((s) => (
        <g key={s.label}>
          <polyline
            fill="none"
            stroke={s.color}
            strokeWidth="2"
            points={s.values.flatMap((v, i) => (v === null ? [] : [`${x(i)},${y(v)}`])).join(' ')}
          />
          {s.values.map((v, i) => (v === null ? null : <circle key={months[i]} cx={x(i)} cy={y(v)} r="2.5" fill={s.color} />))}
        </g>
      ))}
    </>
  );
}

/** The chart's numbers as a table: a row a month, a column a series. */
function ChartTable({ title, months, series, format }: Omit<ChartProps, 'kind'>) {
  return (
    <table className="mt-2 w-full text-left">
      <caption className="sr-only">{title}</caption>
      <thead className="text-slate-600">
        <tr>
          <th scope="col" className="py-1 pr-3 font-medium">
            Month
          </th>
          {series.map((s) => (
            <th key={s.label} scope="col" className="py-1 pr-3 text-right font-medium">
              {s.label}
            </th>
          ))}
        </tr>
      </thead>
      <tbody>
        {months.map((m, i) => (
          <tr key={m} className="border-t border-slate-100">
            <th scope="row" className="py-1 pr-3 font-normal">
              {m}
            </th>
            {series.map((s) => (
              <td key={s.label} className="py-1 pr-3 text-right tabular-nums">
                {s.values[i] === null || s.values[i] === undefined ? '—' : format(s.values[i])}
              </td>
            ))}
          </tr>
        ))}
      </tbody>
    </table>
  );
}
