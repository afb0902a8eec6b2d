/**
 * Which items can be bought outright (beyond the spec's plans): a market item or course with a
 * price above 0. Kept apart from display.ts so the detail islands that need only this rule do not
 * bundle date formatting.
 */
import type { AccessLevel } from '../access.ts';

/** Items with a price above 0 can be bought (spec point 3: absent or 0 means free). */
export function isPriced(price: number | undefined): price is number {
  return price !== undefined && price > 0;
}

/** A priced item at the free level belongs to no plan: only buyers (and staff) open it, as the server rules. */
export function isPurchaseOnly(accessLevel: AccessLevel, price: number | undefined): boolean {
  return accessLevel === 'free' && isPriced(price);
}
