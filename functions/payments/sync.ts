/**
 * Our copy of a subscription, and the access that follows the money. The provider is the source of
 * truth: `sync` re-reads the subscription from it, writes our copy under a lock on the member's
 * profile, keeps the subscription's row in the grants ledger in step (grants/ledger.ts derives the
 * level from it) and sends mails for what changed, so duplicates and out-of-order events end right
 * and no change is mailed twice.
 */
import type { AccessLevel } from '#shared/access.ts';
import { planChange } from '#shared/pricing.ts';
import type { DbOrTx } from '../platform/db/client.ts';
import { memberAccess } from '../users/index.ts';
import type { ProfileRow } from '../users/index.ts';
import { scheduledOf } from './answers.ts';
import { planFor, planForLookupKey, type PlanPrice } from './catalog.ts';
import { BILLING_ACTOR, type BillingContext } from './context.ts';
import type { AccessLedger } from './grants/ledger.ts';
import type { OfferService } from './offers/service.ts';
import type { Gifts } from './gifts/service.ts';
import { grants, type ProviderSubscription } from './provider.ts';
import { recordRevenue } from './revenue/record.ts';
import { createPaymentStore } from './store.ts';
import type { SubscriptionRow } from './tables.ts';
import { subscriptionEvents } from './outbound-events.ts';

type BillingMail = 'billing-activated' | 'billing-cancel-scheduled' | 'billing-payment-failed' | 'billing-ended' | 'billing-upgraded';

/** Our copy of a subscription as the provider has it now. */
function copyOf(fresh: ProviderSubscription, userId: string, plan: PlanPrice | undefined, now: Date) {
  const scheduled = scheduledOf(fresh);
  return {
    id: fresh.id,
    userId,
    customerId: fresh.customerId,
    status: fresh.status,
    tierId: plan?.tierId ?? null,
    accessLevel: plan?.accessLevel ?? 'free',
    amount: fresh.price.unitAmount,
    interval: fresh.price.interval ?? 'month',
    cancelAtPeriodEnd: fresh.cancelAtPeriodEnd,
    cancelAt: fresh.cancelAt,
    currentPeriodEnd: fresh.currentPeriodEnd,
    endedAt: fresh.endedAt,
    scheduledTierId: scheduled?.plan.tierId ?? null,
    scheduledAt: scheduled?.at ?? null,
    trialEnd: fresh.trialEnd,
    updatedAt: now,
  };
}

/** One sync's change: the member, our copy before and after, the plan, and the provider's subscription. */
interface Change {
  owner: ProfileRow;
  before: SubscriptionRow | undefined;
  row: ReturnType<typeof copyOf>;
  plan: PlanPrice | undefined;
  fresh: ProviderSubscription;
  now: Date;
}

/** The member a subscription is for, locked: by our user id in its metadata, else by its customer. */
async function lockOwner(tx: DbOrTx, fresh: ProviderSubscription): Promise<ProfileRow | undefined> {
  const members = memberAccess(tx);
  return (fresh.metadata.userId && (await members.lock(fresh.metadata.userId))) || (await members.lockByCustomer(fresh.customerId));
}

