/** The rules the revenue history is written by: what a subscription brings a month, and the kind of a change. */
import { describe, expect, it } from 'vitest';
import { contribution, monthlyCents, movementKind } from './mrr.ts';

const now = new Date('2031-03-01T00:00:00Z');
const sub = (extra: Partial<{ status: string; cancelAt: Date | null; amount: number; interval: string }> = {}) => ({
  status: 'active',
  cancelAt: null,
  amount: 1999,
  interval: 'month',
  ...extra,
});

describe('monthly recurring revenue of one subscription', () => {
  it('counts a year’s price as a twelfth, rounded half up', () => {
    expect(monthlyCents(9590, 'year')).toBe(799); // 799.17
    expect(monthlyCents(19190, 'year')).toBe(1599); // 1599.17
    expect(monthlyCents(18, 'year')).toBe(2); // 1.5
    expect(monthlyCents(1999, 'month')).toBe(1999);
  });

  it('takes a running discount off the price before dividing it', () => {
    expect(contribution(sub(), { percentOff: 50, amountOff: null }, now)).toBe(1000); // 999.5 up
    expect(contribution(sub({ amount: 9590, interval: 'year' }), { percentOff: null, amountOff: 590 }, now)).toBe(750);
  });

  it('counts active and past due subscriptions, not trials, ended ones or a cancellation in effect', () => {
    expect(contribution(sub({ status: 'past_due' }), undefined, now)).toBe(1999);
    expect(contribution(sub({ cancelAt: new Date(now.getTime() + 1000) }), undefined, now)).toBe(1999);
    for (const gone of [sub({ status: 'trialing' }), sub({ status: 'canceled' }), sub({ status: 'unpaid' }), sub({ cancelAt: now })])
      expect(contribution(gone, undefined, now)).toBe(0);
  });

  it('names each change by the amounts before and after', () => {
    expect(movementKind(0, 999, false)).toBe('new');
    expect(movementKind(0, 999, true)).toBe('reactivation');
    expect(movementKind(999, 1999, false)).toBe('expansion');
    expect(movementKind(1999, 999, false)).toBe('contraction');
    expect(movementKind(999, 0, false)).toBe('churned');
    expect(movementKind(999, 999, false)).toBeUndefined();
  });
});
