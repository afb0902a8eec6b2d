import { describe, expect, it } from 'vitest';
import { utcInstant } from '#shared/time.ts';
import type { IssueStats } from './newsletter-api.ts';
import {
  accountingText,
  audienceText,
  defaultSendAt,
  isMoving,
  localInputValue,
  statusChanges,
  whenText,
  zonedTime,
} from './newsletter-format.ts';

describe('times in the editor zone', () => {
  it('reads an instant on the wall clock of the zone, on both sides of a daylight-saving change', () => {
    // New York moves from EST (UTC-5) to EDT (UTC-4) on 8 March 2026.
    expect(zonedTime('2026-03-07T14:00:00.000Z', 'America/New_York')).toBe('March 7, 2026, 09:00');
    expect(zonedTime('2026-03-09T13:00:00.000Z', 'America/New_York')).toBe('March 9, 2026, 09:00');
    expect(zonedTime('2026-03-09T13:00:00.000Z', 'Asia/Tokyo')).toBe('March 9, 2026, 22:00');
  });

  it('gives the schedule input back the wall-clock time the editor picked', () => {
    for (const [local, zone] of [
      ['2026-03-29T09:30', 'Europe/Paris'],
      ['2026-10-25T01:15', 'Europe/London'],
      ['2026-07-01T23:45', 'Pacific/Auckland'],
    ] as const)
      expect(localInputValue(utcInstant(local, zone), zone)).toBe(local);
  });

  it('offers the start of the hour after next as the first schedule time', () => {
    expect(defaultSendAt(new Date('2026-06-01T10:20:00Z'), 'Europe/Berlin')).toBe('2026-06-01T14:00');
    expect(defaultSendAt(new Date('2026-12-31T22:59:00Z'), 'UTC')).toBe('2027-01-01T00:00');
  });

  it('says when a scheduled issue goes out in the editor zone, naming it and the zone it was scheduled in', () => {
    const issue = { status: 'scheduled' as const, sendAt: '2026-05-04T07:00:00.000Z', timeZone: 'Europe/London', sentAt: null };
    expect(whenText(issue, 'Europe/London')).toBe('Scheduled for May 4, 2026, 08:00 (Europe/London)');
    expect(whenText(issue, 'America/Chicago')).toBe('Scheduled for May 4, 2026, 02:00 (America/Chicago; scheduled in Europe/London)');
    expect(whenText({ ...issue, status: 'draft' }, 'UTC')).toBe('');
    expect(whenText({ ...issue, status: 'sent', sentAt: '2026-05-04T07:00:05.000Z' }, 'UTC')).toBe('Sent May 4, 2026, 07:00 (UTC)');
  });
});

describe('issue summaries', () => {
  it('names the audience in the form order', () => {
    expect(audienceText(['premium', 'newsletter'])).toBe('Newsletter subscribers and Premium members');
    expect(audienceText(['subscriber', 'free', 'premium'])).toBe('Free members, Subscribers and Premium members');
    expect(audienceText(['free'])).toBe('Free members');
  });

  it('accounts for every recipient', () => {
    const stats: IssueStats = { recipients: 10, sent: 6, failed: 1, suppressed: 2, pending: 1, bounced: 1, unsubscribed: 0 };
    expect(accountingText(stats)).toBe('6 sent / 1 failed / 2 suppressed / 1 pending of 10 recipients');
  });
});

describe('reading the list again', () => {
  const now = Date.parse('2026-06-01T12:00:00Z');
  const issue = (status: 'draft' | 'scheduled' | 'sending' | 'sent', sendAt: string | null = null) => ({
    id: status,
    subject: 'June',
    status,
    sendAt,
  });

  it('watches while an issue sends, or a scheduled one has just fallen due, and not otherwise', () => {
    expect(isMoving([issue('sent'), issue('sending')], now)).toBe(true);
    expect(isMoving([issue('scheduled', '2026-06-01T12:00:02Z')], now)).toBe(true);
    expect(isMoving([issue('scheduled', '2026-06-01T11:58:00Z')], now)).toBe(true);
    expect(isMoving([issue('scheduled', '2026-06-01T13:00:00Z'), issue('draft'), issue('sent')], now)).toBe(false);
    // Long overdue: no worker is sending; the list stops asking.
    expect(isMoving([issue('scheduled', '2026-06-01T11:00:00Z')], now)).toBe(false);
  });

  it('announces the issues whose status changed', () => {
    const before = [
      { ...issue('sending'), id: 'a' },
      { ...issue('draft'), id: 'b', subject: 'July' },
    ];
    const after = [
      { ...issue('sent'), id: 'a' },
      { ...issue('draft'), id: 'b', subject: 'July' },
      { ...issue('sending'), id: 'c' },
    ];
    expect(statusChanges(before, after)).toBe('“June” is now Sent.');
    expect(statusChanges(after, after)).toBe('');
  });
});
