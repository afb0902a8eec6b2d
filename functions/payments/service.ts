/**
 * Billing: plans through the provider's hosted checkout, one-time purchases, and the access level
 * that follows the money. The provider is the source of truth: confirm, webhooks and reads all
 * re-read state from it, then `sync` writes our copy under a lock on the member's profile, works
 * out the level (the highest plan among subscriptions that grant: active, trialing, past due) and
 * sends mails and audit entries for what changed, so duplicates and out-of-order events end right
 * and no change is mailed twice.
 */
import { and, desc, eq, inArray, isNull, sql } from 'drizzle-orm';
import { isStaff, type AccessLevel } from '#shared/access.ts';
import { localPath } from '#shared/redirect.ts';
import { REFUNDED_DUPLICATE, REFUSED_PURCHASE, type RefusalReason } from '#shared/payments/purchasable.ts';
import type { Db, DbOrTx } from '../platform/db/client.ts';
import {
  auditLog,
  profiles,
  purchases,
  subscriptions,
  type ProfileRow,
  type PurchasableType,
  type SubscriptionRow,
} from '../platform/db/schema.ts';
import type { ContentService } from '../content/service.ts';
import type { EmailService } from '../email/service.ts';
import { AppError } from '../platform/errors.ts';
import type { Logger } from '../platform/logger.ts';
import type { UserService, Viewer } from '../users/service.ts';
import { createUserStore } from '../users/store.ts';
import { planChange } from '#shared/pricing.ts';
import { CURRENCY, lookupKeyFor, planFor, planForLookupKey, type PlanPrice } from './catalog.ts';
import { createPlanChanges } from './plan-changes.ts';
import { grants, type CheckoutStart, type PaymentProvider, type ProviderEvent, type ProviderSubscription } from './provider.ts';

export interface BillingDeps {
  db: Db;
  provider: PaymentProvider;
  users: UserService;
  outbox: EmailService;
  content: ContentService;
  siteUrl: string;
  logger: Logger;
  clock?: () => Date;
}

/** A plan as the browser names it: our tier id, its name, cents and interval. */
export interface PlanJson {
  priceId: string;
  name: string;
  amount: number;
  interval: string;
}

/**
 * The spec's Subscription (point 3), as the account card reads it, plus what plan changes need
 * (beyond the spec): our tier id of the plan, and a change held for the period end.
 */
export interface SubscriptionJson {
  subscriptionId: string;
  status: string;
  cancelAtPeriodEnd: boolean;
  currentPeriodEnd: string;
  plan: { name: string; amount: number; interval: string };
  /** Our tier id of the plan (price_premium_yearly); null for a price we do not sell. */
  priceId: string | null;
  /** The plan it changes to at the period end (a downgrade), and when. */
  scheduledChange: (PlanJson & { effectiveAt: string }) | null;
}

export interface CheckoutInput {
  priceId?: string | undefined;
  item?: { type: PurchasableType; slug: string } | undefined;
  successUrl: string;
  cancelUrl: string;
}

/** The system's id in the audit log for changes the payment provider caused. */
export const BILLING_ACTOR = '00000000-0000-0000-0000-000000000000';
const RANK: Record<AccessLevel, number> = { free: 0, subscriber: 1, premium: 2 };
const SESSION_ID = /^[\w-]{1,255}$/;

/** The one-time item a paid session was for, as the audit log names it. */
interface SoldItem {
  type: PurchasableType;
  slug: string;
  title: string;
}

/** create-session's answer (spec point 7: sessionId and url; or what Stripe.js needs for embedded Checkout). */
export type CheckoutAnswer = { sessionId: string; url: string } | { sessionId: string; clientSecret: string; publishableKey: string };

function checkoutAnswer(start: CheckoutStart): CheckoutAnswer {
  const { id, ...rest } = start;
  return { sessionId: id, ...rest };
}

const planJson = (p: PlanPrice): PlanJson => ({ priceId: p.tierId, name: p.name, amount: p.amount, interval: p.interval });

