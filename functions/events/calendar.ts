/**
 * An event as an iCalendar file (RFC 5545), written by ical-generator: one VEVENT whose UID is stable
 * per event (`<slug>@<site host>`, so a second download or the mailed copy updates the same calendar
 * entry), DTSTAMP, DTSTART/DTEND in UTC, SUMMARY, URL (the event page), DESCRIPTION and LOCATION.
 * Never the join URL or the recording: those reach registered, entitled members through the events
 * API at request time, and the calendar entry links to the page where the join button opens.
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
    id: `${event.slug}@${new URL(siteUrl).hostname}`,
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
