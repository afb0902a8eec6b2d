/** The calendar file, read back with a maintained iCalendar parser (ical.js). */
import ICAL from 'ical.js';
import { describe, expect, it } from 'vitest';
import type { EventItem } from '#shared/content/registry.ts';
import { utcInstant } from '#shared/events/time.ts';
import { eventCalendar } from './calendar.ts';

const SITE_URL = 'https://www.beacongrowth.co';
const JOIN = 'https://meet.example.com/secret-room-42';
const RECORDING = 'https://video.example.com/secret-recording-42';

function makeEvent(overrides: Partial<EventItem> = {}): EventItem {
  return {
    type: 'event',
    source: 'mdx',
    id: 'seo-clinic',
    slug: 'seo-clinic',
    title: 'Live SEO clinic, Q&A; bring your site',
    description: 'Send us your site, we audit it live.',
    tags: ['SEO'],
    accessLevel: 'premium',
    media: [],
    // The morning after London's clocks went back.
    startsAt: utcInstant('2026-10-25T09:00', 'Europe/London'),
    localStart: '2026-10-25T09:00',
    timeZone: 'Europe/London',
    durationMinutes: 90,
    host: 'Beacon Growth Team',
    format: 'online',
    joinUrl: JOIN,
    recordingUrl: RECORDING,
    capacity: 10,
    cancelled: false,
    content: 'The body.',
    contentFormat: 'markdown',
    ...overrides,
  } as EventItem;
}

function parse(ics: string) {
  const calendar = new ICAL.Component(ICAL.parse(ics));
  const events = calendar.getAllSubcomponents('vevent');
  return { calendar, events, event: events[0]! };
}

describe('the event calendar file (RFC 5545)', () => {
  const stamp = new Date('2026-10-01T12:00:00Z');

  it('holds one VEVENT with a stable UID, DTSTAMP, DTSTART/DTEND in UTC, SUMMARY and URL', () => {
    const ics = eventCalendar(makeEvent(), SITE_URL, stamp);
    const { calendar, events, event } = parse(ics);
    expect(calendar.getFirstPropertyValue('version')).toBe('2.0');
    expect(calendar.getFirstPropertyValue('prodid')).toEqual(expect.any(String));
    expect(events).toHaveLength(1);
    expect(event.getFirstPropertyValue('uid')).toBe('seo-clinic@www.beacongrowth.co');
    const start = event.getFirstPropertyValue('dtstart') as ICAL.Time;
    const end = event.getFirstPropertyValue('dtend') as ICAL.Time;
    expect(start.zone?.tzid).toBe('UTC');
    expect(end.zone?.tzid).toBe('UTC');
    expect(start.toJSDate().toISOString()).toBe('2026-10-25T09:00:00.000Z');
    expect(end.toJSDate().toISOString()).toBe('2026-10-25T10:30:00.000Z');
    expect((event.getFirstPropertyValue('dtstamp') as ICAL.Time).toJSDate().toISOString()).toBe(stamp.toISOString());
    expect(event.getFirstPropertyValue('summary')).toBe('Live SEO clinic, Q&A; bring your site');
    expect(event.getFirstPropertyValue('url')).toBe(`${SITE_URL}/events/seo-clinic`);
    expect(event.getFirstPropertyValue('status')).toBe('CONFIRMED');
    // Lines are CRLF-terminated, as the RFC requires.
    expect(ics).toMatch(/^BEGIN:VCALENDAR\r\n/);
  });

  it('keeps the UID when the file is made again, so calendars update one entry', () => {
    const again = parse(eventCalendar(makeEvent({ title: 'Renamed' }), SITE_URL, new Date())).event;
    expect(again.getFirstPropertyValue('uid')).toBe('seo-clinic@www.beacongrowth.co');
  });

  it('never carries the join URL or the recording', () => {
    const ics = eventCalendar(makeEvent(), SITE_URL, stamp);
    const unfolded = ics.replace(/\r\n[ \t]/g, '');
    expect(unfolded).not.toContain('secret-room-42');
    expect(unfolded).not.toContain('secret-recording-42');
    expect(parse(ics).event.getFirstPropertyValue('location')).toBe(`Online: ${SITE_URL}/events/seo-clinic`);
  });

  it('gives an in-person event its address and a cancelled one STATUS:CANCELLED', () => {
    const inPerson = parse(
      eventCalendar(makeEvent({ format: 'in-person', joinUrl: undefined, address: '1 Harbor St, Baltimore' }), SITE_URL, stamp),
    ).event;
    expect(inPerson.getFirstPropertyValue('location')).toBe('1 Harbor St, Baltimore');
    const cancelled = parse(eventCalendar(makeEvent({ cancelled: true }), SITE_URL, stamp)).event;
    expect(cancelled.getFirstPropertyValue('status')).toBe('CANCELLED');
  });
});
