/**
 * The embedded provider's subscriptions, as Stripe runs them for the port: read, cancel at the
 * period end or now, an upgrade now (prorated and charged at once, as Stripe bills it with
 * `always_invoice` and pending updates: proration.ts has the arithmetic) and a plan held for the
 * renewal. Each change raises Stripe's event in its transaction. Renewals are the clock's (clock.ts).
 */
import { AppError } from '../../platform/errors.ts';
import { planForLookupKey, type PlanPrice } from '../catalog.ts';
import type { PaymentProvider, ProviderSubscription } from '../provider.ts';
import type { EmbeddedContext } from './context.ts';
import {
  discountFrom,
  invoiceObject,
  newId,
  newInvoice,
  nextPeriodEnd,
  planByPriceId,
  subscriptionObject,
  toSubscription,
} from './objects.ts';
import { prorate, settle } from './proration.ts';
import { createEmbeddedStore, type SubRow } from './store.ts';

/** Applies a change and raises its event in one transaction; delivery follows. */
async function updateSub(
  { db, events }: EmbeddedContext,
  id: string,
  change: Partial<SubRow>,
  eventType = 'customer.subscription.updated',
): Promise<ProviderSubscription> {
  const row = await db.transaction(async (tx) => {
    const updated = await createEmbeddedStore(tx).updateSubscription(id, change);
    if (!updated) throw new AppError('not_found', 'No such subscription.');
    await events.raise(tx, eventType, subscriptionObject(updated));
    return updated;
  });
  void events.deliverPending();
  return toSubscription(row);
}

/**
 * An upgrade now, as Stripe bills it with `always_invoice` and pending updates: the prorated
 * difference is charged at once (credit first); a card that fails later refuses the charge and
 * nothing changes; an interval change starts a new period now.
 */
async function changePlanNow(
  { db, clock, events }: EmbeddedContext,
  id: string,
  plan: PlanPrice,
): Promise<{ subscription: ProviderSubscription; paid: boolean }> {
  const outcome = await db.transaction(async (tx) => {
    const store = createEmbeddedStore(tx);
    const row = await store.lockSubscription(id);
    if (!row) throw new AppError('not_found', 'No such subscription.');
    const customer = await store.lockCustomer(row.customerId);
    const now = clock();
    const from = planForLookupKey(row.lookupKey);
    const restart = from?.interval !== plan.interval;
    const due = prorate({
      oldAmount: from?.amount ?? 0,
      newAmount: plan.amount,
      periodStart: row.currentPeriodStart,
      periodEnd: row.currentPeriodEnd,
      now,
      restart,
    });
    const bill = settle(due, customer?.credit ?? 0);
    if (bill.amountPaid > 0 && customer?.cardFailsLater) {
      await events.raise(tx, 'invoice.payment_failed', {
        ...invoiceObject(row),
        id: newId('in'),
        amount_paid: 0,
        billing_reason: 'subscription_update',
      });
      return { row, paid: false };
    }
    await store.updateCustomer(row.customerId, { credit: bill.credit });
    const updated = (await store.updateSubscription(id, {
      lookupKey: plan.lookupKey,
      pendingLookupKey: null,
      latestInvoice: newInvoice(bill.amountPaid, 'subscription_update'),
      ...(restart ? { currentPeriodStart: now, currentPeriodEnd: nextPeriodEnd(now, plan) } : {}),
    }))!;
    await events.raise(tx, 'customer.subscription.updated', subscriptionObject(updated));
    await events.raise(tx, 'invoice.paid', invoiceObject(updated));
    return { row: updated, paid: true };
  });
  void events.deliverPending();
  return { subscription: toSubscription(outcome.row), paid: outcome.paid };
}

export function createSubscriptionOps(deps: EmbeddedContext) {
  const { db, clock } = deps;

  const ops = {
    async retrieveSubscription(id) {
      const row = await createEmbeddedStore(db).subscription(id);
      return row ? toSubscription(row) : null;
    },

    async listSubscriptions(customerId) {
      return (await createEmbeddedStore(db).subscriptionsOf(customerId)).map(toSubscription);
    },

    setCancelAtPeriodEnd: (id, cancel) => updateSub(deps, id, { cancelAtPeriodEnd: cancel }),

    cancelNow: (id) =>
      updateSub(deps, id, { status: 'canceled', endedAt: clock(), cancelAtPeriodEnd: false }, 'customer.subscription.deleted'),

    changePrice: (id, { priceId }) => {
      const plan = planByPriceId(priceId);
      if (!plan) throw new Error(`No such price: ${priceId}`);
      return changePlanNow(deps, id, plan);
    },

    schedulePrice(id, price) {
      const plan = price ? planByPriceId(price.id) : undefined;
      if (price && !plan) throw new Error(`No such price: ${price.id}`);
      return updateSub(deps, id, { pendingLookupKey: plan?.lookupKey ?? null });
    },

    async createCoupon(coupon) {
      const row = await createEmbeddedStore(db).addCouponOnce({
        id: coupon.id,
        name: coupon.name,
        percentOff: coupon.percentOff ?? null,
        amountOff: coupon.amountOff ?? null,
        duration: coupon.duration,
        durationInMonths: coupon.durationInMonths ?? null,
      });
      return { id: row.id };
    },

    /** From the next invoice on, replacing any coupon (Stripe's `discounts` on a subscription update). */
    async applyCoupon(id, couponId) {
      const coupon = await createEmbeddedStore(db).coupon(couponId);
      if (!coupon) throw new Error(`No such coupon: ${couponId}`);
      return updateSub(deps, id, { discount: discountFrom(coupon, clock()) });
    },
  } satisfies Pick<
    PaymentProvider,
    | 'retrieveSubscription'
    | 'listSubscriptions'
    | 'setCancelAtPeriodEnd'
    | 'cancelNow'
    | 'changePrice'
    | 'schedulePrice'
    | 'createCoupon'
    | 'applyCoupon'
  >;

  return {
    ...ops,
    /** Applies a change and raises its event in one transaction; delivery follows. */
    updateSub: (id: string, change: Partial<SubRow>, eventType?: string) => updateSub(deps, id, change, eventType),
    /** An upgrade now, charged at once (see changePlanNow). */
    changePlanNow: (id: string, plan: PlanPrice) => changePlanNow(deps, id, plan),
  };
}

export type SubscriptionOps = ReturnType<typeof createSubscriptionOps>;
