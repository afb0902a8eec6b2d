/** "Add to calendar" links: Google Calendar and Outlook templates with public facts only. */
import { describe, expect, it } from 'vitest';
import { basicUtc, googleCalendarUrl, isoUtc, outlookCalendarUrl, type CalendarEvent } from './calendar.ts';

const WEBINAR: CalendarEvent = {
  title: 'AI Automation & You: Live',
  startsAt: '2027-02-18T16:00:00.000Z',
  durationMinutes: 90,
  pageUrl: 'https://beacongrowth.example/events/ai-automation-live-webinar',
  summary: 'A free one-hour session.',
};
const MEETUP: CalendarEvent = { ...WEBINAR, title: 'Meetup', address: '1400 Example Wharf, Baltimore, MD 21231' };

const params = (url: string) => new URL(url).searchParams;

describe('time formats', () => {
  it('writes basic ISO 8601 in UTC for Google and extended for Outlook, without milliseconds', () => {
    const instant = new Date('2027-03-28T01:30:00.000Z');
    expect(basicUtc(instant)).toBe('20270328T013000Z');
    expect(isoUtc(instant)).toBe('2027-03-28T01:30:00Z');
  });
});

describe('googleCalendarUrl', () => {
  it('is an event template with the UTC start and end', () => {
    const url = new URL(googleCalendarUrl(WEBINAR));
    expect(`${url.origin}${url.pathname}`).toBe('https://calendar.google.com/calendar/render');
    expect(params(url.href).get('action')).toBe('TEMPLATE');
    expect(params(url.href).get('dates')).toBe('20270218T160000Z/20270218T173000Z');
  });

  it('carries the title as written, and the page address in the details', () => {
    const p = params(googleCalendarUrl(WEBINAR));
    expect(p.get('text')).toBe('AI Automation & You: Live');
    expect(p.get('details')).toBe(`A free one-hour session.\n\n${WEBINAR.pageUrl}`);
  });

  it('puts an online event at its page and an in-person one at its address', () => {
    expect(params(googleCalendarUrl(WEBINAR)).get('location')).toBe(WEBINAR.pageUrl);
    expect(params(googleCalendarUrl(MEETUP)).get('location')).toBe(MEETUP.address);
  });

  it('encodes every value, so no text adds or changes a parameter', () => {
    const url = googleCalendarUrl({ ...WEBINAR, title: 'A&B=C #1?' });
    expect(params(url).get('text')).toBe('A&B=C #1?');
    expect([...params(url).keys()].sort()).toEqual(['action', 'dates', 'details', 'location', 'text']);
  });
});

describe('outlookCalendarUrl', () => {
  it('is an Outlook compose link with ISO start and end in UTC', () => {
    const url = new URL(outlookCalendarUrl(WEBINAR));
    expect(`${url.origin}${url.pathname}`).toBe('https://outlook.live.com/calendar/0/deeplink/compose');
    const p = url.searchParams;
    expect(p.get('path')).toBe('/calendar/action/compose');
    expect(p.get('rru')).toBe('addevent');
    expect(p.get('startdt')).toBe('2027-02-18T16:00:00Z');
    expect(p.get('enddt')).toBe('2027-02-18T17:30:00Z');
  });

  it('carries the title, the details with the page address, and the place', () => {
    const p = params(outlookCalendarUrl(MEETUP));
    expect(p.get('subject')).toBe('Meetup');
    expect(p.get('body')).toContain(MEETUP.pageUrl);
    expect(p.get('location')).toBe(MEETUP.address);
  });

  it('ends at the duration after the start even across a daylight-saving change (times are UTC)', () => {
    const p = params(outlookCalendarUrl({ ...WEBINAR, startsAt: '2027-10-31T00:30:00.000Z', durationMinutes: 120 }));
    expect([p.get('startdt'), p.get('enddt')]).toEqual(['2027-10-31T00:30:00Z', '2027-10-31T02:30:00Z']);
  });
});

describe('what the links can carry', () => {
  it('has no place for a join URL: only the public facts of the event go in', () => {
    const withJoin = { ...WEBINAR, joinUrl: 'https://meet.example/SECRET' } as CalendarEvent;
    for (const url of [googleCalendarUrl(withJoin), outlookCalendarUrl(withJoin)]) expect(url).not.toContain('SECRET');
  });
});
