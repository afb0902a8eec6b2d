/**
 * One-time purchases: a paid checkout session recorded once as a purchase with its receipt, under
 * the member's profile lock. An item no longer published, or one the member owns already (two
 * checkouts paid side by side), is never given twice: the session is refused and its money refunded,
 * both kept in the audit log, so a refused session stays refused even if its item comes back.
 */
import { CONTENT_TYPE_INFO, itemPath } from '#shared/content/registry.ts';
import type { RefusalReason } from '#shared/payments/purchasable.ts';
import type { DbOrTx } from '../platform/db/client.ts';
import { AppError } from '../platform/errors.ts';
import { memberAccess } from '../users/index.ts';
import type { Viewer } from '../users/index.ts';
import { CURRENCY } from './catalog.ts';
import { BILLING_ACTOR, type BillingContext } from './context.ts';
import { createPaymentStore } from './store.ts';
import { memberData } from '../outbound/index.ts';
import { PURCHASABLE_TYPES, type PurchasableType } from './tables.ts';

/** The one-time item a paid session was for, as the audit log names it. */
export interface SoldItem {
  type: PurchasableType;
  slug: string;
  title: string;
}

/** A paid one-time session, as recording it needs. */
interface PaidSession {
  id: string;
  metadata: Record<string, string>;
  amountTotal: number | null;
}

/** The item's page on our site (its list when `slug` is left out). */
const itemUrl = (origin: string, type: PurchasableType, slug?: string) =>
  `${origin}${slug ? itemPath(type, slug) : CONTENT_TYPE_INFO[type].path}`;

/**
 * Whether a paid session was refused (`purchase.refused`) and refunded (`purchase.refunded`): the
 * audit log is our record of both.
 */
async function refusalOf(tx: DbOrTx, userId: string, sessionId: string) {
  const rows = await memberAccess(tx).auditOfSession(userId, ['purchase.refused', 'purchase.refunded'], sessionId);
  const refusal = rows.find((r) => r.action === 'purchase.refused');
  const reason: RefusalReason =
    (refusal?.detail as { reason?: string } | undefined)?.reason === 'already_owned' ? 'already_owned' : 'item_unavailable';
  return { refused: Boolean(refusal), reason, refunded: rows.some((r) => r.action === 'purchase.refunded') };
}

/**
 * Gives back the money of a refused session: the provider refunds it (idempotent per session, so the
 * webhook and confirm may both ask), then the refund is recorded and mailed once.
 */
async function refund(
  { db, provider, outbox, logger, origin, testMode }: BillingContext,
  session: { id: string; amountTotal: number | null },
  userId: string,
  item: SoldItem,
  reason: RefusalReason,
) {
  const made = await provider.refundCheckout({
    sessionId: session.id,
    idempotencyKey: `refund-${session.id}`,
    metadata: { userId, itemType: item.type, itemSlug: item.slug, reason },
  });
  await db.transaction(async (tx) => {
    const members = memberAccess(tx);
    const owner = await members.lock(userId);
    if (!owner || (await refusalOf(tx, userId, session.id)).refunded) return;
    const amount = session.amountTotal ?? 0;
    await members.audit({
      actorId: BILLING_ACTOR,
      action: 'purchase.refunded',
      targetId: userId,
      detail: { sessionId: session.id, refundId: made.id, amount, itemType: item.type, itemSlug: item.slug },
    });
    await outbox.enqueue(tx, {
      to: owner.email,
      template: 'billing-refunded',
      userId,
      data: {
        language: owner.language,
        title: item.title,
        amount,
        url: itemUrl(origin, item.type, reason === 'already_owned' ? item.slug : undefined),
        testMode,
        reason,
      },
    });
  });
  logger.warn(
    { sessionId: session.id, userId, item: `${item.type}/${item.slug}`, reason },
    reason === 'already_owned'
      ? 'billing: a second payment for an owned item; refunded'
      : 'billing: paid for an unpublished item; refused and refunded',
  );
}

/**
 * Inside the member's lock: the purchase recorded with its receipt ('purchased', also when an
 * earlier call recorded it), or why the session is refused (recorded once in the audit log).
 */
