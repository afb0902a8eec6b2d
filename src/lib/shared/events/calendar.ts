/**
 * "Add to calendar" links for an event page: Google Calendar and Outlook (outlook.live.com) event
 * templates. They carry only public facts: the title, the times, the page's address in the details,
 * and the place (the address in person, else the page). Never the join URL, which reaches only
 * registered members through the events API. The .ics file is served by the events API
 * (`/events/{slug}.ics`). Pure module.
 */
import { endsAt } from './schedule.ts';

export interface CalendarEvent {
  title: string;
  /** UTC instant, ISO 8601. */
  startsAt: string;
  durationMinutes: number;
  /** The event page's absolute URL. */
  pageUrl: string;
  /** A line or two about the event (its summary). */
  summary?: string | undefined;
  /** In-person events: where. */
  address?: string | undefined;
}

/** 2027-02-18T16:00:00.000Z → 20270218T160000Z (Google's `dates=`, basic ISO 8601 in UTC). */
export function basicUtc(instant: Date): string {
  return instant
    .toISOString()
    .replace(/\.\d{3}Z$/, 'Z')
    .replace(/[-:]/g, '');
}

/** 2027-02-18T16:00:00Z (Outlook's `startdt` and `enddt`). */
export function isoUtc(instant: Date): string {
  return instant.toISOString().replace(/\.\d{3}Z$/, 'Z');
}

const details = (e: CalendarEvent) => [e.summary, e.pageUrl].filter(Boolean).join('\n\n');
const location = (e: CalendarEvent) => e.address || e.pageUrl;
const query = (params: Record<string, string>) =>
  Object.entries(params)
    .map(([k, v]) => `${k}=${encodeURIComponent(v)}`)
    .join('&');

/** A Google Calendar event template. */
export function googleCalendarUrl(e: CalendarEvent): string {
  return `https://calendar.google.com/calendar/render?${query({
    action: 'TEMPLATE',
    text: e.title,
    dates: `${basicUtc(new Date(e.startsAt))}/${basicUtc(endsAt(e))}`,
    details: details(e),
    location: location(e),
  })}`;
}

/** An Outlook (outlook.live.com) event template. */
export function outlookCalendarUrl(e: CalendarEvent): string {
  return `https://outlook.live.com/calendar/0/deeplink/compose?${query({
    path: '/calendar/action/compose',
    rru: 'addevent',
    subject: e.title,
    startdt: isoUtc(new Date(e.startsAt)),
    enddt: isoUtc(endsAt(e)),
    body: details(e),
    location: location(e),
  })}`;
}
