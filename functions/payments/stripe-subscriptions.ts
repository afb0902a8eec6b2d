/**
 * The subscription half of the Stripe adapter: reading a customer's subscriptions and changing one
 * (cancel at the period end or now, a prorated price change, a change kept for the period end in a
 * subscription schedule). Every answer is re-read with `SUBSCRIPTION_EXPAND`, so it carries the
 * newest invoice and any scheduled change.
 */
import type Stripe from 'stripe';
import type { Logger } from '../platform/logger.ts';
import type { PaymentProvider } from './provider.ts';
import { orNull } from './stripe-client.ts';
import { SUBSCRIPTION_EXPAND, toSubscription } from './stripe-objects.ts';

/** The port's subscription calls. */
export type StripeSubscriptionCalls = Pick<
  PaymentProvider,
  'retrieveSubscription' | 'listSubscriptions' | 'setCancelAtPeriodEnd' | 'cancelNow' | 'changePrice' | 'schedulePrice' | 'applyCoupon'
>;

/** The port's subscription calls on this SDK client. */
export function createStripeSubscriptionCalls(stripe: Stripe, log?: Logger): StripeSubscriptionCalls {
  return {
    async retrieveSubscription(id) {
      const subscription = await orNull(stripe.subscriptions.retrieve(id, { expand: SUBSCRIPTION_EXPAND }));
      return subscription && toSubscription(subscription, log);
    },

    async listSubscriptions(customerId) {
      // Without status 'all' Stripe leaves canceled subscriptions out; the SDK pages through the rest.
      const all = await stripe.subscriptions.list({ customer: customerId, status: 'all', limit: 100 }).autoPagingToArray({ limit: 10_000 });
      // A list cannot expand a schedule's prices (four levels at most): read those few again.
      return Promise.all(
        all.map(async (s) =>
          s.schedule
            ? toSubscription(await stripe.subscriptions.retrieve(s.id, { expand: SUBSCRIPTION_EXPAND }), log)
            : toSubscription(s, log),
        ),
      );
    },

    async setCancelAtPeriodEnd(subscriptionId, cancel) {
      const expand = SUBSCRIPTION_EXPAND;
      if (cancel) return toSubscription(await stripe.subscriptions.update(subscriptionId, { cancel_at_period_end: true, expand }), log);
      // Flexible billing (the portal) schedules the end through cancel_at alone: undo clears that too.
      const current = await stripe.subscriptions.retrieve(subscriptionId);
      const params: Stripe.SubscriptionUpdateParams = {
        cancel_at_period_end: false,
        ...(current.cancel_at ? { cancel_at: '' } : {}),
        expand,
      };
      return toSubscription(await stripe.subscriptions.update(subscriptionId, params), log);
    },

    async applyCoupon(subscriptionId, couponId) {
      return toSubscription(
        await stripe.subscriptions.update(subscriptionId, { discounts: [{ coupon: couponId }], expand: SUBSCRIPTION_EXPAND }),
        log,
      );
    },

    async cancelNow(subscriptionId) {
      return toSubscription(await stripe.subscriptions.cancel(subscriptionId), log);
    },

    async changePrice(subscriptionId, { priceId, idempotencyKey }) {
      const current = await stripe.subscriptions.retrieve(subscriptionId);
      const item = current.items.data[0];
      if (!item) throw new Error(`Stripe subscription ${subscriptionId} has no items`);
      // always_invoice bills the prorated difference now; pending_if_incomplete applies the change only once that is paid.
      const updated = await stripe.subscriptions.update(
        subscriptionId,
        {
          items: [{ id: item.id, price: priceId }],
          proration_behavior: 'always_invoice',
          payment_behavior: 'pending_if_incomplete',
          expand: SUBSCRIPTION_EXPAND,
        },
        { idempotencyKey },
      );
      return { subscription: toSubscription(updated, log), paid: !updated.pending_update };
    },

    async schedulePrice(subscriptionId, price) {
      const current = await stripe.subscriptions.retrieve(subscriptionId, { expand: ['schedule'] });
      const existing = current.schedule && typeof current.schedule === 'object' ? current.schedule : null;
      const running = existing && ['active', 'not_started'].includes(existing.status) ? existing : null;
      if (!price) {
        if (running) await stripe.subscriptionSchedules.release(running.id);
        return toSubscription(await stripe.subscriptions.retrieve(subscriptionId, { expand: SUBSCRIPTION_EXPAND }), log);
      }
      const item = current.items.data[0];
      if (!item) throw new Error(`Stripe subscription ${subscriptionId} has no items`);
      const schedule = running ?? (await stripe.subscriptionSchedules.create({ from_subscription: subscriptionId }));
      // The current phase runs to the period end on today's price; the next one renews on the new price, then the schedule lets go.
      await stripe.subscriptionSchedules.update(schedule.id, {
        end_behavior: 'release',
        proration_behavior: 'none',
        phases: [
          {
            items: [{ price: item.price.id, quantity: item.quantity ?? 1 }],
            start_date: schedule.current_phase?.start_date ?? item.current_period_start,
            end_date: item.current_period_end,
          },
          { items: [{ price: price.id, quantity: 1 }], duration: { interval: price.interval, interval_count: 1 } },
        ],
      });
      return toSubscription(await stripe.subscriptions.retrieve(subscriptionId, { expand: SUBSCRIPTION_EXPAND }), log);
    },
  };
}
