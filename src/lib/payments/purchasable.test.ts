import { describe, expect, it } from 'vitest';
import { isPriced, isPurchaseOnly } from './purchasable.ts';

describe('priced items', () => {
  it('are priced above 0 only', () => {
    expect(isPriced(undefined)).toBe(false);
    expect(isPriced(0)).toBe(false);
    expect(isPriced(24)).toBe(true);
  });

  it('belong to no plan when priced at the free level', () => {
    expect(isPurchaseOnly('free', 24)).toBe(true);
    expect(isPurchaseOnly('free', 0)).toBe(false);
    expect(isPurchaseOnly('subscriber', 29.99)).toBe(false);
  });
});
