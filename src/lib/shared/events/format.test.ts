/** How an event's time reads, in its zone and in a visitor's. */
import { describe, expect, it } from 'vitest';
import { formatDuration, formatInZone, formatTimeOfDay, formatWithZoneName, localTimeZone, zoneAbbreviation } from './format.ts';

describe('formatInZone', () => {
  it.each([
    ['2026-12-10T15:00:00Z', 'Europe/London', 'Thu 10 Dec 2026, 15:00 GMT (Europe/London)'],
    ['2027-06-18T16:00:00Z', 'Europe/London', 'Fri 18 Jun 2027, 17:00 BST (Europe/London)'],
    ['2027-03-30T16:00:00Z', 'America/New_York', 'Tue 30 Mar 2027, 12:00 EDT (America/New_York)'],
    ['2027-01-30T16:00:00Z', 'America/New_York', 'Sat 30 Jan 2027, 11:00 EST (America/New_York)'],
    ['2027-01-30T16:00:00Z', 'Asia/Tokyo', 'Sun 31 Jan 2027, 01:00 GMT+9 (Asia/Tokyo)'],
  ])('%s in %s reads %j', (instant, zone, text) => {
    expect(formatInZone(instant, zone)).toBe(text);
  });

  it('names the zone by the offset in force at that instant', () => {
    expect(zoneAbbreviation('2027-03-28T00:59:00Z', 'Europe/London')).toBe('GMT');
    expect(zoneAbbreviation('2027-03-28T01:00:00Z', 'Europe/London')).toBe('BST');
  });
});

describe('formatDuration', () => {
  it.each([
    [45, '45 minutes'],
    [60, '1 hour'],
    [90, '1 h 30 min'],
    [120, '2 hours'],
  ])('%i minutes read %j', (minutes, text) => {
    expect(formatDuration(minutes)).toBe(text);
  });
});

describe('the shorter forms the islands use', () => {
  it('words an instant with the zone once, or its time of day alone, in the zone asked for', () => {
    expect(formatWithZoneName('2027-06-18T16:00:00Z', 'Europe/London')).toBe('Fri 18 Jun 2027, 17:00 BST');
    expect(formatTimeOfDay('2027-06-18T16:00:00Z', 'America/New_York')).toBe('12:00 EDT');
    expect(formatTimeOfDay('2027-01-30T16:05:00Z', 'Asia/Tokyo')).toBe('01:05 GMT+9');
  });

  it("names the runtime's own zone, as Intl resolves it", () => {
    expect(localTimeZone()).toBe(Intl.DateTimeFormat().resolvedOptions().timeZone);
  });
});
