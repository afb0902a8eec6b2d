/**
 * What we sell, from the pricing module (src/lib/shared/pricing.ts): each paid tier monthly and yearly,
 * found at the provider by lookup key (the tier id without its `price_` prefix, as the provider
 * contract names them: premium_yearly). Pure: the embedded provider seeds its prices from it,
 * `npm run stripe:setup` creates them at Stripe, and the billing service maps prices back to levels.
 */
import type { AccessLevel } from '#shared/access.ts';
import { findTier, isPaid, PRICE_TIERS, priceFor, tierIdFor, type BillingInterval } from '#shared/pricing.ts';

export interface PlanPrice {
  /** Our tier id for the interval (price_premium_yearly): what the browser sends. */
  tierId: string;
  lookupKey: string;
  name: string;
  accessLevel: AccessLevel;
  interval: BillingInterval;
  /** Cents. */
  amount: number;
}

export const CURRENCY = 'usd';

export const lookupKeyFor = (tierId: string) => tierId.replace(/^price_/, '');
export const tierIdForLookupKey = (lookupKey: string) => `price_${lookupKey}`;

export const PLAN_PRICES: readonly PlanPrice[] = PRICE_TIERS.filter(isPaid).flatMap((tier) =>
  (['month', 'year'] as const).map((interval) => ({
    tierId: tierIdFor(tier, interval),
    lookupKey: lookupKeyFor(tierIdFor(tier, interval)),
    name: tier.name,
    accessLevel: tier.accessLevel,
    interval,
    amount: Math.round(priceFor(tier, interval) * 100),
  })),
);

/** The plan of a tier id (monthly or yearly), when it is a paid one. */
export function planFor(tierId: string): PlanPrice | undefined {
  const tier = findTier(tierId);
  return tier && isPaid(tier) ? PLAN_PRICES.find((p) => p.tierId === tierId) : undefined;
}

/** The plan a provider price stands for, by its lookup key. */
export function planForLookupKey(lookupKey: string | null): PlanPrice | undefined {
  return lookupKey ? PLAN_PRICES.find((p) => p.lookupKey === lookupKey) : undefined;
}
