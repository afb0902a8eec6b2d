/**
 * Which items can be bought outright (beyond the spec's plans), and the one access rule for every
 * type that can carry a price (market items and courses), shared by the server's gated routes and
 * the islands. Kept apart from display.ts so the detail islands that need only this rule do not
 * bundle date formatting.
 */
import { accessLabel, checkAccess, isStaff, type AccessLevel, type Viewer } from '../access.ts';

/** Items with a price above 0 can be bought (spec point 3: absent or 0 means free). */
export function isPriced(price: number | undefined): price is number {
  return price !== undefined && price > 0;
}

/** A priced item at the free level belongs to no plan: only buyers (and staff) open it, as the server rules. */
export function isPurchaseOnly(accessLevel: AccessLevel, price: number | undefined): boolean {
  return accessLevel === 'free' && isPriced(price);
}

/** What the rule reads of an item: its level and, for the types that can carry one, its price. */
export interface PricedItem {
  accessLevel: AccessLevel;
  price?: number | undefined;
}

export type ItemAccess = { allowed: true } | { allowed: false; reason: 'login_required' | 'upgrade_required' | 'purchase_required' };

/**
 * The purchase rule, before any purchase is looked up: an item a plan includes follows the level
 * rule (`checkAccess`); a priced item at the free level is sold, never given, so only staff open it
 * by level and every other member needs to buy it ('purchase_required'). Visitors sign in first.
 * Whoever bought the item opens it whatever this answers (the server checks the purchase).
 */
export function itemAccess(viewer: Viewer, item: PricedItem): ItemAccess {
  if (!isPurchaseOnly(item.accessLevel, item.price)) return checkAccess(viewer, item.accessLevel);
  if (!viewer) return { allowed: false, reason: 'login_required' };
  return isStaff(viewer.role) ? { allowed: true } : { allowed: false, reason: 'purchase_required' };
}

const dollars = (price: number) => `$${price.toFixed(2)}`;

/**
 * The badge beside an item (what its level means, beyond the spec's bare level word): the level,
 * with a tooltip saying who opens it; a priced item at the free level is 'Sold separately', never
 * 'Free' next to its price.
 */
export function accessBadge(accessLevel: AccessLevel, price?: number): { label: string; hint: string; soldSeparately: boolean } {
  if (isPurchaseOnly(accessLevel, price))
    return { label: 'Sold separately', hint: 'No plan includes it: it is bought on its own.', soldSeparately: true };
  const label = accessLabel(accessLevel);
  return { label, hint: accessLevel === 'free' ? 'Free with an account.' : `Included with a ${label} plan.`, soldSeparately: false };
}

/** A card's price: 'Free', '$24.00 one-time' (sold only on its own) or '$19.00, or with a Subscriber plan'. */
export function priceLabel(accessLevel: AccessLevel, price: number | undefined): string {
  if (!isPriced(price)) return 'Free';
  return isPurchaseOnly(accessLevel, price)
    ? `${dollars(price)} one-time`
    : `${dollars(price)}, or with a ${accessLabel(accessLevel)} plan`;
}

/** The line under a detail page's price: how the price and the plans relate (nothing for free items). */
export function priceNote(accessLevel: AccessLevel, price: number | undefined): string | undefined {
  if (!isPriced(price)) return undefined;
  return isPurchaseOnly(accessLevel, price)
    ? 'A one-time purchase: no plan includes it.'
    : `A one-time purchase, or included with a ${accessLabel(accessLevel)} plan.`;
}

/** What confirm answers (409) for a paid checkout whose item was unpublished before it could be recorded. */
export const REFUSED_PURCHASE =
  'This item is no longer available, so your payment has been refunded in full. It can take a few days to reach your card.';

/** What confirm answers (409) for a second paid checkout of an item the member already owns. */
export const REFUNDED_DUPLICATE =
  'You already own this item, so this second payment has been refunded in full. It can take a few days to reach your card.';

/** Why a paid checkout was refused and refunded. */
export type RefusalReason = 'item_unavailable' | 'already_owned';
