import { describe, expect, it } from 'vitest';
import type { AccessLevel, Role } from '../access.ts';
import { accessBadge, isPriced, isPurchaseOnly, itemAccess, priceLabel, priceNote } from './purchasable.ts';

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

describe('what a badge and a price mean', () => {
  it('never shows a Free badge beside a price: an item sold only on its own says so', () => {
    expect(accessBadge('free', 24)).toMatchObject({ label: 'Sold separately', soldSeparately: true });
    expect(priceLabel('free', 24)).toBe('$24.00 one-time');
    expect(priceNote('free', 24)).toBe('A one-time purchase: no plan includes it.');
  });

  it('names the plan that includes a priced item, and keeps Free for free ones', () => {
    expect(accessBadge('subscriber', 19)).toEqual({ label: 'Subscriber', hint: 'Included with a Subscriber plan.', soldSeparately: false });
    expect(priceLabel('subscriber', 19)).toBe('$19.00, or with a Subscriber plan');
    expect(priceNote('premium', 49)).toBe('A one-time purchase, or included with a Premium plan.');
    for (const price of [undefined, 0]) {
      expect(accessBadge('free', price)).toEqual({ label: 'Free', hint: 'Free with an account.', soldSeparately: false });
      expect(priceLabel('free', price)).toBe('Free');
      expect(priceNote('free', price)).toBeUndefined();
    }
  });
});

describe('the purchase rule', () => {
  const member = (accessLevel: AccessLevel, role: Role = 'member') => ({ accessLevel, role });

  it('follows the level rule for items a plan includes, priced or not', () => {
    expect(itemAccess(member('free'), { accessLevel: 'free' })).toEqual({ allowed: true });
    expect(itemAccess(member('free'), { accessLevel: 'subscriber', price: 129 })).toEqual({ allowed: false, reason: 'upgrade_required' });
    expect(itemAccess(member('subscriber'), { accessLevel: 'subscriber', price: 129 })).toEqual({ allowed: true });
    expect(itemAccess(null, { accessLevel: 'free' })).toEqual({ allowed: false, reason: 'login_required' });
  });

  it('sells a priced free-level item to every member, whatever their plan, and opens it to staff', () => {
    const item = { accessLevel: 'free' as const, price: 39 };
    expect(itemAccess(null, item)).toEqual({ allowed: false, reason: 'login_required' });
    for (const level of ['free', 'subscriber', 'premium'] as const)
      expect(itemAccess(member(level), item)).toEqual({ allowed: false, reason: 'purchase_required' });
    expect(itemAccess(member('free', 'editor'), item)).toEqual({ allowed: true });
    expect(itemAccess(member('free', 'admin'), item)).toEqual({ allowed: true });
  });
});
