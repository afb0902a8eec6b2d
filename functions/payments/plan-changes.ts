/**
 * Plan changes for a member whose subscription grants access (no rule in the spec; Stripe's customer
 * portal is the model): always through the existing subscription, never a second checkout.
 *
 * - Up (a higher level, or the same level from monthly to yearly: `planChange` in
 *   src/lib/shared/pricing.ts): the price changes now and the prorated difference is charged at once; the
 *   level rises on the sync that follows, which also mails the upgrade receipt. A declined charge
 *   changes nothing (402).
 * - Down (a lower level, or yearly to monthly): scheduled for the period end, so no paid day is lost;
 *   the level drops only when the renewal applies it, through the provider's event.
 * - The current plan again: withdraws a scheduled change (and a pending cancel).
 * - Free: the plan is cancelled at the period end, like Cancel Subscription.
 * Choosing a paid plan while a cancel is pending withdraws the cancel: switching means staying.
 */
import { findTier, isPaid, planChange } from '#shared/pricing.ts';
import type { AccessLevel } from '#shared/access.ts';
import type { ProfileRow } from '../users/index.ts';
import { AppError } from '../platform/errors.ts';
import type { Viewer } from '../users/index.ts';
import { planFor, planForLookupKey } from './catalog.ts';
import { grants, type PaymentProvider, type ProviderSubscription } from './provider.ts';
import type { SubscriptionJson } from './answers.ts';

export type PlanChangeKind = 'upgraded' | 'scheduled' | 'kept';

/** What a plan change answers: what happened, the subscription after it, the level now, and the prorated charge (cents). */
export interface PlanChangeAnswer {
  change: PlanChangeKind;
  subscription: SubscriptionJson;
  accessLevel: AccessLevel;
  charged?: number;
}

export const PAST_DUE_CHANGE = 'Your last payment did not go through. Update your card in Manage Subscription, then change your plan.';
export const UPGRADE_DECLINED =
  'Your card was declined, so your plan has not changed and nothing was charged. Update your card in Manage Subscription and try again.';

interface PlanChangeDeps {
  provider: PaymentProvider;
  clock: () => Date;
  ownSubscription: (viewer: NonNullable<Viewer>, subscriptionId: string) => Promise<ProviderSubscription>;
  sync: (subscriptionId: string) => Promise<AccessLevel | undefined>;
  ourCopy: (subscriptionId: string) => Promise<SubscriptionJson>;
  profileOf: (userId: string) => Promise<ProfileRow>;
}

export function createPlanChanges({ provider, clock, ownSubscription, sync, ourCopy, profileOf }: PlanChangeDeps) {
  /** Syncs our copy from the provider and answers what the browser shows next. */
  async function settled(viewer: NonNullable<Viewer>, id: string, change: PlanChangeKind, charged?: number): Promise<PlanChangeAnswer> {
    const level = (await sync(id)) ?? (await profileOf(viewer.id)).accessLevel;
    return { change, subscription: await ourCopy(id), accessLevel: level, ...(charged !== undefined ? { charged } : {}) };
  }

  /** The target of a change: a paid plan by tier id (monthly or yearly), 'free', or a 422. */
  function targetOf(priceId: string) {
    const tier = findTier(priceId);
    if (tier && !isPaid(tier) && tier.id === priceId) return 'free' as const;
    const plan = planFor(priceId);
    if (!plan) throw new AppError('validation_failed', 'Choose one of the plans.', { fields: { priceId: ['Unknown plan'] } });
    return plan;
  }

  /** The provider's price for a plan, or a 503 when the provider does not sell it. */
  async function providerPrice(lookupKey: string) {
    const [price] = await provider.pricesByLookupKeys([lookupKey]);
    if (!price) throw new AppError('unavailable', 'This plan cannot be bought right now.');
    return price;
  }

  async function change(viewer: NonNullable<Viewer>, subscriptionId: string, priceId: string): Promise<PlanChangeAnswer> {
    const target = targetOf(priceId);
    const found = await ownSubscription(viewer, subscriptionId);
    if (!grants(found, clock())) throw new AppError('conflict', 'This subscription has ended. Choose a plan to subscribe again.');
    if (found.status === 'past_due') throw new AppError('conflict', PAST_DUE_CHANGE);
    const current = planForLookupKey(found.price.lookupKey);
    if (!current) throw new AppError('conflict', 'This subscription is on a plan that cannot be changed here.');
    const canceling = found.cancelAtPeriodEnd || Boolean(found.cancelAt);

    if (target === 'free') {
      if (found.scheduledChange) await provider.schedulePrice(found.id, null);
      if (!canceling) await provider.setCancelAtPeriodEnd(found.id, true);
      return settled(viewer, found.id, 'scheduled');
    }
    const direction = planChange(current, target);
    if (direction === 'same') {
      if (!found.scheduledChange && !canceling) throw new AppError('conflict', 'You are already on this plan.');
      if (found.scheduledChange) await provider.schedulePrice(found.id, null);
      if (canceling) await provider.setCancelAtPeriodEnd(found.id, false);
      return settled(viewer, found.id, 'kept');
    }
    const price = await providerPrice(target.lookupKey);
    if (direction === 'down') {
      if (canceling) await provider.setCancelAtPeriodEnd(found.id, false);
      await provider.schedulePrice(found.id, { id: price.id, interval: target.interval });
      return settled(viewer, found.id, 'scheduled');
    }

    // Up: a change scheduled for the period end gives way (Stripe refuses price changes under a schedule).
    const withdrawn = found.scheduledChange;
    if (withdrawn) await provider.schedulePrice(found.id, null);
    const periodEnd = Math.floor(found.currentPeriodEnd.getTime() / 1000);
    // Nothing changed after all (declined, or the provider failed): the withdrawn change is held again.
    const restore = () =>
      withdrawn ? provider.schedulePrice(found.id, { id: withdrawn.price.id, interval: withdrawn.price.interval ?? 'month' }) : undefined;
    let result: Awaited<ReturnType<PaymentProvider['changePrice']>>;
    try {
      result = await provider.changePrice(found.id, {
        priceId: price.id,
        // A retried request replays the first answer; a later change of the same plans (another period) is a new one.
        idempotencyKey: `plan-change-${found.id}-${current.lookupKey}-${target.lookupKey}-${periodEnd}`,
      });
    } catch (err) {
      await Promise.resolve(restore()).catch(() => undefined);
      throw err;
    }
    if (!result.paid) {
      await restore();
      await sync(found.id);
      throw new AppError('payment_required', UPGRADE_DECLINED);
    }
    if (canceling) await provider.setCancelAtPeriodEnd(found.id, false);
    const invoice = result.subscription.latestInvoice;
    return settled(viewer, found.id, 'upgraded', invoice?.billingReason === 'subscription_update' ? invoice.amountPaid : undefined);
  }

  return { change };
}
