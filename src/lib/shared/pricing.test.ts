import { describe, expect, it } from 'vitest';
import {
  centsToDollars,
  findTier,
  formatAmount,
  formatDollars,
  isPaid,
  planChange,
  PRICE_TIERS,
  priceFor,
  tierIdFor,
  yearlyPrice,
  yearlyPriceCents,
  yearlySavings,
  yearlyTierId,
} from './pricing.ts';

describe('price tiers', () => {
  it('lists the spec tiers with their ids, names, prices and levels in order', () => {
    expect(PRICE_TIERS.map((t) => [t.id, t.name, t.price, t.accessLevel])).toEqual([
      ['price_free', 'Free', 0, 'free'],
      ['price_subscriber_monthly', 'Subscriber', 9.99, 'subscriber'],
      ['price_premium_monthly', 'Premium', 19.99, 'premium'],
    ]);
  });

  it('marks only Subscriber as popular', () => {
    expect(PRICE_TIERS.filter((t) => t.popular).map((t) => t.name)).toEqual(['Subscriber']);
  });

  it('offers checkout only for tiers priced above 0', () => {
    expect(PRICE_TIERS.filter(isPaid).map((t) => t.name)).toEqual(['Subscriber', 'Premium']);
  });
});

describe('yearly prices', () => {
  it('charges twelve months less 20%, to the cent', () => {
    expect(yearlyPrice(9.99)).toBe(95.9);
    expect(yearlyPrice(19.99)).toBe(191.9);
    expect(yearlyPrice(0)).toBe(0);
    expect(yearlyPriceCents(9.99)).toBe(9590);
    expect(yearlyPriceCents(19.99)).toBe(19190);
  });

  it('shows yearly prices with two decimals', () => {
    expect(formatAmount(yearlyPrice(9.99))).toBe('95.90');
    expect(formatAmount(yearlyPrice(19.99))).toBe('191.90');
    expect(formatDollars(priceFor({ price: 19.99 }, 'year'))).toBe('$191.90');
  });

  it('works out the saving against paying monthly', () => {
    expect(yearlySavings(9.99)).toBe(23.98);
    expect(yearlySavings(19.99)).toBe(47.98);
  });

  it('keeps the monthly price for the monthly interval', () => {
    expect(priceFor({ price: 9.99 }, 'month')).toBe(9.99);
  });
});

describe('tier ids', () => {
  it('replaces "monthly" with "yearly" for yearly checkout', () => {
    expect(yearlyTierId('price_subscriber_monthly')).toBe('price_subscriber_yearly');
    expect(yearlyTierId('price_premium_monthly')).toBe('price_premium_yearly');
    expect(yearlyTierId('price_free')).toBe('price_free');
    expect(tierIdFor({ id: 'price_premium_monthly' }, 'month')).toBe('price_premium_monthly');
    expect(tierIdFor({ id: 'price_premium_monthly' }, 'year')).toBe('price_premium_yearly');
  });

  it('finds a tier by its monthly or yearly id', () => {
    expect(findTier('price_premium_yearly')?.name).toBe('Premium');
    expect(findTier('price_subscriber_monthly')?.name).toBe('Subscriber');
    expect(findTier('price_unknown')).toBeUndefined();
  });
});

describe('formats', () => {
  it('always shows two decimals and a dollar sign', () => {
    expect(formatDollars(0)).toBe('$0.00');
    expect(formatDollars(9.99)).toBe('$9.99');
    expect(formatDollars(149)).toBe('$149.00');
    expect(formatAmount(0.1 + 0.2)).toBe('0.30');
  });

  it('turns subscription cents into dollars', () => {
    expect(centsToDollars(1999)).toBe(19.99);
    expect(centsToDollars(9590)).toBe(95.9);
  });
});

describe('how a plan change is billed', () => {
  const plan = (accessLevel: 'free' | 'subscriber' | 'premium', interval: 'month' | 'year') => ({ accessLevel, interval });
  it('raises now for a higher level, whatever the interval', () => {
    expect(planChange(plan('subscriber', 'month'), plan('premium', 'month'))).toBe('up');
    expect(planChange(plan('subscriber', 'year'), plan('premium', 'month'))).toBe('up');
    expect(planChange(plan('free', 'month'), plan('subscriber', 'month'))).toBe('up');
  });
  it('waits for the period end for a lower level, whatever the interval', () => {
    expect(planChange(plan('premium', 'month'), plan('subscriber', 'year'))).toBe('down');
    expect(planChange(plan('premium', 'year'), plan('free', 'month'))).toBe('down');
  });
  it('on the same level, monthly to yearly is an upgrade and yearly to monthly waits', () => {
    expect(planChange(plan('premium', 'month'), plan('premium', 'year'))).toBe('up');
    expect(planChange(plan('premium', 'year'), plan('premium', 'month'))).toBe('down');
    expect(planChange(plan('subscriber', 'year'), plan('subscriber', 'year'))).toBe('same');
  });
});