/** The change a subscription (the provider's or our copy) holds for its period end, when it is one of our plans. */
function scheduledOf(s: ProviderSubscription | SubscriptionRow): { plan: PlanPrice; at: Date } | null {
  if ('price' in s) {
    const plan = s.scheduledChange && planForLookupKey(s.scheduledChange.price.lookupKey);
    return plan ? { plan, at: s.scheduledChange!.at } : null;
  }
  const plan = s.scheduledTierId ? planFor(s.scheduledTierId) : undefined;
  return plan && s.scheduledAt ? { plan, at: s.scheduledAt } : null;
}

function subscriptionJson(s: ProviderSubscription | SubscriptionRow): SubscriptionJson {
  const lookupKey = 'price' in s ? s.price.lookupKey : s.tierId ? lookupKeyFor(s.tierId) : null;
  const plan = planForLookupKey(lookupKey);
  const amount = 'price' in s ? s.price.unitAmount : s.amount;
  const interval = 'price' in s ? (s.price.interval ?? 'month') : s.interval;
  const scheduled = scheduledOf(s);
  return {
    subscriptionId: s.id,
    status: s.status,
    cancelAtPeriodEnd: s.cancelAtPeriodEnd || Boolean(s.cancelAt),
    currentPeriodEnd: (s.cancelAt ?? s.currentPeriodEnd).toISOString(),
    plan: { name: plan?.name ?? 'Unknown plan', amount, interval },
    priceId: plan?.tierId ?? null,
    scheduledChange: scheduled ? { ...planJson(scheduled.plan), effectiveAt: scheduled.at.toISOString() } : null,
  };
}

