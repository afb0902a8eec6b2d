/** First-response targets in business days (Monday-Friday in New York), and the queue's countdown. */
import { describe, expect, it } from 'vitest';
import { REQUEST_STATUSES as TABLE_STATUSES } from '../../../../functions/support/tables.ts';
import { addSupportDays, respondByFor } from './business-days.ts';
import { countdown, REQUEST_STATUSES, responseTargetText } from './targets.ts';

// Instants in UTC; New York is UTC-5 in winter (EST) and UTC-4 in summer (EDT).
const at = (iso: string) => new Date(iso);

describe('first-response targets in business days', () => {
  it.each([
    ['Monday 10:00', '2026-11-23T15:00:00Z', 1, '2026-11-24T15:00:00Z'],
    ['Thursday 10:00', '2026-11-26T15:00:00Z', 1, '2026-11-27T15:00:00Z'],
    ['Friday 15:00, over the weekend', '2026-11-27T20:00:00Z', 1, '2026-11-30T20:00:00Z'],
    ['Friday 15:00, three days', '2026-11-27T20:00:00Z', 3, '2026-12-02T20:00:00Z'],
    ['Wednesday 09:00, three days across a weekend', '2026-11-25T14:00:00Z', 3, '2026-11-30T14:00:00Z'],
    ['Saturday 11:00: the clock starts Monday 00:00', '2026-11-28T16:00:00Z', 1, '2026-12-01T05:00:00Z'],
    ['Sunday 23:30: the clock starts Monday 00:00', '2026-11-30T04:30:00Z', 3, '2026-12-03T05:00:00Z'],
    // Friday 23:30 in New York is already Saturday in UTC: the zone decides, not UTC.
    ['Friday 23:30 New York (Saturday in UTC)', '2026-11-28T04:30:00Z', 1, '2026-12-01T04:30:00Z'],
  ])('%s', (_label, opened, days, due) => {
    expect(addSupportDays(at(opened), days).toISOString()).toBe(at(due).toISOString());
  });

  it('keeps the wall-clock time across a daylight-saving change', () => {
    // Friday 6 March 2026 15:00 EST; clocks go forward on Sunday 8 March: Monday 15:00 EDT is 19:00 UTC.
    expect(addSupportDays(at('2026-03-06T20:00:00Z'), 1).toISOString()).toBe('2026-03-09T19:00:00.000Z');
    // Friday 30 October 2026 15:00 EDT; clocks go back on Sunday 1 November: Monday 15:00 EST is 20:00 UTC.
    expect(addSupportDays(at('2026-10-30T19:00:00Z'), 1).toISOString()).toBe('2026-11-02T20:00:00.000Z');
  });

  it('gives premium requests 1 business day and the other levels 3', () => {
    const friday = at('2026-11-27T20:00:00Z');
    expect(respondByFor(friday, 'premium').toISOString()).toBe('2026-11-30T20:00:00.000Z');
    expect(respondByFor(friday, 'subscriber').toISOString()).toBe('2026-12-02T20:00:00.000Z');
    expect(respondByFor(friday, 'free').toISOString()).toBe('2026-12-02T20:00:00.000Z');
  });

  it('counts in the zone it is given', () => {
    // Friday 20:00 in London is Friday 15:00 in New York, but for London the request came on Friday evening.
    expect(addSupportDays(at('2026-11-27T20:00:00Z'), 1, 'Europe/London').toISOString()).toBe('2026-11-30T20:00:00.000Z');
    // Saturday 02:00 in London (Friday 21:00 in New York): London's clock starts on Monday.
    expect(addSupportDays(at('2026-11-28T02:00:00Z'), 1, 'Europe/London').toISOString()).toBe('2026-12-01T00:00:00.000Z');
    expect(addSupportDays(at('2026-11-28T02:00:00Z'), 1).toISOString()).toBe('2026-12-01T02:00:00.000Z');
  });
});

describe('the promise and the countdown', () => {
  it('words the target per level', () => {
    expect(responseTargetText('premium')).toBe('Priority support: first response within 1 business day');
    expect(responseTargetText('subscriber')).toBe('Support: first response within 3 business days');
    expect(responseTargetText('free')).toBe('Support: first response within 3 business days');
  });

  it('counts down in the two largest units, and up once overdue', () => {
    const now = at('2026-11-27T12:00:00Z');
    expect(countdown('2026-11-28T16:35:00Z', now)).toEqual({ overdue: false, text: 'Due in 1 day 4 hours' });
    expect(countdown(at('2026-11-27T12:35:20Z'), now)).toEqual({ overdue: false, text: 'Due in 35 minutes' });
    expect(countdown('2026-11-27T09:00:00Z', now)).toEqual({ overdue: true, text: 'Overdue by 3 hours' });
    expect(countdown('2026-11-27T12:00:10Z', now)).toEqual({ overdue: false, text: 'Due in less than a minute' });
  });

  it('names the statuses the table allows', () => {
    expect([...REQUEST_STATUSES]).toEqual([...TABLE_STATUSES]);
  });
});
