/**
 * Wall-clock times in IANA time zones, for anything a person schedules (an event's start, a
 * newsletter issue's send time): the local date and time as written, the zone by name, and the UTC
 * instant they name, which every comparison uses, so daylight-saving changes move nothing. Pure module.
 */
import { tzOffset } from '@date-fns/tz';
import { z } from 'zod';

/** A wall-clock time, YYYY-MM-DDTHH:mm, years 2000-2100. */
export const LocalDateTimeSchema = z
  .string()
  .regex(/^(20\d\d|2100)-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])T([01]\d|2[0-3]):[0-5]\d$/, 'Use a date and time such as 2026-12-10T15:00')
  .refine((s) => !Number.isNaN(Date.parse(`${s}:00Z`)) && new Date(`${s}:00Z`).toISOString().startsWith(s), 'No such date');

/**
 * A zone name's shape: IANA names and links (Europe/London, America/Argentina/Buenos_Aires, Etc/GMT+5,
 * EST5EDT), starting with a letter; no spaces, control characters, dots or colons, so neither a path
 * nor an offset such as +05:00 (which Intl would take) passes. Intl decides whether the zone exists.
 */
const ZONE_NAME = /^[A-Za-z][A-Za-z0-9_+-]*(\/[A-Za-z0-9_+-]+)*$/;

/** Whether the runtime knows an IANA zone name. */
export function isTimeZone(zone: string): boolean {
  if (zone.length > 64 || !ZONE_NAME.test(zone)) return false;
  try {
    new Intl.DateTimeFormat('en', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}

/**
 * The name Intl resolves a known zone to (europe/london → Europe/London, US/Eastern →
 * America/New_York), so one zone is stored and shown one way whichever alias was written.
 */
export function canonicalTimeZone(zone: string): string {
  return new Intl.DateTimeFormat('en', { timeZone: zone }).resolvedOptions().timeZone;
}

/** An IANA time zone, kept under the name Intl resolves it to. */
export const TimeZoneSchema = z.string().refine(isTimeZone, 'Use an IANA time zone such as Europe/London').transform(canonicalTimeZone);

const DAY = 86_400_000;

/**
 * The UTC instant (ISO 8601, Z) of a wall-clock time in a zone, read as RFC 5545 reads a DATE-TIME
 * with a TZID, so the instant we keep is the one every calendar shows: a time skipped by a
 * daylight-saving change (02:30 on the spring-forward night) takes the offset from before the gap
 * (it moves forward by the gap: 03:30); a time that occurs twice (01:30 on the fall-back night) is
 * the first occurrence. (TZDate alone picks either occurrence depending on the zone.)
 */
export function utcInstant(local: string, zone: string): string {
  const [date, time] = local.split('T') as [string, string];
  const [y, m, d] = date.split('-').map(Number) as [number, number, number];
  const [hh, mm] = time.split(':').map(Number) as [number, number];
  const wall = Date.UTC(y, m - 1, d, hh, mm);
  // The offsets in force around that day: a change within it is covered from both sides.
  const before = tzOffset(zone, new Date(wall - DAY));
  const offsets = new Set([before, tzOffset(zone, new Date(wall)), tzOffset(zone, new Date(wall + DAY))]);
  const occurrences = [...offsets]
    .map((offset) => wall - offset * 60_000)
    .filter((instant) => instant + tzOffset(zone, new Date(instant)) * 60_000 === wall)
    .sort((a, b) => a - b);
  return new Date(occurrences[0] ?? wall - before * 60_000).toISOString();
}
