import { describe, expect, it } from 'vitest';
import { discountedCents, OFFER_CODE, offerTerms } from './offers.ts';

describe('offers', () => {
  it('takes a percentage or an amount off, never below zero, rounded to the cent', () => {
    expect(discountedCents(1999, { percentOff: 20, amountOff: null })).toBe(1599);
    expect(discountedCents(1999, { percentOff: 25, amountOff: null })).toBe(1499);
    expect(discountedCents(999, { percentOff: null, amountOff: 300 })).toBe(699);
    expect(discountedCents(999, { percentOff: null, amountOff: 5000 })).toBe(0);
  });

  it('says the terms in words', () => {
    expect(offerTerms({ percentOff: 20, amountOff: null, duration: 'repeating', durationInMonths: 3 })).toBe('20% off for 3 months');
    expect(offerTerms({ percentOff: 20, amountOff: null, duration: 'repeating', durationInMonths: 1 })).toBe('20% off for the first month');
    expect(offerTerms({ percentOff: null, amountOff: 500, duration: 'once', durationInMonths: null })).toBe('$5.00 off your first payment');
    expect(offerTerms({ percentOff: 10, amountOff: null, duration: 'forever', durationInMonths: null })).toBe(
      '10% off for as long as you stay subscribed',
    );
  });

  it('takes codes of letters, digits, dashes and underscores only', () => {
    for (const ok of ['LAUNCH', 'spring_2027', 'a-b-c']) expect(OFFER_CODE.test(ok), ok).toBe(true);
    for (const bad of ['ab', '-lead', 'with space', 'ÜBER', 'x'.repeat(41), 'a;b', '']) expect(OFFER_CODE.test(bad), bad).toBe(false);
  });
});
