/**
 * Billing: plans through the provider's hosted checkout, one-time purchases, and the access level
 * that follows the money. The provider is the source of truth: confirm, webhooks and reads all
 * re-read state from it, then `sync` writes our copy (sync.ts). This file only assembles the parts,
 * one job each: checkout.ts, subscriptions.ts, plan-changes.ts, purchases.ts and events.ts, over
 * one store (store.ts) and the users domain's access module for profiles.
 */
import { createCheckout } from './checkout.ts';
import { billingContext, type BillingDeps } from './context.ts';
import { createEventHandler } from './events.ts';
import { createGifts } from './gifts/service.ts';
import { createGrantService } from './grants/service.ts';
import { createOfferService } from './offers/service.ts';
import { profileOf } from './ownership.ts';
import { createPlanChanges } from './plan-changes.ts';
import { createPurchases } from './purchases.ts';
import { createRevenueHistory } from './revenue/history.ts';
import { createRetention } from './retention.ts';
import { createSubscriptions } from './subscriptions.ts';
import { createSubscriptionSync } from './sync.ts';
import { createTrialNotices } from './trials.ts';

export function createBillingService(deps: BillingDeps) {
  const context = billingContext(deps);
  const { db, provider, clock } = context;
  const access = createGrantService(context);
  const offers = createOfferService({ db, provider, clock });
  const gifts = createGifts(context, access.ledger);
  const { sync } = createSubscriptionSync(context, { ledger: access.ledger, offers, gifts });
  const purchases = createPurchases(context);
  const checkout = createCheckout(context, { sync, purchases, offers, gifts });
  const subscriptions = createSubscriptions(context, { sync });
  const trials = createTrialNotices(context);
  const retention = createRetention(context, { offers, sync, ourCopy: subscriptions.ourCopy });
  const plans = createPlanChanges({
    provider,
    clock,
    ownSubscription: subscriptions.ownSubscription,
    sync,
    ourCopy: subscriptions.ourCopy,
    profileOf: (id) => profileOf(db, id),
  });

  return {
    provider,

    /** 'test' when no real money moves (the embedded provider, a Stripe test key). */
    mode: provider.mode,

    /** The grants ledger: the level's one derivation, comps, the sweep of ends, the members' and staff's lists. */
    access,

    /** Offers: staff's codes, their public terms, retention offers, redemptions and revenue. */
    offers,

    /** The revenue history, read-only: monthly movements, payments, trials and offers (analytics reads it). */
    revenue: createRevenueHistory(db),

    /** Gift memberships: bought (through createSession's `gift`), previewed, redeemed, listed for their buyer. */
    gifts,

    /**
     * Billing's clock, on every instance and in each serverless round: grants whose end has come (the
     * level derived again, their mails), trials ending in three days (mailed), and offers' redemptions
     * held by checkouts given up a day ago (given back). Answers how much it did.
     */
    async tick(): Promise<number> {
      return (await access.sweep.tick()) + (await trials.tick()) + (await offers.releaseStale());
    },

    /** POST create-session: a plan (refused while another one grants access) or a one-time item. */
    createSession: checkout.createSession,

    /** POST confirm: verifies with the provider that the caller's session is paid; idempotent. */
    confirm: checkout.confirm,

    /** GET subscriptions/{customerId}: the subscription to show (the one granting access, else the latest), or null. */
    subscriptionFor: subscriptions.subscriptionFor,

    /** POST subscriptions/{id}/cancel: cancel at the period end, for the owner only. */
    cancel: subscriptions.cancel,

    /** GET/POST subscriptions/{id}/retention-offer: the cancel confirmation's offer, and taking it. */
    retentionOffer: retention.offerFor,
    acceptRetention: retention.accept,

    /** POST subscriptions/{id}/change: another plan, billed as a customer expects (see plan-changes.ts). */
    changePlan: plans.change,

    /** GET /api/payments/subscription: the caller's own plan as our copy has it, or null. */
    mine: subscriptions.mine,

    /** POST create-portal-session: the provider's management page for the caller's own customer. */
    portal: subscriptions.portal,

    /** GET purchases: what the member bought, newest first. */
    purchases: purchases.list,

    /** Whether the member bought this item (purchases open items whatever the level). */
    owns: purchases.owns,

    /** One verified provider event: ids are read from it, state from the provider. False when it changed nothing. */
    handleEvent: createEventHandler({ applyCheckout: checkout.applyCheckout, sync }),

    /** Re-reads one subscription from the provider and applies it (our copy, the level, mails). */
    sync,

    /** Ends the member's paid subscriptions now (before their account is deleted). */
    cancelAll: subscriptions.cancelAll,
  };
}

export type BillingService = ReturnType<typeof createBillingService>;
