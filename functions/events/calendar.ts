/**
 * An event as an iCalendar file (RFC 5545), written by ical-generator: one VEVENT whose UID is stable
 * per event (`<item id>@<site host>`, so a second download, the mailed copy and a new slug update the
 * same calendar entry), SEQUENCE (the revision, so a moved event's new copy replaces the old one),
 * DTSTAMP, DTSTART/DTEND in UTC, SUMMARY, URL (the event page), DESCRIPTION and LOCATION; METHOD is
 * always PUBLISH. Never the join URL or the recording: those reach registered, entitled members
 * through the events API at request time, and the calendar entry links to the page where the join
 * button opens.
 */
import ical, { ICalCalendarMethod, ICalEventStatus } from 'ical-generator';
import type { EventItem } from '#shared/content/registry.ts';
import { endsAt } from '#shared/events/schedule.ts';
import { SITE } from '#shared/site.ts';

/** The event page's address. */
export function eventUrl(siteUrl: string, slug: string): string {
  return `${siteUrl}/events/${slug}`;
}

/** The calendar file's name, e.g. `seo-clinic.ics`. */
export const calendarFilename = (slug: string) => `${slug}.ics`;

const REVISIONS_FROM = Date.UTC(2026, 0, 1);

/**
 * The calendar file's SEQUENCE: the seconds from 2026 to the event's last write in the creator tools
 * (0 for an MDX event, which the creator tools never write), so every revision outranks the copies
 * sent before it (RFC 5545 3.8.7.4 asks only that it grow) and fits the 32-bit INTEGER until 2094.
 */
export function calendarSequence(event: Pick<EventItem, 'revisedAt'>): number {
  return event.revisedAt ? Math.max(0, Math.floor((Date.parse(event.revisedAt) - REVISIONS_FROM) / 1000)) : 0;
}

/** The event's calendar file; `now` is its DTSTAMP. */
export function eventCalendar(event: EventItem, siteUrl: string, now: Date = new Date()): string {
  const url = eventUrl(siteUrl, event.slug);
  const place = event.format === 'in-person' && event.address ? event.address : `Online: ${url}`;
  const joining =
    event.format === 'online' ? `The join link opens on the event page 15 minutes before the start: ${url}` : `Event page: ${url}`;
  const calendar = ical({
    prodId: { company: SITE.name, product: 'Events', language: 'EN' },
    method: ICalCalendarMethod.PUBLISH,
  });
  calendar.createEvent({
    id: `${event.id}@${new URL(siteUrl).hostname}`,
    sequence: calendarSequence(event),
    stamp: now,
    start: new Date(event.startsAt),
    end: endsAt(event),
    summary: event.cancelled ? `Cancelled: ${event.title}` : event.title,
    description: `${event.description}\n\nHosted by ${event.host}.\n${joining}`,
    location: place,
    url,
    status: event.cancelled ? ICalEventStatus.CANCELLED : ICalEventStatus.CONFIRMED,
  });
  return calendar.toString();
}
