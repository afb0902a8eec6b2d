import { describe, expect, it } from 'vitest';
import { prorate, settle } from './proration.ts';

const start = new Date('2026-11-01T00:00:00Z');
const end = new Date('2026-12-01T00:00:00Z');
const at = (days: number) => new Date(start.getTime() + days * 86_400_000);

describe('prorating a plan change on the embedded provider', () => {
  it('charges the difference for what is left of the period on the same interval', () => {
    // Half of a 30-day period left: half of 1999 less half of 999.
    expect(prorate({ oldAmount: 999, newAmount: 1999, periodStart: start, periodEnd: end, now: at(15), restart: false })).toBe(1000 - 500);
    // At the very start the whole difference; at the end nothing.
    expect(prorate({ oldAmount: 999, newAmount: 1999, periodStart: start, periodEnd: end, now: start, restart: false })).toBe(1000);
    expect(prorate({ oldAmount: 999, newAmount: 1999, periodStart: start, periodEnd: end, now: end, restart: false })).toBe(0);
  });

  it('charges the whole new price less the unused old time when the interval changes (a new period starts)', () => {
    expect(prorate({ oldAmount: 1999, newAmount: 19190, periodStart: start, periodEnd: end, now: at(15), restart: true })).toBe(
      19190 - 1000,
    );
  });

  it('is negative when the unused time is worth more than the new charge', () => {
    const yearEnd = new Date('2027-11-01T00:00:00Z');
    expect(prorate({ oldAmount: 9590, newAmount: 1999, periodStart: start, periodEnd: yearEnd, now: start, restart: true })).toBe(
      1999 - 9590,
    );
  });
});

describe('settling an invoice against credit', () => {
  it('takes credit first and keeps what is left', () => {
    expect(settle(1000, 0)).toEqual({ amountPaid: 1000, credit: 0 });
    expect(settle(1000, 300)).toEqual({ amountPaid: 700, credit: 0 });
    expect(settle(1000, 2500)).toEqual({ amountPaid: 0, credit: 1500 });
  });

  it('turns a negative amount into credit', () => {
    expect(settle(-7591, 100)).toEqual({ amountPaid: 0, credit: 7691 });
  });
});
