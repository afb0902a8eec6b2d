/**
 * Billing's outbound webhook events (outbound/port.ts), decided where billing's mails are: a
 * subscription's transitions of our copy (sync.ts calls `subscriptionEvents` beside `mailChanges`,
 * with the same before and after, so a repeated or late provider event emits nothing new), a
 * purchase recorded, and grants of the ledger that are not a subscription's own run (comps and
 * gifts) started and ended. Each carries the member (id, email, name) as every member event does.
 */
import type { DbOrTx } from '../platform/db/client.ts';
import { memberData, type WebhookEmitter } from '../outbound/index.ts';
import type { ProfileRow } from '../users/index.ts';
import type { AccessGrantRow } from './grants/tables.ts';
import { grants } from './provider.ts';
import type { SubscriptionRow } from './tables.ts';

type SubscriptionCopy = Pick<
  SubscriptionRow,
  | 'id'
  | 'status'
  | 'tierId'
  | 'accessLevel'
  | 'amount'
  | 'interval'
  | 'cancelAtPeriodEnd'
  | 'cancelAt'
  | 'currentPeriodEnd'
  | 'endedAt'
  | 'trialEnd'
>;

const iso = (d: Date | null) => d?.toISOString() ?? null;

/** A subscription as its events carry it. */
export const subscriptionData = (s: SubscriptionCopy) => ({
  id: s.id,
  status: s.status,
  plan: s.tierId,
  accessLevel: s.accessLevel,
  amount: s.amount,
  interval: s.interval,
  cancelAtPeriodEnd: s.cancelAtPeriodEnd,
  cancelAt: iso(s.cancelAt),
  currentPeriodEnd: iso(s.currentPeriodEnd),
  endedAt: iso(s.endedAt),
  trialEnd: iso(s.trialEnd),
});

const pending = (s: Pick<SubscriptionCopy, 'cancelAtPeriodEnd' | 'cancelAt'>) => s.cancelAtPeriodEnd || Boolean(s.cancelAt);

/**
 * The events one sync's change of our copy makes: started (it grants now and did not), ended (it
 * granted and does not), cancel_scheduled and resumed (a cancellation set or undone while it grants),
 * changed (another plan, interval or price while it grants).
 */
export async function subscriptionEvents(
  webhooks: WebhookEmitter,
  tx: DbOrTx,
  {
    owner,
    before,
    row,
    now,
  }: { owner: ProfileRow; before: (SubscriptionCopy & Pick<SubscriptionRow, 'updatedAt'>) | undefined; row: SubscriptionCopy; now: Date },
): Promise<void> {
  // Whether it granted when our copy was written: a cancellation that took effect since (`cancel_at`
  // passed before this sync) still ends it now.
  const was = Boolean(before && grants(before, before.updatedAt));
  const is = grants(row, now);
  const data = { member: memberData(owner), subscription: subscriptionData(row) };
  const emit = (type: Parameters<WebhookEmitter['emit']>[1], extra: Record<string, unknown> = {}) =>
    webhooks.emit(tx, type, { ...data, ...extra }, owner.id);
  if (is && !was) await emit('subscription.started');
  if (was && !is) await emit('subscription.ended');
  if (!was || !is || !before) return;
  if (pending(row) && !pending(before)) await emit('subscription.cancel_scheduled');
  if (!pending(row) && pending(before)) await emit('subscription.resumed');
  if (before.tierId !== row.tierId || before.interval !== row.interval || before.amount !== row.amount)
    await emit('subscription.changed', {
      previous: { plan: before.tierId, accessLevel: before.accessLevel, amount: before.amount, interval: before.interval },
    });
}

/** A grant as its events carry it. */
const grantData = (g: AccessGrantRow) => ({
  id: g.id,
  source: g.source,
  accessLevel: g.accessLevel,
  startsAt: g.startsAt.toISOString(),
  endsAt: iso(g.endsAt),
  ...(g.note ? { note: g.note } : {}),
});

/** grant.started or grant.ended for a comp or a gift of the member's. */
export function grantEvent(
  webhooks: WebhookEmitter,
  tx: DbOrTx,
  type: 'grant.started' | 'grant.ended',
  profile: ProfileRow,
  grant: AccessGrantRow,
) {
  return webhooks.emit(tx, type, { member: memberData(profile), grant: grantData(grant) }, profile.id);
}
