/**
 * The embedded provider's time: subscriptions whose period ended are renewed (paid, using the
 * customer's credit first), go past due (a card that fails later) and then end, or end as a cancel
 * at the period end asked; a scheduled plan takes over at the renewal. `advance` runs on the
 * minute for every subscription; `advanceToPeriodEnd` is the test clock for one (Stripe's test
 * clocks), used by the portal page and browser tests.
 */
import type { DbOrTx } from '../../platform/db/client.ts';
import { AppError } from '../../platform/errors.ts';
import { planForLookupKey } from '../catalog.ts';
import type { ProviderSubscription } from '../provider.ts';
import type { EmbeddedContext } from './context.ts';
import {
  discountApplies,
  discounted,
  GRANTING,
  invoiceObject,
  newInvoice,
  nextPeriodEnd,
  subscriptionObject,
  toSubscription,
} from './objects.ts';
import { settle } from './proration.ts';
import { createEmbeddedStore, type CustomerRow, type SubRow } from './store.ts';

/** What one ended period turns into, and the events it raises. */
function periodEnded(
  current: SubRow,
  customer: CustomerRow | undefined,
  credit: number,
): { change: Partial<SubRow>; types: string[]; credit: number } {
  if (current.cancelAtPeriodEnd) {
    return {
      change: { status: 'canceled', endedAt: current.currentPeriodEnd, pendingLookupKey: null },
      types: ['customer.subscription.deleted'],
      credit,
    };
  }
  if (customer?.cardFailsLater && current.status === 'past_due') {
    return {
      change: { status: 'canceled', endedAt: current.currentPeriodEnd },
      types: ['invoice.payment_failed', 'customer.subscription.deleted'],
      credit,
    };
  }
  const lookupKey = current.pendingLookupKey ?? current.lookupKey;
  const plan = planForLookupKey(lookupKey);
  // A coupon still running takes its money off (a trial's end is the first charge); a once coupon is then used up.
  const discount = discountApplies(current.discount, current.currentPeriodEnd) ? current.discount : null;
  const bill = settle(discounted(plan?.amount ?? 0, discount), credit);
  const failed = Boolean(customer?.cardFailsLater) && bill.amountPaid > 0;
  return {
    change: {
      status: failed ? 'past_due' : 'active',
      lookupKey,
      pendingLookupKey: null,
      currentPeriodStart: current.currentPeriodEnd,
      currentPeriodEnd: nextPeriodEnd(current.currentPeriodEnd, plan),
      ...(failed ? {} : { latestInvoice: newInvoice(bill.amountPaid, 'subscription_cycle') }),
      ...(failed ? {} : { discount: discount && discount.duration !== 'once' ? discount : null }),
    },
    types: [failed ? 'invoice.payment_failed' : 'invoice.paid', 'customer.subscription.updated'],
    credit: failed ? credit : bill.credit,
  };
}

export function createTestClock({ db, clock, events }: EmbeddedContext) {
  /**
   * Renews a locked subscription through every period that ended by `now`: the plan scheduled for
   * the renewal takes over (a downgrade), the renewal invoice uses the customer's credit first, a
   * failing card goes past due and then ends it, and a cancel at period end ends it.
   */
  async function renew(tx: DbOrTx, row: SubRow, now: Date): Promise<SubRow> {
    const store = createEmbeddedStore(tx);
    const customer = await store.lockCustomer(row.customerId);
    let credit = customer?.credit ?? 0;
    let current = row;
    while (GRANTING.includes(current.status) && current.currentPeriodEnd <= now) {
      const next = periodEnded(current, customer, credit);
      credit = next.credit;
      current = (await store.updateSubscription(row.id, next.change))!;
      for (const type of next.types)
        await events.raise(tx, type, type.startsWith('invoice.') ? invoiceObject(current) : subscriptionObject(current));
    }
    if (customer && credit !== customer.credit) await store.updateCustomer(customer.id, { credit });
    return current;
  }

  return {
    /**
     * Moves every subscription whose period has ended to where the clock says it is: renewed (paid),
     * past due (the card fails; a second failed period ends it), or ended (cancel at period end).
     * Answers how many subscriptions changed.
     */
    async advance(): Promise<number> {
      const now = clock();
      const due = await createEmbeddedStore(db).endedPeriods(GRANTING, now);
      for (const id of due) {
        await db.transaction(async (tx) => {
          const row = await createEmbeddedStore(tx).lockSubscription(id);
          if (row) await renew(tx, row, now);
        });
      }
      if (due.length) await events.deliverPending();
      return due.length;
    },

    /**
     * The test clock, for one subscription (what Stripe's test clocks do for a customer): moves its
     * current period so that it ends now, then renews it as `advance` would at that moment (a scheduled
     * plan takes over, a cancel ends it).
     */
    async advanceToPeriodEnd(id: string): Promise<ProviderSubscription> {
      const row = await db.transaction(async (tx) => {
        const store = createEmbeddedStore(tx);
        const locked = await store.lockSubscription(id);
        if (!locked) throw new AppError('not_found', 'No such subscription.');
        const now = clock();
        const early = Math.max(locked.currentPeriodEnd.getTime() - now.getTime(), 0);
        const moved = await store.updateSubscription(id, {
          currentPeriodStart: new Date(locked.currentPeriodStart.getTime() - early),
          currentPeriodEnd: new Date(locked.currentPeriodEnd.getTime() - early),
        });
        return renew(tx, moved!, now);
      });
      await events.deliverPending();
      return toSubscription(row);
    },
  };
}

export type TestClock = ReturnType<typeof createTestClock>;
