/**
 * What a plan change costs on the embedded test provider, worked out as Stripe prorates: the unused
 * part of the current period on the old price is credited, and the new price is charged for the
 * rest of the period (same interval) or for a whole new period starting now (another interval, which
 * restarts the billing cycle). Credit the customer already holds is used first; a negative result
 * becomes credit for later invoices (Stripe's customer balance). Pure; amounts in cents.
 */

export interface ProrationInput {
  /** Cents per period of the old and the new price. */
  oldAmount: number;
  newAmount: number;
  periodStart: Date;
  periodEnd: Date;
  now: Date;
  /** The interval changes: a new period starts now and the new price is charged whole. */
  restart: boolean;
}

/** The difference owed now for a change (negative: more credit than charge), in cents. */
export function prorate({ oldAmount, newAmount, periodStart, periodEnd, now, restart }: ProrationInput): number {
  const total = periodEnd.getTime() - periodStart.getTime();
  const left = Math.min(Math.max(periodEnd.getTime() - now.getTime(), 0), total);
  const share = total > 0 ? left / total : 0;
  const credit = Math.round(oldAmount * share);
  const charge = restart ? newAmount : Math.round(newAmount * share);
  return charge - credit;
}

/** Takes an amount due against the customer's credit: what is paid now and the credit left. */
export function settle(due: number, credit: number): { amountPaid: number; credit: number } {
  if (due <= 0) return { amountPaid: 0, credit: credit - due };
  const used = Math.min(credit, due);
  return { amountPaid: due - used, credit: credit - used };
}
