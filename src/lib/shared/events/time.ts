/**
 * Event times: a start is written as a local date and time in an IANA time zone (what the organiser
 * means, "15:00 in London") and kept also as the UTC instant it names, which every comparison,
 * reminder and calendar file uses, so daylight-saving changes move nothing. Pure module.
 */
import { TZDate } from '@date-fns/tz';
import { z } from 'zod';

export const EVENT_FORMATS = ['online', 'in-person'] as const;
export type EventFormat = (typeof EVENT_FORMATS)[number];

/** A wall-clock start, YYYY-MM-DDTHH:mm, years 2000-2100. */
export const LocalDateTimeSchema = z
  .string()
  .regex(/^(20\d\d|2100)-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])T([01]\d|2[0-3]):[0-5]\d$/, 'Use a date and time such as 2026-12-10T15:00')
  .refine((s) => !Number.isNaN(Date.parse(`${s}:00Z`)) && new Date(`${s}:00Z`).toISOString().startsWith(s), 'No such date');

/** Whether the runtime knows an IANA zone name. */
export function isTimeZone(zone: string): boolean {
  if (zone.length > 64 || !/^[A-Za-z_]+(\/[A-Za-z0-9_+-]+)*$/.test(zone)) return false;
  try {
    new Intl.DateTimeFormat('en', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}

export const TimeZoneSchema = z.string().refine(isTimeZone, 'Use an IANA time zone such as Europe/London');

/**
 * The UTC instant (ISO 8601, Z) of a wall-clock time in a zone. A time skipped by a daylight-saving
 * change (02:30 on the spring-forward night) moves forward by the gap, as calendars do.
 */
export function utcInstant(local: string, zone: string): string {
  const [date, time] = local.split('T') as [string, string];
  const [y, m, d] = date.split('-').map(Number) as [number, number, number];
  const [hh, mm] = time.split(':').map(Number) as [number, number];
  return new Date(new TZDate(y, m - 1, d, hh, mm, 0, zone).getTime()).toISOString();
}

/** The end instant of an event. */
export function endInstant(startsAt: string, durationMinutes: number): string {
  return new Date(Date.parse(startsAt) + durationMinutes * 60_000).toISOString();
}