async function recordLocked(
  { outbox, origin, testMode, webhooks, clock }: BillingContext,
  tx: DbOrTx,
  session: PaidSession,
  userId: string,
  item: SoldItem,
  available: boolean,
): Promise<'purchased' | RefusalReason> {
  const members = memberAccess(tx);
  const store = createPaymentStore(tx);
  const owner = await members.lock(userId);
  if (!owner) throw new AppError('not_found', 'No such user.');
  if (await store.purchasedIn(session.id)) return 'purchased';
  const earlier = await refusalOf(tx, userId, session.id);
  if (earlier.refused) return earlier.reason;
  // Gone from the site mid-payment, or a second payment (two checkouts paid side by side): nothing is given twice, nothing kept.
  const owned = await store.owns(userId, item.type, item.slug);
  const reason: RefusalReason | undefined = !available ? 'item_unavailable' : owned ? 'already_owned' : undefined;
  if (reason) {
    await members.audit({
      actorId: BILLING_ACTOR,
      action: 'purchase.refused',
      targetId: userId,
      detail: { sessionId: session.id, itemType: item.type, itemSlug: item.slug, amount: session.amountTotal ?? 0, reason },
    });
    return reason;
  }
  const inserted = await store.addPurchase({
    userId,
    itemType: item.type,
    itemSlug: item.slug,
    title: item.title,
    amount: session.amountTotal ?? 0,
    currency: CURRENCY,
    sessionId: session.id,
    // Billing's clock, as every other time billing records (revenue analytics counts it in its month).
    createdAt: clock(),
  });
  if (inserted) {
    await outbox.enqueue(tx, {
      to: owner.email,
      template: 'billing-purchase',
      userId,
      data: {
        language: owner.language,
        title: item.title,
        amount: inserted.amount,
        url: itemUrl(origin, item.type, item.slug),
        testMode,
      },
    });
    const purchase = { ...item, amount: inserted.amount, currency: inserted.currency, url: itemUrl(origin, item.type, item.slug) };
    await webhooks.emit(tx, 'purchase.completed', { member: memberData(owner), purchase: { sessionId: session.id, ...purchase } }, userId);
  }
  return 'purchased';
}

/**
 * Records a paid one-time checkout as a purchase (once per session) with its receipt. An item no
 * longer published is never recorded: the session is marked refused and its payment refunded
 * (`refused` in the answer).
 */
async function record(
  deps: BillingContext,
  session: PaidSession,
  userId: string,
): Promise<(SoldItem & { refused?: RefusalReason }) | undefined> {
  const { db, content, logger } = deps;
  const type = session.metadata.itemType as PurchasableType | undefined;
  const slug = session.metadata.itemSlug;
  if (!type || !PURCHASABLE_TYPES.includes(type) || !slug) {
    logger.warn({ sessionId: session.id }, 'billing: a paid session without an item');
    return undefined;
  }
  const item: SoldItem = { type, slug, title: session.metadata.itemTitle ?? slug };
  // Published items only (asked before the transaction: the content store may share its connection).
  const available = Boolean(await content.get(type, slug));
  const outcome = await db.transaction((tx) => recordLocked(deps, tx, session, userId, item, available));
  if (outcome === 'purchased') return item;
  // Refunded outside the transaction: the provider's call must not hold the member's lock.
  await refund(deps, session, userId, item, outcome);
  return { ...item, refused: outcome };
}

/** GET purchases: what the member bought, newest first. */
async function list({ db }: BillingContext, viewer: NonNullable<Viewer>) {
  const rows = await createPaymentStore(db).purchasesOf(viewer.id);
  return rows.map((p) => ({
    type: p.itemType,
    slug: p.itemSlug,
    title: p.title,
    amount: p.amount,
    currency: p.currency,
    purchasedAt: p.createdAt.toISOString(),
  }));
}

export function createPurchases(deps: BillingContext) {
  const { db } = deps;
  /** Whether the member bought this item. */
  const owns = (userId: string, type: PurchasableType, slug: string): Promise<boolean> => createPaymentStore(db).owns(userId, type, slug);

  return {
    owns,
    /** Records a paid one-time checkout as a purchase (once per session) with its receipt, or refuses and refunds it. */
    record: (session: PaidSession, userId: string) => record(deps, session, userId),
    /** GET purchases: what the member bought, newest first. */
    list: (viewer: NonNullable<Viewer>) => list(deps, viewer),
  };
}

export type Purchases = ReturnType<typeof createPurchases>;
