/**
 * The first-response target of a support request: a number of business days (Monday-Friday in
 * SUPPORT_TIME_ZONE; public holidays are not counted out) after it was opened. A request opened on a
 * business day is due at the same wall-clock time that many business days later (Friday 15:00 + 1 is
 * Monday 15:00); one opened at a weekend starts the clock at Monday 00:00, so + 1 is Tuesday 00:00,
 * the end of Monday. Wall-clock arithmetic in the zone, so a daylight-saving change in between moves
 * the instant by the hour the clocks moved. Server side (the target is stored when a request opens).
 */
import { TZDate } from '@date-fns/tz';
import { addBusinessDays } from 'date-fns/addBusinessDays';
import { isWeekend } from 'date-fns/isWeekend';
import { nextMonday } from 'date-fns/nextMonday';
import { startOfDay } from 'date-fns/startOfDay';
import type { AccessLevel } from '../access.ts';
import { FIRST_RESPONSE_BUSINESS_DAYS, SUPPORT_TIME_ZONE } from './targets.ts';

/** `days` business days after `from`, counted in `zone`. */
export function addSupportDays(from: Date, days: number, zone: string = SUPPORT_TIME_ZONE): Date {
  let start = new TZDate(from.getTime(), zone);
  if (isWeekend(start)) start = startOfDay(nextMonday(start));
  return new Date(addBusinessDays(start, days).getTime());
}

/** When staff should have answered a request opened at `openedAt` by a member at `level`. */
export function respondByFor(openedAt: Date, level: AccessLevel, zone: string = SUPPORT_TIME_ZONE): Date {
  return addSupportDays(openedAt, FIRST_RESPONSE_BUSINESS_DAYS[level], zone);
}
