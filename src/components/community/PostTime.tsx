/**
 * When something was posted, in the reader's terms: "5 minutes ago" within a week and the date in
 * their own zone after that, with the exact time in the tooltip. A page that tells when the server
 * rendered it (`RenderedAt`, the thread page) gets the same words from the server, as of that moment,
 * and the first client render repeats them (so hydration matches); the browser then says them as of
 * now, which changes a minute at most, so the line they sit on keeps its length and nothing below it
 * moves. Without that moment the server says the day in UTC ("November 25, 2026"). Intl only: no
 * date library in the islands for this.
 */
import { createContext, useContext } from 'react';
import { useHydrated } from '../content/gated/use-viewer.ts';

const UTC_DAY = new Intl.DateTimeFormat('en-US', { dateStyle: 'long', timeZone: 'UTC' });

/** When the server rendered the page (ms since the epoch), for the words it says; undefined: it says the day. */
export const RenderedAt = createContext<number | undefined>(undefined);
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
  const renderedAt = useContext(RenderedAt);
  const date = new Date(at);
  if (Number.isNaN(date.getTime())) return null;
  const ago = hydrated ? relativeTime(at) : renderedAt === undefined ? undefined : relativeTime(at, renderedAt);
  const text = ago ?? (hydrated ? date.toLocaleDateString('en-US', { dateStyle: 'long' }) : UTC_DAY.format(date));
  return (
    <time dateTime={at} title={hydrated ? date.toLocaleString('en-US', { dateStyle: 'long', timeStyle: 'short' }) : undefined}>
      {prefix}
      {text}
    </time>
  );
}
