/**
 * Event times: a start is written as a local date and time in an IANA time zone (what the organiser
 * means, "15:00 in London") and kept also as the UTC instant it names, which every comparison,
 * reminder and calendar file uses, so daylight-saving changes move nothing. The zone and time rules
 * themselves are every schedule's (`../time.ts`). Pure module.
 */

export const EVENT_FORMATS = ['online', 'in-person'] as const;
export type EventFormat = (typeof EVENT_FORMATS)[number];

export { canonicalTimeZone, isTimeZone, LocalDateTimeSchema, TimeZoneSchema, utcInstant } from '../time.ts';
