/**
 * Retention offers at the cancel confirmation (issue 34): the newest open retention offer for the
 * member's plan that they have not used, and taking it, which puts its coupon on the live
 * subscription from the next invoice. Once a cancellation is scheduled, the member used the offer,
 * or a discount already runs (a better sign-up offer must not be replaced), taking it answers 409
 * (Ghost let an offer be taken after cancelling: its PR 26349); a provider failure gives it back.
 */
import type { AccessLevel } from '#shared/access.ts';
import { discountedCents, offerTerms } from '#shared/payments/offers.ts';
import { AppError } from '../platform/errors.ts';
import type { Viewer } from '../users/index.ts';
import type { SubscriptionJson } from './answers.ts';
import { planForLookupKey } from './catalog.ts';
import type { BillingContext } from './context.ts';
import type { OfferService } from './offers/service.ts';
import { createOwnership } from './ownership.ts';
import { grants, type ProviderSubscription } from './provider.ts';

interface RetentionParts {
  offers: OfferService;
  sync: (subscriptionId: string) => Promise<AccessLevel | undefined>;
  ourCopy: (subscriptionId: string) => Promise<SubscriptionJson>;
}

const cancelling = (s: ProviderSubscription) => s.cancelAtPeriodEnd || Boolean(s.cancelAt);

export function createRetention({ db, provider, clock }: BillingContext, { offers, sync, ourCopy }: RetentionParts) {
  const { ownSubscription } = createOwnership({ db, provider });

  return {
    /** GET …/retention-offer: what the cancel confirmation may offer, or null (none, or already cancelling). */
    async offerFor(viewer: NonNullable<Viewer>, subscriptionId: string) {
      const found = await ownSubscription(viewer, subscriptionId);
      // A discount already running (a sign-up offer's) is never replaced by a retention offer's.
      if (!grants(found, clock()) || cancelling(found) || found.discount) return { offer: null };
      const plan = planForLookupKey(found.price.lookupKey);
      const offer = await offers.retentionFor(viewer.id, plan);
      if (!offer || !plan) return { offer: null };
      return {
        offer: {
          code: offer.code,
          terms: offerTerms(offer),
          percentOff: offer.percentOff,
          amountOff: offer.amountOff,
          duration: offer.duration,
          durationInMonths: offer.durationInMonths,
          amount: plan.amount,
          discounted: discountedCents(plan.amount, offer),
          interval: plan.interval,
        },
      };
    },

    /** POST …/retention-offer: the offer on the live subscription; 409 once cancelling or used. */
    async accept(viewer: NonNullable<Viewer>, subscriptionId: string, code: string): Promise<SubscriptionJson> {
      const found = await ownSubscription(viewer, subscriptionId);
      if (!grants(found, clock())) throw new AppError('conflict', 'This subscription has already ended.');
      if (cancelling(found))
        throw new AppError('conflict', 'Your cancellation is already scheduled, so this offer is no longer available.');
      if (found.discount) throw new AppError('conflict', 'Your plan already has a discount running, so this offer is not available.');
      const offer = await offers.openOffer(code, 'retention', planForLookupKey(found.price.lookupKey), 'conflict');
      // Counted first (once per member, never past the maximum), given back if the provider cannot apply it.
      const redemption = await db.transaction((tx) => offers.redeemRetention(tx, offer, viewer.id, found.id));
      try {
        await provider.applyCoupon(found.id, offer.couponId);
      } catch (err) {
        await offers.giveBack(redemption);
        throw err;
      }
      await sync(found.id);
      return ourCopy(found.id);
    },
  };
}