/** Mails follow transitions of our copy, so a repeated or late event sends nothing new. */
async function mailChanges(
  { outbox, testMode }: Pick<BillingContext, 'outbox' | 'testMode'>,
  tx: DbOrTx,
  { owner, before, row, plan, fresh, now }: Change,
): Promise<void> {
  // Whether it granted when our copy was written (a `cancel_at` passed since still ends it now).
  const was = before && grants(before, before.updatedAt);
  const is = grants(row, now);
  const scheduled = scheduledOf(fresh);
  const mail = (template: BillingMail, extra: { charged?: number } = {}) =>
    outbox.enqueue(tx, {
      to: owner.email,
      template,
      userId: owner.id,
      data: {
        language: owner.language,
        planName: plan?.name ?? 'Unknown plan',
        amount: row.amount,
        interval: row.interval,
        date: (row.cancelAt ?? row.currentPeriodEnd).toISOString(),
        testMode,
        ...extra,
      },
    });
  const pending = row.cancelAtPeriodEnd || Boolean(row.cancelAt);
  const wasPending = Boolean(before && (before.cancelAtPeriodEnd || before.cancelAt));
  const previous = before?.tierId ? planFor(before.tierId) : undefined;
  if (is && !was) await mail('billing-activated');
  else if (is && pending && !wasPending) await mail('billing-cancel-scheduled');
  // A plan raised while it grants (an upgrade here or in the provider's portal): the receipt, with what the proration took.
  if (was && is && plan && previous && planChange(previous, plan) === 'up') {
    const invoice = fresh.latestInvoice?.billingReason === 'subscription_update' ? fresh.latestInvoice : null;
    await mail('billing-upgraded', invoice ? { charged: invoice.amountPaid } : {});
  }
  if (is && scheduled && scheduled.plan.tierId !== before?.scheduledTierId) {
    await outbox.enqueue(tx, {
      to: owner.email,
      template: 'billing-change-scheduled',
      userId: owner.id,
      data: {
        language: owner.language,
        planName: scheduled.plan.name,
        amount: scheduled.plan.amount,
        interval: scheduled.plan.interval,
        date: scheduled.at.toISOString(),
        testMode,
      },
    });
  }
  if (row.status === 'past_due' && before?.status !== 'past_due') await mail('billing-payment-failed');
  if (was && !is) await mail('billing-ended');
}

export function createSubscriptionSync(
  { db, provider, outbox, logger, clock, testMode, webhooks }: BillingContext,
  { ledger, offers, gifts }: { ledger: AccessLedger; offers: Pick<OfferService, 'follow'>; gifts: Pick<Gifts, 'startWaiting'> },
) {
  /**
   * Writes our copy of one subscription as the provider has it now, recomputes the member's level
   * and records what changed (mails, audit), all in one transaction under the profile's lock.
   * Undefined when the provider or we do not know whose it is.
   */
  async function sync(subscriptionId: string): Promise<AccessLevel | undefined> {
    const fresh = await provider.retrieveSubscription(subscriptionId);
    if (!fresh) {
      logger.warn({ subscriptionId }, 'billing: the provider does not know this subscription');
      return undefined;
    }
    const now = clock();
    return db.transaction(async (tx) => {
      const owner = await lockOwner(tx, fresh);
      if (!owner) {
        logger.warn({ subscriptionId, customerId: fresh.customerId }, 'billing: no member for this subscription');
        return undefined;
      }
      const plan = planForLookupKey(fresh.price.lookupKey);
      if (!plan) logger.warn({ subscriptionId, lookupKey: fresh.price.lookupKey }, 'billing: unknown price; it grants nothing');
      const store = createPaymentStore(tx);
      const members = memberAccess(tx);
      const before = await store.subscription(fresh.id);
      const row = copyOf(fresh, owner.id, plan, now);
      await store.saveSubscription(row);
      // The revenue history: a change of what it brings a month, a newly paid invoice (revenue/record.ts).
      await recordRevenue(tx, { userId: owner.id, before, row, fresh, now });
      if (!owner.customerId) await members.setCustomer(owner.id, fresh.customerId);
      await mailChanges({ outbox, testMode }, tx, { owner, before, row, plan, fresh, now });
      await subscriptionEvents(webhooks, tx, { owner, before, row, now });
      // An offer discounting it makes its stretch of access the offer's in the ledger.
      const offer = await offers.follow(tx, owner.id, row, fresh);
      const cause = { actorId: BILLING_ACTOR, action: 'access_level.billing', detail: { subscriptionId: fresh.id, status: fresh.status } };
      const level = await ledger.followSubscription(tx, owner, row, cause, offer);
      // Paid access over: gifts redeemed while it ran start now, for their full length.
      const stillPaying = (await store.subscriptionsOf(owner.id)).some((s) => grants(s, now) && s.accessLevel !== 'free');
      if (!stillPaying && (await gifts.startWaiting(tx, owner, now))) return ledger.recompute(tx, owner, cause, now);
      return level;
    });
  }

  return { sync };
}
