/** Event times: wall-clock starts in IANA zones to UTC instants, across the 2027 daylight-saving changes. */
import { describe, expect, it } from 'vitest';
import { canonicalTimeZone, isTimeZone, LocalDateTimeSchema, TimeZoneSchema, utcInstant } from './time.ts';

describe('utcInstant across the 2027 daylight-saving changes', () => {
  it.each([
    // Europe/London: BST from 28 March 01:00 UTC to 31 October 01:00 UTC.
    ['2027-03-27T15:00', 'Europe/London', '2027-03-27T15:00:00.000Z'],
    ['2027-03-29T15:00', 'Europe/London', '2027-03-29T14:00:00.000Z'],
    ['2027-10-30T15:00', 'Europe/London', '2027-10-30T14:00:00.000Z'],
    ['2027-11-01T15:00', 'Europe/London', '2027-11-01T15:00:00.000Z'],
    // America/New_York: EDT from 14 March 07:00 UTC to 7 November 06:00 UTC.
    ['2027-03-13T12:00', 'America/New_York', '2027-03-13T17:00:00.000Z'],
    ['2027-03-15T12:00', 'America/New_York', '2027-03-15T16:00:00.000Z'],
    ['2027-11-06T12:00', 'America/New_York', '2027-11-06T16:00:00.000Z'],
    ['2027-11-08T12:00', 'America/New_York', '2027-11-08T17:00:00.000Z'],
  ])('%s in %s is %s', (local, zone, utc) => {
    expect(utcInstant(local, zone)).toBe(utc);
  });

  it('keeps the same wall-clock time a week apart across a change (the UTC hour moves, the local one does not)', () => {
    expect(utcInstant('2027-03-09T15:00', 'America/New_York')).toBe('2027-03-09T20:00:00.000Z');
    expect(utcInstant('2027-03-16T15:00', 'America/New_York')).toBe('2027-03-16T19:00:00.000Z');
  });

  it('moves a time skipped by the spring change forward by the gap (RFC 5545: the offset before it)', () => {
    // 02:30 does not exist in New York on 14 March 2027: it reads as 03:30 EDT.
    expect(utcInstant('2027-03-14T02:30', 'America/New_York')).toBe('2027-03-14T07:30:00.000Z');
    // 01:30 does not exist in London on 28 March 2027: it reads as 02:30 BST.
    expect(utcInstant('2027-03-28T01:30', 'Europe/London')).toBe('2027-03-28T01:30:00.000Z');
    expect(utcInstant('2027-03-28T02:00', 'Europe/London')).toBe('2027-03-28T01:00:00.000Z');
  });

  it('reads a time that occurs twice in the autumn as its first occurrence (RFC 5545), in every zone alike', () => {
    expect(utcInstant('2027-10-31T01:30', 'Europe/London')).toBe('2027-10-31T00:30:00.000Z'); // 01:30 BST
    expect(utcInstant('2027-11-07T01:30', 'America/New_York')).toBe('2027-11-07T05:30:00.000Z'); // 01:30 EDT
  });

  it('handles zones with half-hour offsets and half-hour changes', () => {
    expect(utcInstant('2027-06-01T09:00', 'Asia/Kolkata')).toBe('2027-06-01T03:30:00.000Z');
    // Lord Howe Island moves its clocks by 30 minutes: 02:15 on 3 October 2027 is skipped.
    expect(utcInstant('2027-10-03T02:15', 'Australia/Lord_Howe')).toBe('2027-10-02T15:45:00.000Z');
  });
});

describe('LocalDateTimeSchema', () => {
  it.each(['2027-02-28T10:00', '2028-02-29T23:59', '2100-12-31T00:00', '2000-01-01T00:00'])('accepts %s', (value) => {
    expect(LocalDateTimeSchema.safeParse(value).success).toBe(true);
  });

  it.each([
    ['a day that does not exist', '2027-02-29T10:00'],
    ['the 31st of a 30-day month', '2027-04-31T10:00'],
    ['a thirteenth month', '2027-13-01T10:00'],
    ['hour 24', '2027-05-12T24:00'],
    ['a zone suffix', '2027-05-12T15:00Z'],
    ['seconds', '2027-05-12T15:00:00'],
    ['a year far away', '9999-05-12T15:00'],
    ['a year long gone', '1970-05-12T15:00'],
    ['a date alone', '2027-05-12'],
    ['a space for the T', '2027-05-12 15:00'],
  ])('refuses %s (%s)', (_label, value) => {
    expect(LocalDateTimeSchema.safeParse(value).success).toBe(false);
  });
});

describe('time zones', () => {
  it.each(['Europe/London', 'America/New_York', 'America/Argentina/Buenos_Aires', 'UTC', 'Etc/GMT+5', 'Asia/Kolkata', 'EST5EDT', 'GMT0'])(
    'knows %s',
    (zone) => {
      expect(isTimeZone(zone)).toBe(true);
      expect(TimeZoneSchema.safeParse(zone).success).toBe(true);
    },
  );

  it('keeps the name Intl resolves a zone to, so one zone is stored one way', () => {
    for (const zone of ['europe/london', 'Europe/London', 'US/Eastern', 'EST5EDT', 'utc', 'Etc/UTC']) {
      const canonical = new Intl.DateTimeFormat('en', { timeZone: zone }).resolvedOptions().timeZone;
      expect(canonicalTimeZone(zone)).toBe(canonical);
      expect(TimeZoneSchema.parse(zone)).toBe(canonical);
    }
    expect(TimeZoneSchema.parse('europe/london')).toBe('Europe/London');
    expect(TimeZoneSchema.parse('utc')).toBe('UTC');
  });

  it.each([
    '',
    'Mars/Olympus_Mons',
    'Europe/Atlantis',
    '../../etc/passwd',
    'Europe/London; DROP TABLE',
    'Europe/London\n',
    'Europe/London\u0000',
    'Europe/ London',
    'Europe\tLondon',
    `Europe/${'x'.repeat(80)}`,
    '+05:00',
    '-0500',
  ])('refuses %j', (zone) => {
    expect(isTimeZone(zone)).toBe(false);
    expect(TimeZoneSchema.safeParse(zone).success).toBe(false);
  });
});
