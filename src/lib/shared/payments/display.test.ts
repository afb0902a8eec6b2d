import { describe, expect, it } from 'vitest';
import {
  canCancel,
  cancelConfirmText,
  cancelNotice,
  formatCents,
  formatPaymentDate,
  formatPlanAmount,
  periodDateLabel,
  scheduledChangeNotice,
  statusWord,
  subscriptionBadge,
} from './display.ts';

const sub = (status: string, cancelAtPeriodEnd = false) => ({ status, cancelAtPeriodEnd });

describe('amounts', () => {
  it('shows cents as dollars with two decimals', () => {
    expect(formatCents(1999)).toBe('$19.99');
    expect(formatCents(19190)).toBe('$191.90');
    expect(formatCents(2400)).toBe('$24.00');
  });

  it('adds the interval to plan amounts, and leaves one-time amounts alone', () => {
    expect(formatPlanAmount(999, 'month')).toBe('$9.99 / month');
    expect(formatPlanAmount(19190, 'year')).toBe('$191.90 / year');
    expect(formatPlanAmount(2400, null)).toBe('$24.00');
  });
});

describe('the subscription badge and date', () => {
  it('is default for active, secondary for trialing and destructive with the word capitalised otherwise', () => {
    expect(subscriptionBadge(sub('active'))).toEqual({ label: 'Active', variant: 'default' });
    expect(subscriptionBadge(sub('trialing'))).toEqual({ label: 'Trialing', variant: 'secondary' });
    expect(subscriptionBadge(sub('canceled'))).toEqual({ label: 'Canceled', variant: 'destructive' });
    expect(subscriptionBadge(sub('past_due'))).toEqual({ label: 'Past due', variant: 'destructive' });
  });

  it("reads 'Canceling' with 'Access Until' when active and set to cancel", () => {
    expect(subscriptionBadge(sub('active', true)).label).toBe('Canceling');
    expect(periodDateLabel(sub('active', true))).toBe('Access Until');
    expect(periodDateLabel(sub('active'))).toBe('Next Billing Date');
  });

  it('offers Cancel Subscription only when active and not already canceling', () => {
    expect(canCancel(sub('active'))).toBe(true);
    expect(canCancel(sub('active', true))).toBe(false);
    expect(canCancel(sub('trialing'))).toBe(false);
    expect(canCancel(sub('past_due'))).toBe(false);
  });

  it("shows dates as 'MMMM d, yyyy' and names the date in the notice", () => {
    expect(formatPaymentDate('2027-03-04T12:00:00.000Z')).toBe('March 4, 2027');
    expect(cancelNotice('March 4, 2027')).toContain('will end on March 4, 2027');
  });

  it('spells unknown statuses plainly', () => {
    expect(statusWord('incomplete_expired')).toBe('Incomplete expired');
    expect(statusWord('')).toBe('Unknown');
  });
});

describe('plan changes and cancelling on the account card', () => {
  it('names the plan a held change moves to and its date', () => {
    expect(scheduledChangeNotice('Subscriber', 'March 4, 2027')).toBe('Changes to Subscriber on March 4, 2027');
  });
  it('says until when access lasts before a cancel, and that a held change will not happen', () => {
    expect(cancelConfirmText('Premium', 'March 4, 2027')).toContain(
      'You keep your Premium access until March 4, 2027, and you will not be charged again.',
    );
    expect(cancelConfirmText('Premium', 'March 4, 2027')).not.toContain('will not happen');
    expect(cancelConfirmText('Premium', 'March 4, 2027', 'Subscriber')).toContain(
      'The change to Subscriber planned for that date will not happen.',
    );
  });
});
