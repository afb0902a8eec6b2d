/**
 * What a member may act on through billing: their own profile, their own provider customer and
 * subscriptions, and links back to our own site. Each check answers the thing or throws the 4xx.
 */
import { localPath } from '#shared/redirect.ts';
import type { DbOrTx } from '../platform/db/client.ts';
import { AppError } from '../platform/errors.ts';
import { memberAccess } from '../users/index.ts';
import type { Viewer } from '../users/index.ts';
import type { ProfileRow } from '../users/index.ts';
import type { BillingContext } from './context.ts';
import type { ProviderSubscription } from './provider.ts';

/** The member's profile, or a 404. */
export async function profileOf(tx: DbOrTx, userId: string): Promise<ProfileRow> {
  const profile = await memberAccess(tx).byId(userId);
  if (!profile) throw new AppError('not_found', 'No such user.');
  return profile;
}

/** An absolute URL on our own site for a given one (a path or our origin), or a 422. */
export function ownUrl(origin: string, field: string, value: string): string {
  let url: URL;
  try {
    url = new URL(value, origin);
  } catch {
    url = new URL('http://invalid');
  }
  const path = url.origin === origin ? localPath(url.pathname + url.search + url.hash) : undefined;
  if (!path)
    throw new AppError('validation_failed', 'Links must point to this site.', { fields: { [field]: ['Must be a URL on this site'] } });
  // The placeholder is the provider's: keep its braces literal.
  return `${origin}${path}`.replaceAll('%7BCHECKOUT_SESSION_ID%7D', '{CHECKOUT_SESSION_ID}');
}

export function createOwnership({ db, provider }: Pick<BillingContext, 'db' | 'provider'>) {
  return {
    /** A subscription of the caller's own customer, fresh from the provider, or a 404/403. */
    async ownSubscription(viewer: NonNullable<Viewer>, subscriptionId: string): Promise<ProviderSubscription> {
      const profile = await profileOf(db, viewer.id);
      const found = /^[\w-]{1,255}$/.test(subscriptionId) ? await provider.retrieveSubscription(subscriptionId) : null;
      if (!found) throw new AppError('not_found', 'No such subscription.');
      if (!profile.customerId || found.customerId !== profile.customerId) throw new AppError('forbidden', 'This is not your subscription.');
      return found;
    },

    /** The caller's profile when `customerId` is their own provider customer, or a 403. */
    async ownCustomer(viewer: NonNullable<Viewer>, customerId: string): Promise<ProfileRow> {
      const profile = await profileOf(db, viewer.id);
      if (!profile.customerId || profile.customerId !== customerId) throw new AppError('forbidden', 'This is not your billing account.');
      return profile;
    },
  };
}
