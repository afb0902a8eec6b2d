/** The calendar file, read back with a maintained iCalendar parser (ical.js). */
import ICAL from 'ical.js';
import { describe, expect, it } from 'vitest';
import type { EventItem } from '#shared/content/registry.ts';
import { utcInstant } from '#shared/events/time.ts';
import { calendarSequence, eventCalendar } from './calendar.ts';

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
    expect(calendar.getFirstPropertyValue('method')).toBe('PUBLISH');
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

  it("names a database event by its row's id, which a new slug does not change", () => {
    const id = '0b9e4f5e-8d2a-4c55-9d53-6b1f7c2a9e10';
    const renamed = parse(eventCalendar(makeEvent({ source: 'db', id, slug: 'renamed-clinic' }), SITE_URL, stamp)).event;
    expect(renamed.getFirstPropertyValue('uid')).toBe(`${id}@www.beacongrowth.co`);
  });

  it('has SEQUENCE 0 until the creator tools revise the event, then a larger one for each later revision', () => {
    expect(parse(eventCalendar(makeEvent(), SITE_URL, stamp)).event.getFirstPropertyValue('sequence')).toBe(0);
    const first = makeEvent({ source: 'db', revisedAt: '2026-11-20T10:00:00.000Z' });
    const moved = makeEvent({ source: 'db', revisedAt: '2026-11-20T10:00:01.000Z', startsAt: '2026-10-26T09:00:00.000Z' });
    const [a, b] = [first, moved].map((e) => Number(parse(eventCalendar(e, SITE_URL, stamp)).event.getFirstPropertyValue('sequence')));
    expect(a).toBe(calendarSequence(first));
    expect(a).toBeGreaterThan(0);
    expect(b).toBeGreaterThan(a!);
    // An iCalendar INTEGER is 32-bit: still so for a revision in 2090.
    expect(calendarSequence({ revisedAt: '2090-12-31T23:59:59.000Z' })).toBeLessThan(2 ** 31);
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
