/**
 * The embedded provider's billing portal (the test portal page): a session per visit, the
 * customer's subscriptions and the plans to switch to, and what the page does to a subscription:
 * cancel at the period end, resume, switch plan (as Stripe's portal does, set up like our pricing
 * page), or move the test clock to the period end.
 */
import { planChange } from '#shared/pricing.ts';
import { AppError } from '../../platform/errors.ts';
import { PLAN_PRICES, planForLookupKey, type PlanPrice } from '../catalog.ts';
import type { PaymentProvider, ProviderSubscription } from '../provider.ts';
import type { TestClock } from './clock.ts';
import { openSession, type EmbeddedContext } from './context.ts';
import { GRANTING, newId, priceIdFor, type PortalDetail } from './objects.ts';
import { createEmbeddedStore, type SubRow } from './store.ts';
import type { SubscriptionOps } from './subscriptions.ts';

const PORTAL_MINUTES = 60;

/** What the page does to a subscription; `advance` is the test clock (renew now, as at the period end). */
export interface PortalAction {
  action: 'cancel' | 'resume' | 'switch' | 'advance';
  priceId?: string | undefined;
}

const planJson = (p: PlanPrice) => ({ priceId: p.tierId, name: p.name, amount: p.amount, interval: p.interval });

function portalSubscription(s: ProviderSubscription) {
  const p = planForLookupKey(s.price.lookupKey);
  const next = s.scheduledChange && planForLookupKey(s.scheduledChange.price.lookupKey);
  return {
    id: s.id,
    status: s.status,
    cancelAtPeriodEnd: s.cancelAtPeriodEnd,
    currentPeriodEnd: s.currentPeriodEnd.toISOString(),
    plan: p ? planJson(p) : { priceId: '', name: 'Unknown plan', amount: s.price.unitAmount, interval: s.price.interval ?? 'month' },
    scheduledChange: next ? { plan: planJson(next), effectiveAt: s.scheduledChange!.at.toISOString() } : null,
  };
}

export function createPortal({ db, siteUrl, clock }: EmbeddedContext, subscriptions: SubscriptionOps, testClock: TestClock) {
  /** An open portal session, or a 404 (unknown) or 410 (expired). */
  async function livePortal(id: string) {
    const session = await openSession(db, id, 'portal');
    if (session.expiresAt <= clock()) throw new AppError('gone', 'This portal link has expired. Open it again from your account.');
    return session;
  }

  /**
   * Switches plan the way Stripe's portal does when configured as our pricing page behaves
   * (`planChange`): an upgrade now with the prorated difference charged, a downgrade at the period
   * end, the current plan withdraws a scheduled change. Switching withdraws a pending cancel.
   */
  async function portalSwitch(row: SubRow, priceId: string | undefined): Promise<ProviderSubscription> {
    const plan = PLAN_PRICES.find((p) => p.tierId === priceId);
    if (!plan) throw new AppError('validation_failed', 'Choose one of the plans.', { fields: { priceId: ['Unknown plan'] } });
    const current = planForLookupKey(row.lookupKey);
    const direction = current ? planChange(current, plan) : 'up';
    if (direction === 'same' && !row.pendingLookupKey && !row.cancelAtPeriodEnd)
      throw new AppError('conflict', 'You are already on this plan.');
    if (direction === 'up') {
      const result = await subscriptions.changePlanNow(row.id, plan);
      if (!result.paid) throw new AppError('payment_required', 'Your card was declined, so your plan has not changed.');
    }
    if (row.cancelAtPeriodEnd) await subscriptions.setCancelAtPeriodEnd(row.id, false);
    if (direction === 'up') return (await subscriptions.retrieveSubscription(row.id))!;
    return subscriptions.schedulePrice(row.id, direction === 'same' ? null : { id: priceIdFor(plan.lookupKey), interval: plan.interval });
  }

  const port = {
    async createPortalSession({ customerId, returnUrl }) {
      const id = newId('bps');
      const detail: PortalDetail = { returnUrl };
      await createEmbeddedStore(db).addSession({
        id,
        kind: 'portal',
        customerId,
        detail: detail as unknown as Record<string, unknown>,
        status: 'open',
        expiresAt: new Date(clock().getTime() + PORTAL_MINUTES * 60_000),
      });
      return { url: `${siteUrl}/billing/test-portal?session=${id}` };
    },
  } satisfies Pick<PaymentProvider, 'createPortalSession'>;

  return {
    ...port,

    /** The portal page's view: the customer's subscriptions and the plans they may switch to. */
    async describePortal(id: string) {
      const session = await livePortal(id);
      const email = await createEmbeddedStore(db).customerEmail(session.customerId);
      const list = await subscriptions.listSubscriptions(session.customerId);
      return {
        email: email ?? '',
        returnUrl: (session.detail as unknown as PortalDetail).returnUrl,
        subscriptions: list.map(portalSubscription),
        plans: PLAN_PRICES.map(planJson),
      };
    },

    /** Cancel at period end (dropping a scheduled change), resume, switch plan, or move the test clock, from the portal page. */
    async portalAction(id: string, subscriptionId: string, action: PortalAction) {
      const session = await livePortal(id);
      const row = await createEmbeddedStore(db).subscription(subscriptionId);
      if (!row || row.customerId !== session.customerId) throw new AppError('not_found', 'No such subscription.');
      if (!GRANTING.includes(row.status)) throw new AppError('conflict', 'This subscription has ended.');
      if (action.action === 'switch') return portalSubscription(await portalSwitch(row, action.priceId));
      if (action.action === 'advance') return portalSubscription(await testClock.advanceToPeriodEnd(row.id));
      if (action.action === 'cancel' && row.pendingLookupKey) await subscriptions.updateSub(row.id, { pendingLookupKey: null });
      return portalSubscription(await subscriptions.setCancelAtPeriodEnd(row.id, action.action === 'cancel'));
    },
  };
}
