/**
 * Monthly recurring revenue in cents, one subscription at a time: the rules the revenue history is
 * written by (record.ts), pure so they are tested alone. A subscription contributes while it grants
 * its plan and pays: active or past due (a grace period while the provider retries the card: it
 * still counts, as the grants ledger still grants it) and not past a cancellation in effect; a free
 * trial contributes nothing until its first charge. A yearly price counts a twelfth, rounded half up
 * per subscription; a discount running now is taken off the price first.
 */
import { discountedCents } from '#shared/payments/offers.ts';
import { grants } from '../provider.ts';
import type { MovementKind } from './tables.ts';

/** An offer's discount as the price sees it: a percentage or an amount (cents) off. */
export interface DiscountTerms {
  percentOff: number | null;
  amountOff: number | null;
}

/** Cents a month for a price billed every `interval` (a year's is a twelfth, rounded half up). */
export function monthlyCents(amount: number, interval: string): number {
  return interval === 'year' ? Math.round(amount / 12) : amount;
}

/** Whether a subscription in this state pays now (a trial does not; a cancellation in effect ends it). */
export function pays(row: { status: string; cancelAt: Date | null }, now: Date): boolean {
  return row.status !== 'trialing' && grants(row, now);
}

/** What the subscription brings a month now, in cents. */
export function contribution(
  row: { status: string; cancelAt: Date | null; amount: number; interval: string },
  discount: DiscountTerms | undefined,
  now: Date,
): number {
  if (!pays(row, now)) return 0;
  const amount = discount ? discountedCents(row.amount, discount) : row.amount;
  return monthlyCents(amount, row.interval);
}

/**
 * The kind of a change from `before` to `after` cents a month, or undefined when nothing changed.
 * Paying from nothing is a reactivation when the member churned before, else new.
 */
export function movementKind(before: number, after: number, churnedBefore: boolean): MovementKind | undefined {
  if (before === after) return undefined;
  if (before === 0) return churnedBefore ? 'reactivation' : 'new';
  if (after === 0) return 'churned';
  return after > before ? 'expansion' : 'contraction';
}
