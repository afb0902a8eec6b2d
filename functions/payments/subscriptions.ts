/**
 * A member's subscription as the account page and pricing page read and manage it: the one to show
 * (fresh from the provider, or our copy), cancel at the period end, the provider's portal, and
 * ending every paid plan before the account is deleted. Plan changes are in plan-changes.ts.
 */
import type { AccessLevel } from '#shared/access.ts';
import { AppError } from '../platform/errors.ts';
import { memberAccess } from '../users/index.ts';
import type { Viewer } from '../users/index.ts';
import { subscriptionJson, type SubscriptionJson } from './answers.ts';
import type { BillingContext } from './context.ts';
import { createOwnership, ownUrl } from './ownership.ts';
import { grants } from './provider.ts';
import { createPaymentStore } from './store.ts';

export function createSubscriptions(
  { db, provider, clock, origin }: BillingContext,
  { sync }: { sync: (subscriptionId: string) => Promise<AccessLevel | undefined> },
) {
  const { ownCustomer, ownSubscription } = createOwnership({ db, provider });

  /** Our copy of a subscription, as the browser reads it (after a sync). */
  async function ourCopy(subscriptionId: string): Promise<SubscriptionJson> {
    const row = await createPaymentStore(db).subscription(subscriptionId);
    return subscriptionJson(row!);
  }

  return {
    ourCopy,
    ownSubscription,

    /** GET subscriptions/{customerId}: the subscription to show (the one granting access, else the latest), or null. */
    async subscriptionFor(viewer: NonNullable<Viewer>, customerId: string): Promise<SubscriptionJson | null> {
      await ownCustomer(viewer, customerId);
      const list = await provider.listSubscriptions(customerId);
      const now = clock();
      const shown = list.find((s) => grants(s, now)) ?? list.sort((a, b) => b.currentPeriodEnd.getTime() - a.currentPeriodEnd.getTime())[0];
      return shown ? subscriptionJson(shown) : null;
    },

    /** POST subscriptions/{id}/cancel: cancel at the period end, for the owner only (a change scheduled for then is dropped). */
    async cancel(viewer: NonNullable<Viewer>, subscriptionId: string): Promise<SubscriptionJson> {
      const found = await ownSubscription(viewer, subscriptionId);
      if (!grants(found, clock())) throw new AppError('conflict', 'This subscription has already ended.');
      if (found.scheduledChange) await provider.schedulePrice(found.id, null);
      await provider.setCancelAtPeriodEnd(found.id, true);
      await sync(found.id);
      return ourCopy(found.id);
    },

    /** GET /api/payments/subscription: the caller's own plan as our copy has it (the one that grants, else the latest), or null. */
    async mine(viewer: NonNullable<Viewer>): Promise<SubscriptionJson | null> {
      const rows = await createPaymentStore(db).latestSubscriptionsOf(viewer.id);
      const now = clock();
      const shown = rows.find((s) => grants(s, now)) ?? rows[0];
      return shown ? subscriptionJson(shown) : null;
    },

    /** POST create-portal-session: the provider's management page for the caller's own customer. */
    async portal(viewer: NonNullable<Viewer>, customerId: string, returnUrl: string): Promise<{ url: string }> {
      await ownCustomer(viewer, customerId);
      return provider.createPortalSession({ customerId, returnUrl: ownUrl(origin, 'returnUrl', returnUrl) });
    },

    /** Ends the member's paid subscriptions now (before their account is deleted). */
    async cancelAll(userId: string): Promise<void> {
      const profile = await memberAccess(db).byId(userId);
      if (!profile?.customerId) return;
      for (const s of await provider.listSubscriptions(profile.customerId)) {
        if (!['canceled', 'incomplete_expired'].includes(s.status)) await provider.cancelNow(s.id);
      }
    },
  };
}
