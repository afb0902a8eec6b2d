/**
 * Plans and price maths (spec point 3 "Price tier", point 9 prices). Pure module: the pricing page
 * renders from it and the server's checkout will use the same ids and amounts, so what a visitor
 * is shown is what they are charged. Amounts are worked out in whole cents to avoid float drift.
 */
import { accessRank, type AccessLevel } from './access.ts';

export type BillingInterval = 'month' | 'year';

export interface PriceTier {
  /** Checkout price id of the monthly plan, e.g. "price_subscriber_monthly". */
  id: string;
  name: string;
  /** Monthly price in dollars. */
  price: number;
  interval: BillingInterval;
  /** One line under the name on the pricing card. */
  summary: string;
  features: readonly string[];
  accessLevel: AccessLevel;
  popular?: boolean;
}

/** The pricing page's three tiers, in display order. */
export const PRICE_TIERS: readonly PriceTier[] = [
  {
    id: 'price_free',
    name: 'Free',
    price: 0,
    interval: 'month',
    summary: 'Explore our free articles, tools and courses.',
    accessLevel: 'free',
    features: ['Free articles, tools and courses', 'Community forum access', 'Newsletter with new free resources'],
  },
  {
    id: 'price_subscriber_monthly',
    name: 'Subscriber',
    price: 9.99,
    interval: 'month',
    summary: 'For owners and marketers growing on their own.',
    accessLevel: 'subscriber',
    popular: true,
    features: [
      'Everything in Free',
      'Subscriber-only articles and courses',
      'Monthly newsletter with our playbooks',
      'Basic tools and templates',
    ],
  },
  {
    id: 'price_premium_monthly',
    name: 'Premium',
    price: 19.99,
    interval: 'month',
    summary: 'For teams that want every resource and direct help.',
    accessLevel: 'premium',
    features: [
      'Everything in Subscriber',
      'All premium content and courses',
      'Exclusive webinars and events',
      'Priority support',
      'Advanced tools and templates',
    ],
  },
];

/** Yearly plans cost twelve months less this share (20%). */
const YEARLY_DISCOUNT = 0.2;

/** Dollars to whole cents, rounding away float noise (9.99 → 999). */
function toCents(dollars: number): number {
  return Math.round(dollars * 100);
}

/** Yearly price in cents: monthly × 12 × 0.8, rounded to the cent. */
export function yearlyPriceCents(monthly: number): number {
  return Math.round(toCents(monthly) * 12 * (1 - YEARLY_DISCOUNT));
}

/** Yearly price in dollars (9.99 → 95.9, shown as 95.90). */
export function yearlyPrice(monthly: number): number {
  return yearlyPriceCents(monthly) / 100;
}

/** What a year costs on the monthly plan minus the yearly price, in dollars (9.99 → 23.98). */
export function yearlySavings(monthly: number): number {
  return (toCents(monthly) * 12 - yearlyPriceCents(monthly)) / 100;
}

/** Price of a tier for an interval, in dollars. */
export function priceFor(tier: Pick<PriceTier, 'price'>, interval: BillingInterval): number {
  return interval === 'year' ? yearlyPrice(tier.price) : tier.price;
}

/** Checkout id of the yearly plan: "monthly" replaced by "yearly" (price_premium_yearly). */
export function yearlyTierId(id: string): string {
  return id.replace('monthly', 'yearly');
}

/** Checkout id of a tier for an interval. */
export function tierIdFor(tier: Pick<PriceTier, 'id'>, interval: BillingInterval): string {
  return interval === 'year' ? yearlyTierId(tier.id) : tier.id;
}

/** Two decimals, no currency sign (95.9 → "95.90"). */
export function formatAmount(dollars: number): string {
  return (toCents(dollars) / 100).toFixed(2);
}

/** Dollar amount with two decimals ("$19.99", "$0.00"). */
export function formatDollars(dollars: number): string {
  return `$${formatAmount(dollars)}`;
}

/** Subscription amounts arrive in cents (spec point 9): 1999 → 19.99. */
export function centsToDollars(cents: number): number {
  return cents / 100;
}

/** Only tiers with a price above 0 go to checkout (spec point 5). */
export function isPaid(tier: Pick<PriceTier, 'price'>): boolean {
  return tier.price > 0;
}

/** A tier by id, monthly or yearly (price_premium_yearly finds Premium). */
export function findTier(id: string): PriceTier | undefined {
  return PRICE_TIERS.find((t) => t.id === id || yearlyTierId(t.id) === id);
}

/**
 * How a member's move from one plan to another is billed (no rule in the spec; Stripe's customer
 * portal is the model): 'up' (a higher level, or the same level from monthly to yearly) applies at
 * once and the prorated difference is charged now; 'down' (a lower level, or yearly to monthly)
 * waits for the end of the period already paid for; 'same' is no change. The level decides first,
 * so Subscriber yearly to Premium monthly is an upgrade (the unused part of the year is credited).
 */
export type PlanChange = 'up' | 'down' | 'same';

export function planChange(
  from: { accessLevel: AccessLevel; interval: BillingInterval },
  to: { accessLevel: AccessLevel; interval: BillingInterval },
): PlanChange {
  const levels = accessRank(to.accessLevel) - accessRank(from.accessLevel);
  if (levels !== 0) return levels > 0 ? 'up' : 'down';
  if (from.interval === to.interval) return 'same';
  return to.interval === 'year' ? 'up' : 'down';
}
