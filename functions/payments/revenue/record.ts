/**
 * Writes the revenue history from billing's sync (sync.ts calls `recordRevenue` in its transaction,
 * under the member's lock, right after our copy is saved), so each change is recorded once and in
 * order. A movement is written only when the subscription's monthly contribution changes (compared
 * with its newest movement, not with our copy, so the history adds up whatever happened between
 * syncs), plus a `trial` mark when a subscription is first seen in its free trial. Each paid invoice
 * the provider names as the newest is recorded once by its id, as offers' revenue is (offers/service.ts
 * `follow`). Times are billing's clock at the sync: a late event dates what it shows when it arrives.
 */
import type { DbOrTx } from '../../platform/db/client.ts';
import type { ProviderSubscription } from '../provider.ts';
import type { SubscriptionRow } from '../tables.ts';
import { contribution, movementKind } from './mrr.ts';
import { createRevenueStore } from './store.ts';

export interface RevenueChange {
  userId: string;
  /** Our copy before this sync (undefined: first seen) and as just written. */
  before: Pick<SubscriptionRow, 'status'> | undefined;
  row: Pick<SubscriptionRow, 'id' | 'status' | 'cancelAt' | 'amount' | 'interval'>;
  fresh: Pick<ProviderSubscription, 'discount' | 'latestInvoice'>;
  now: Date;
}

/** Records what this sync changed in money: the contribution's movement, if any, and a newly paid invoice. */
export async function recordRevenue(tx: DbOrTx, { userId, before, row, fresh, now }: RevenueChange): Promise<void> {
  const store = createRevenueStore(tx);
  const running = fresh.discount && (!fresh.discount.end || fresh.discount.end > now) ? fresh.discount : null;
  const terms = running ? await store.couponTerms(running.couponId) : undefined;
  const after = contribution(row, terms, now);
  const last = await store.lastMovement(row.id);
  const was = last?.mrrAfter ?? 0;
  const kind =
    !last && row.status === 'trialing'
      ? 'trial'
      : movementKind(was, after, was === 0 && after > 0 ? await store.churnedBefore(userId) : false);
  if (kind)
    await store.addMovement({
      subscriptionId: row.id,
      userId,
      at: now,
      kind,
      mrrBefore: was,
      mrrAfter: after,
      statusBefore: before?.status ?? null,
      statusAfter: row.status,
    });
  const invoice = fresh.latestInvoice;
  if (invoice && invoice.amountPaid > 0)
    await store.addInvoicePayment({
      invoiceId: invoice.id,
      subscriptionId: row.id,
      userId,
      amount: invoice.amountPaid,
      reason: invoice.billingReason,
      paidAt: now,
    });
}