export function createBillingService({ db, provider, users, outbox, content, siteUrl, logger, clock = () => new Date() }: BillingDeps) {
  const origin = new URL(siteUrl).origin;
  /** No real money moves (the embedded provider, a Stripe test key): mails and the account page say so. */
  const testMode = provider.mode === 'test';

  /** An absolute URL on our own site for a given one (a path or our origin), or a 422. */
  function ownUrl(field: string, value: string): string {
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

  async function profileOf(tx: DbOrTx, userId: string): Promise<ProfileRow> {
    const profile = await createUserStore(tx).byId(userId);
    if (!profile) throw new AppError('not_found', 'No such user.');
    return profile;
  }

  /** The member's provider customer, created once: a conditional write settles a race between two requests. */
  async function ensureCustomer(viewer: NonNullable<Viewer>): Promise<string> {
    const profile = await profileOf(db, viewer.id);
    if (profile.customerId) return profile.customerId;
    const { id } = await provider.createCustomer({
      email: profile.email,
      userId: profile.id,
      idempotencyKey: `customer-create-${profile.id}`,
    });
    const [won] = await db
      .update(profiles)
      .set({ customerId: id })
      .where(and(eq(profiles.id, profile.id), isNull(profiles.customerId)))
      .returning({ customerId: profiles.customerId });
    users.forget(profile.id);
    return won?.customerId ?? (await profileOf(db, profile.id)).customerId!;
  }

  /** A subscription of the caller's own customer, fresh from the provider, or a 404/403. */
  async function ownSubscription(viewer: NonNullable<Viewer>, subscriptionId: string): Promise<ProviderSubscription> {
    const profile = await profileOf(db, viewer.id);
    const found = /^[\w-]{1,255}$/.test(subscriptionId) ? await provider.retrieveSubscription(subscriptionId) : null;
    if (!found) throw new AppError('not_found', 'No such subscription.');
    if (!profile.customerId || found.customerId !== profile.customerId) throw new AppError('forbidden', 'This is not your subscription.');
    return found;
  }

  /** Our copy of a subscription, as the browser reads it (after a sync). */
  async function ourCopy(subscriptionId: string): Promise<SubscriptionJson> {
    const [row] = await db.select().from(subscriptions).where(eq(subscriptions.id, subscriptionId));
    return subscriptionJson(row!);
  }

  async function ownCustomer(viewer: NonNullable<Viewer>, customerId: string): Promise<ProfileRow> {
    const profile = await profileOf(db, viewer.id);
    if (!profile.customerId || profile.customerId !== customerId) throw new AppError('forbidden', 'This is not your billing account.');
    return profile;
  }

  /** A purchasable item with its price in cents, or a 4xx. */
  async function purchasable(type: PurchasableType, slug: string) {
    const item = await content.get(type, slug);
    if (!item) throw new AppError('not_found', `${type === 'market' ? 'Market item' : 'Course'} not found`);
    const price = 'price' in item ? item.price : undefined;
    if (!price || price <= 0) throw new AppError('validation_failed', 'This item is not for sale.', { fields: { item: ['Not for sale'] } });
    return { item, amount: Math.round(price * 100) };
  }

  /**
   * Writes our copy of one subscription as the provider has it now, recomputes the member's level
   * and records what changed (mails, audit), all in one transaction under the profile's lock.
   */
  async function paidLevel(tx: DbOrTx, userId: string, now = clock()): Promise<AccessLevel> {
    const all = await tx.select().from(subscriptions).where(eq(subscriptions.userId, userId));
    let level: AccessLevel = 'free';
    for (const s of all) if (grants(s, now) && RANK[s.accessLevel] > RANK[level]) level = s.accessLevel;
    return level;
  }

  async function sync(subscriptionId: string): Promise<AccessLevel | undefined> {
    const fresh = await provider.retrieveSubscription(subscriptionId);
    if (!fresh) {
      logger.warn({ subscriptionId }, 'billing: the provider does not know this subscription');
      return undefined;
    }
    const now = clock();
    return db.transaction(async (tx) => {
      const owner =
        (fresh.metadata.userId && (await tx.select().from(profiles).where(eq(profiles.id, fresh.metadata.userId)).for('update'))[0]) ||
        (await tx.select().from(profiles).where(eq(profiles.customerId, fresh.customerId)).for('update'))[0];
      if (!owner) {
        logger.warn({ subscriptionId, customerId: fresh.customerId }, 'billing: no member for this subscription');
        return undefined;
      }
      const plan = planForLookupKey(fresh.price.lookupKey);
      if (!plan) logger.warn({ subscriptionId, lookupKey: fresh.price.lookupKey }, 'billing: unknown price; it grants nothing');
      const [before] = await tx.select().from(subscriptions).where(eq(subscriptions.id, fresh.id));
      const scheduled = scheduledOf(fresh);
      const row = {
        id: fresh.id,
        userId: owner.id,
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
        updatedAt: now,
      };
      await tx.insert(subscriptions).values(row).onConflictDoUpdate({ target: subscriptions.id, set: row });
      if (!owner.customerId) await tx.update(profiles).set({ customerId: fresh.customerId }).where(eq(profiles.id, owner.id));

      // Mails follow transitions of our copy, so a repeated or late event sends nothing new.
      const was = before && grants(before, now);
      const is = grants(row, now);
      const mail = (
        template: 'billing-activated' | 'billing-cancel-scheduled' | 'billing-payment-failed' | 'billing-ended' | 'billing-upgraded',
        extra: { charged?: number } = {},
      ) =>
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

      // Staff keep premium whatever they pay.
      const level = isStaff(owner.role) ? 'premium' : await paidLevel(tx, owner.id, now);
      if (level !== owner.accessLevel) {
        await tx.update(profiles).set({ accessLevel: level, updatedAt: now }).where(eq(profiles.id, owner.id));
        await createUserStore(tx).audit({
          actorId: BILLING_ACTOR,
          action: 'access_level.billing',
          targetId: owner.id,
          detail: { from: owner.accessLevel, to: level, subscriptionId: fresh.id, status: fresh.status },
        });
      }
      users.forget(owner.id);
      return level;
    });
  }

  async function owns(userId: string, type: PurchasableType, slug: string): Promise<boolean> {
    const [row] = await db
      .select({ id: purchases.id })
      .from(purchases)
      .where(and(eq(purchases.userId, userId), eq(purchases.itemType, type), eq(purchases.itemSlug, slug)));
    return Boolean(row);
  }

  /**
   * Whether a paid session was refused (`purchase.refused`) and refunded (`purchase.refunded`): the
   * audit log is our record of both, so a refused session stays refused even if its item comes back.
   */
  async function refusalOf(tx: DbOrTx, userId: string, sessionId: string) {
    const rows = await tx
      .select({ action: auditLog.action, detail: auditLog.detail })
      .from(auditLog)
      .where(
        and(
          eq(auditLog.targetId, userId),
          inArray(auditLog.action, ['purchase.refused', 'purchase.refunded']),
          sql`${auditLog.detail}->>'sessionId' = ${sessionId}`,
        ),
      );
    const refusal = rows.find((r) => r.action === 'purchase.refused');
    const reason: RefusalReason =
      (refusal?.detail as { reason?: string } | undefined)?.reason === 'already_owned' ? 'already_owned' : 'item_unavailable';
    return { refused: Boolean(refusal), reason, refunded: rows.some((r) => r.action === 'purchase.refunded') };
  }

  /**
   * Gives back the money of a refused session: the provider refunds it (idempotent per session, so the
   * webhook and confirm may both ask), then the refund is recorded and mailed once.
   */
  async function refund(session: { id: string; amountTotal: number | null }, userId: string, item: SoldItem, reason: RefusalReason) {
    const made = await provider.refundCheckout({
      sessionId: session.id,
      idempotencyKey: `refund-${session.id}`,
      metadata: { userId, itemType: item.type, itemSlug: item.slug, reason },
    });
    await db.transaction(async (tx) => {
      const [owner] = await tx.select().from(profiles).where(eq(profiles.id, userId)).for('update');
      if (!owner || (await refusalOf(tx, userId, session.id)).refunded) return;
      const amount = session.amountTotal ?? 0;
      await createUserStore(tx).audit({
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
          url: `${origin}/${item.type === 'market' ? 'market' : 'courses'}${reason === 'already_owned' ? `/${item.slug}` : ''}`,
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
   * Records a paid one-time checkout as a purchase (once per session) with its receipt, under the
   * member's profile lock. An item no longer published is never recorded: the session is marked
   * refused and its payment refunded (`refused` in the answer).
   */
  async function recordPurchase(
    session: { id: string; metadata: Record<string, string>; amountTotal: number | null },
    userId: string,
  ): Promise<(SoldItem & { refused?: RefusalReason }) | undefined> {
    const type = session.metadata.itemType as PurchasableType | undefined;
    const slug = session.metadata.itemSlug;
    if ((type !== 'market' && type !== 'course') || !slug) {
      logger.warn({ sessionId: session.id }, 'billing: a paid session without an item');
      return undefined;
    }
    const item: SoldItem = { type, slug, title: session.metadata.itemTitle ?? slug };
    // Published items only (asked before the transaction: the content store may share its connection).
    const available = Boolean(await content.get(type, slug));
    const outcome = await db.transaction(async (tx) => {
      const [owner] = await tx.select().from(profiles).where(eq(profiles.id, userId)).for('update');
      if (!owner) throw new AppError('not_found', 'No such user.');
      const [recorded] = await tx.select({ id: purchases.id }).from(purchases).where(eq(purchases.sessionId, session.id));
      if (recorded) return 'purchased';
      const earlier = await refusalOf(tx, userId, session.id);
      if (earlier.refused) return earlier.reason;
      // Gone from the site mid-payment, or a second payment (two checkouts paid side by side): nothing is given twice, nothing kept.
      const [owned] = await tx
        .select({ id: purchases.id })
        .from(purchases)
        .where(and(eq(purchases.userId, userId), eq(purchases.itemType, type), eq(purchases.itemSlug, slug)));
      const reason: RefusalReason | undefined = !available ? 'item_unavailable' : owned ? 'already_owned' : undefined;
      if (reason) {
        await createUserStore(tx).audit({
          actorId: BILLING_ACTOR,
          action: 'purchase.refused',
          targetId: userId,
          detail: { sessionId: session.id, itemType: type, itemSlug: slug, amount: session.amountTotal ?? 0, reason },
        });
        return reason;
      }
      const [inserted] = await tx
        .insert(purchases)
        .values({
          userId,
          itemType: type,
          itemSlug: slug,
          title: item.title,
          amount: session.amountTotal ?? 0,
          currency: CURRENCY,
          sessionId: session.id,
        })
        .onConflictDoNothing()
        .returning();
      if (inserted) {
        await outbox.enqueue(tx, {
          to: owner.email,
          template: 'billing-purchase',
          userId,
          data: {
            language: owner.language,
            title: item.title,
            amount: inserted.amount,
            url: `${origin}/${type === 'market' ? 'market' : 'courses'}/${slug}`,
            testMode,
          },
        });
      }
      return 'purchased';
    });
    if (outcome === 'purchased') return item;
    // Refunded outside the transaction: the provider's call must not hold the member's lock.
    await refund(session, userId, item, outcome);
    return { ...item, refused: outcome };
  }

  /** Applies a completed checkout session (from confirm or the webhook), re-read from the provider. */
  async function applyCheckout(sessionId: string, expectedUserId?: string) {
    const session = await provider.retrieveCheckoutSession(sessionId);
    if (!session) throw new AppError('not_found', 'No such checkout session.');
    const userId = session.clientReferenceId ?? session.metadata.userId;
    if (expectedUserId !== undefined && userId !== expectedUserId) {
      // A customer id match also proves ownership (sessions created before our reference id was set).
      const profile = await profileOf(db, expectedUserId);
      if (!session.customerId || profile.customerId !== session.customerId)
        throw new AppError('forbidden', 'This payment belongs to another account.');
    }
    const owner = expectedUserId ?? userId;
    if (session.status !== 'complete' || session.paymentStatus === 'unpaid') {
      return { session, owner, paid: false as const };
    }
    if (session.mode === 'subscription') {
      if (session.subscriptionId) await sync(session.subscriptionId);
      return { session, owner, paid: true as const };
    }
    const purchase = owner ? await recordPurchase(session, owner) : undefined;
    return { session, owner, paid: true as const, purchase };
  }

  /** Subscription ids an event is about (invoices name theirs under parent.subscription_details). */
  function subscriptionOf(event: ProviderEvent): string | undefined {
    const o = event.data.object;
    if (event.type.startsWith('customer.subscription.')) return typeof o.id === 'string' ? o.id : undefined;
    // A schedule (a change at the period end, made here or in Stripe's portal) names its subscription; a released one under released_subscription.
    if (event.type.startsWith('subscription_schedule.')) {
      const id = o.subscription ?? o.released_subscription;
      return typeof id === 'string' ? id : undefined;
    }
    const parent = o.parent as { subscription_details?: { subscription?: unknown } } | undefined;
    const id = parent?.subscription_details?.subscription ?? o.subscription;
    return typeof id === 'string' ? id : undefined;
  }

  const plans = createPlanChanges({ provider, clock, ownSubscription, sync, ourCopy, profileOf: (id) => profileOf(db, id) });

  return {
    provider,

    /** 'test' when no real money moves (the embedded provider, a Stripe test key). */
    mode: provider.mode,

    /** The highest level the member's own subscriptions grant now (free without one). */
    paidLevel: (tx: DbOrTx, userId: string) => paidLevel(tx, userId),

    /** POST create-session: a plan (refused while another one grants access) or a one-time item. */
    async createSession(viewer: NonNullable<Viewer>, input: CheckoutInput): Promise<CheckoutAnswer> {
      const successUrl = ownUrl('successUrl', input.successUrl);
      const cancelUrl = ownUrl('cancelUrl', input.cancelUrl);
      if (input.item) {
        const { item, amount } = await purchasable(input.item.type, input.item.slug);
        if (await owns(viewer.id, input.item.type, input.item.slug)) throw new AppError('conflict', 'You already own this item.');
        const customerId = await ensureCustomer(viewer);
        const session = await provider.createCheckoutSession({
          customerId,
          userId: viewer.id,
          mode: 'payment',
          line: { unitAmount: amount, currency: CURRENCY, productName: item.title },
          metadata: { userId: viewer.id, itemType: input.item.type, itemSlug: item.slug, itemTitle: item.title },
          successUrl,
          cancelUrl,
        });
        return checkoutAnswer(session);
      }
      const plan = input.priceId ? planFor(input.priceId) : undefined;
      if (!plan) throw new AppError('validation_failed', 'Choose a paid plan.', { fields: { priceId: ['Unknown or free plan'] } });
      const now = clock();
      const current = await db.select().from(subscriptions).where(eq(subscriptions.userId, viewer.id));
      if (current.some((s) => grants(s, now))) {
        throw new AppError('conflict', 'You already have an active subscription. Change or cancel it from your account.');
      }
      const [price] = await provider.pricesByLookupKeys([plan.lookupKey]);
      if (!price) throw new AppError('unavailable', 'This plan cannot be bought right now.');
      const customerId = await ensureCustomer(viewer);
      const session = await provider.createCheckoutSession({
        customerId,
        userId: viewer.id,
        mode: 'subscription',
        line: { priceId: price.id },
        metadata: { userId: viewer.id, plan: plan.tierId, interval: plan.interval },
        successUrl,
        cancelUrl,
      });
      return checkoutAnswer(session);
    },

    /** POST confirm: verifies with the provider that the caller's session is paid; idempotent. */
    async confirm(viewer: NonNullable<Viewer>, sessionId: string) {
      if (!SESSION_ID.test(sessionId))
        throw new AppError('validation_failed', 'Not a checkout session id.', { fields: { sessionId: ['Not a session id'] } });
      const result = await applyCheckout(sessionId, viewer.id);
      if (!result.paid) throw new AppError('conflict', 'This checkout has not been paid.');
      if (result.purchase?.refused)
        throw new AppError('conflict', result.purchase.refused === 'already_owned' ? REFUNDED_DUPLICATE : REFUSED_PURCHASE);
      const profile = await profileOf(db, viewer.id);
      return {
        accessLevel: profile.accessLevel,
        mode: result.session.mode,
        ...(result.purchase ? { purchase: result.purchase } : {}),
      };
    },

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

    /** POST subscriptions/{id}/change: another plan, billed as a customer expects (see plan-changes.ts). */
    changePlan: plans.change,

    /** GET /api/payments/subscription: the caller's own plan as our copy has it (the one that grants, else the latest), or null. */
    async mine(viewer: NonNullable<Viewer>): Promise<SubscriptionJson | null> {
      const rows = await db
        .select()
        .from(subscriptions)
        .where(eq(subscriptions.userId, viewer.id))
        .orderBy(desc(subscriptions.currentPeriodEnd));
      const now = clock();
      const shown = rows.find((s) => grants(s, now)) ?? rows[0];
      return shown ? subscriptionJson(shown) : null;
    },

    /** POST create-portal-session: the provider's management page for the caller's own customer. */
    async portal(viewer: NonNullable<Viewer>, customerId: string, returnUrl: string): Promise<{ url: string }> {
      await ownCustomer(viewer, customerId);
      return provider.createPortalSession({ customerId, returnUrl: ownUrl('returnUrl', returnUrl) });
    },

    /** GET purchases: what the member bought, newest first. */
    async purchases(viewer: NonNullable<Viewer>) {
      const rows = await db.select().from(purchases).where(eq(purchases.userId, viewer.id)).orderBy(desc(purchases.createdAt));
      return rows.map((p) => ({
        type: p.itemType,
        slug: p.itemSlug,
        title: p.title,
        amount: p.amount,
        currency: p.currency,
        purchasedAt: p.createdAt.toISOString(),
      }));
    },

    owns,

    /** One verified provider event: ids are read from it, state from the provider. False when it changed nothing. */
    async handleEvent(event: ProviderEvent): Promise<boolean> {
      if (event.type === 'checkout.session.completed') {
        const id = event.data.object.id;
        if (typeof id !== 'string') return false;
        return (await applyCheckout(id)).paid;
      }
      if (
        event.type.startsWith('customer.subscription.') ||
        event.type.startsWith('subscription_schedule.') ||
        event.type === 'invoice.paid' ||
        event.type === 'invoice.payment_failed'
      ) {
        const id = subscriptionOf(event);
        return id ? (await sync(id)) !== undefined : false;
      }
      return false; // anything else: acknowledged, ignored
    },

    sync,

    /** Ends the member's paid subscriptions now (before their account is deleted). */
    async cancelAll(userId: string): Promise<void> {
      const profile = await createUserStore(db).byId(userId);
      if (!profile?.customerId) return;
      for (const s of await provider.listSubscriptions(profile.customerId)) {
        if (!['canceled', 'incomplete_expired'].includes(s.status)) await provider.cancelNow(s.id);
      }
    },
  };
}

export type BillingService = ReturnType<typeof createBillingService>;
