/**
 * When something was posted: the server renders the day in UTC ("November 25, 2026"), which the
 * first client render repeats (so hydration matches); then the browser says it in the reader's
 * terms, "5 minutes ago" within a week and the date in their own zone after that, with the exact
 * time in the tooltip. Intl only: no date library in the islands for this.
 */
import { useHydrated } from '../content/gated/use-viewer.ts';

const UTC_DAY = new Intl.DateTimeFormat('en-US', { dateStyle: 'long', timeZone: 'UTC' });
const UNITS: [Intl.RelativeTimeFormatUnit, number][] = [
  ['day', 86_400_000],
  ['hour', 3_600_000],
  ['minute', 60_000],
];

/** "just now", "5 minutes ago", "yesterday", up to 7 days; undefined beyond that. */
export function relativeTime(iso: string, now = Date.now()): string | undefined {
  const elapsed = now - Date.parse(iso);
  if (!(elapsed < 7 * 86_400_000)) return undefined;
  if (elapsed < 60_000) return 'just now';
  const rtf = new Intl.RelativeTimeFormat('en', { numeric: 'auto' });
  for (const [unit, ms] of UNITS) if (elapsed >= ms) return rtf.format(-Math.floor(elapsed / ms), unit);
  return undefined;
}

export function PostTime({ at, prefix }: { at: string; prefix?: string }) {
  const hydrated = useHydrated();
  const date = new Date(at);
  if (Number.isNaN(date.getTime())) return null;
  const text = hydrated ? (relativeTime(at) ?? date.toLocaleDateString('en-US', { dateStyle: 'long' })) : UTC_DAY.format(date);
  return (
    <time dateTime={at} title={hydrated ? date.toLocaleString('en-US', { dateStyle: 'long', timeStyle: 'short' }) : undefined}>
      {prefix}
      {text}
    </time>
  );
}
