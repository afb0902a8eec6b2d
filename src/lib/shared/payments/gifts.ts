/**
 * Gift memberships (issue 34): 1, 3, 6 or 12 months of Subscriber or Premium, paid once. Pure, shared
 * by the /gift page (what it shows) and the server (what it charges): twelve months cost the yearly
 * price, fewer months the monthly price each.
 */
import { findTier, priceFor, PRICE_TIERS } from '../pricing.ts';

export const GIFT_MONTHS = [1, 3, 6, 12] as const;
export type GiftMonths = (typeof GIFT_MONTHS)[number];
export const GIFT_LEVELS = ['subscriber', 'premium'] as const;
export type GiftLevel = (typeof GIFT_LEVELS)[number];

/** Longest message a buyer may write to the recipient. */
export const GIFT_MESSAGE_MAX = 1000;
/** How far ahead the delivery may be scheduled, and how long an unredeemed gift lasts. */
export const GIFT_DELIVERY_DAYS = 365;

const tierOf = (level: GiftLevel) => PRICE_TIERS.find((t) => t.accessLevel === level)!;

/** The price of a gift in cents. */
export function giftPriceCents(level: GiftLevel, months: GiftMonths): number {
  const tier = findTier(tierOf(level).id)!;
  return months === 12 ? Math.round(priceFor(tier, 'year') * 100) : Math.round(priceFor(tier, 'month') * 100) * months;
}

/** "Premium, 3 months". */
export const giftName = (level: GiftLevel, months: GiftMonths) => `${tierOf(level).name}, ${months === 1 ? '1 month' : `${months} months`}`;
