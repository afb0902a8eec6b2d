import { describe, expect, it } from 'vitest';
import { utcInstant } from './time.ts';
import { formatInZone } from './format.ts';
import { dueReminder, endsAt, hasEnded, joinOpensAt, joinWindow, reminderClosesAt, reminderDueAt, timeUntil } from './schedule.ts';

const at = (iso: string) => new Date(iso);

describe('reminder instants across a daylight-saving change', () => {
  // Each event starts at 09:00 local the morning after the clocks changed overnight, so its 24-hour
  // reminder is due before the change: 24 elapsed hours earlier reads 10:00 (autumn) or 08:00 (spring)
  // on the wall clock the day before, never a "same time yesterday" that would be 23 or 25 hours.
  it.each([
    // London, autumn: BST ends 2026-10-25 at 02:00 (01:00 GMT). 09:00 GMT = 09:00Z.
    [
      'Europe/London',
      '2026-10-25T09:00',
      '2026-10-25T09:00:00.000Z',
      '2026-10-24T09:00:00.000Z',
      'Sat 24 Oct 2026, 10:00 BST (Europe/London)',
    ],
    // London, spring: BST starts 2026-03-29 at 01:00 GMT. 09:00 BST = 08:00Z.
    [
      'Europe/London',
      '2026-03-29T09:00',
      '2026-03-29T08:00:00.000Z',
      '2026-03-28T08:00:00.000Z',
      'Sat 28 Mar 2026, 08:00 GMT (Europe/London)',
    ],
    // New York, autumn: EDT ends 2026-11-01 at 02:00. 09:00 EST = 14:00Z.
    [
      'America/New_York',
      '2026-11-01T09:00',
      '2026-11-01T14:00:00.000Z',
      '2026-10-31T14:00:00.000Z',
      'Sat 31 Oct 2026, 10:00 EDT (America/New_York)',
    ],
    // New York, spring: EDT starts 2026-03-08 at 02:00. 09:00 EDT = 13:00Z.
    [
      'America/New_York',
      '2026-03-08T09:00',
      '2026-03-08T13:00:00.000Z',
      '2026-03-07T13:00:00.000Z',
      'Sat 7 Mar 2026, 08:00 EST (America/New_York)',
    ],
  ])(
    '%s %s: the start and both reminders are UTC instants, 24 h and 1 h of elapsed time before',
    (zone, local, start, day, dayOnWallClock) => {
      const event = { startsAt: utcInstant(local, zone), durationMinutes: 60 };
      expect(event.startsAt).toBe(start);
      expect(reminderDueAt(event, 'day').toISOString()).toBe(day);
      expect(Date.parse(start) - reminderDueAt(event, 'day').getTime()).toBe(24 * 3_600_000);
      expect(reminderDueAt(event, 'hour').toISOString()).toBe(new Date(Date.parse(start) - 3_600_000).toISOString());
      // The wall clock in the event's zone at the day reminder's moment: the other side of the change.
      expect(formatInZone(reminderDueAt(event, 'day'), zone)).toBe(dayOnWallClock);
      expect(formatInZone(start, zone)).toMatch(/, 09:00 [A-Z]{3} /);
    },
  );
});

describe('reminder windows', () => {
  const event = { startsAt: '2026-12-10T15:00:00.000Z', durationMinutes: 60 };

  it('has the 24-hour reminder due from 24 h until 1 h before, then the 1-hour one until the start', () => {
    expect(dueReminder(event, at('2026-12-09T14:59:59.999Z'))).toBeUndefined();
    expect(dueReminder(event, at('2026-12-09T15:00:00.000Z'))).toBe('day');
    expect(dueReminder(event, at('2026-12-10T13:59:59.999Z'))).toBe('day');
    expect(dueReminder(event, at('2026-12-10T14:00:00.000Z'))).toBe('hour');
    expect(dueReminder(event, at('2026-12-10T14:59:59.999Z'))).toBe('hour');
    expect(dueReminder(event, at('2026-12-10T15:00:00.000Z'))).toBeUndefined();
    expect(reminderClosesAt(event, 'day').toISOString()).toBe('2026-12-10T14:00:00.000Z');
    expect(reminderClosesAt(event, 'hour').toISOString()).toBe(event.startsAt);
  });

  it('words the time left for the reminder', () => {
    expect(timeUntil(event, at('2026-12-09T15:00:00.000Z'))).toBe('24 hours');
    expect(timeUntil(event, at('2026-12-10T14:00:00.000Z'))).toBe('60 minutes');
    expect(timeUntil(event, at('2026-12-10T14:59:30.000Z'))).toBe('1 minute');
  });
});

describe('the join window', () => {
  const event = { startsAt: '2026-12-10T15:00:00.000Z', durationMinutes: 90 };

  it('opens 15 minutes before the start and closes at the end', () => {
    expect(joinOpensAt(event).toISOString()).toBe('2026-12-10T14:45:00.000Z');
    expect(joinWindow(event, at('2026-12-10T14:44:59.999Z'))).toBe('before');
    expect(joinWindow(event, at('2026-12-10T14:45:00.000Z'))).toBe('open');
    expect(joinWindow(event, at('2026-12-10T16:29:59.999Z'))).toBe('open');
    expect(joinWindow(event, at('2026-12-10T16:30:00.000Z'))).toBe('ended');
  });
});

describe('the end', () => {
  it('is the duration of elapsed time after the start, so a daylight-saving change during the event changes nothing', () => {
    // Starts 00:30 BST (23:30 UTC) on the fall-back night and lasts two hours: ends 01:30 GMT, one wall-clock hour later.
    expect(endsAt({ startsAt: utcInstant('2027-10-31T00:30', 'Europe/London'), durationMinutes: 120 }).toISOString()).toBe(
      '2027-10-31T01:30:00.000Z',
    );
  });

  it('has the event ended from its end on, given as a date or in milliseconds', () => {
    const event = { startsAt: '2027-03-10T11:00:00.000Z', durationMinutes: 120 };
    expect(hasEnded(event, Date.parse('2027-03-10T12:59:59Z'))).toBe(false);
    expect(hasEnded(event, new Date('2027-03-10T13:00:00Z'))).toBe(true);
  });
});
