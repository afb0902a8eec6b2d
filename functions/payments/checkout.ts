/**
 * Checkout: a plan (refused while another one grants access) or a one-time item through the
 * provider's checkout, paid for the member's own provider customer (created once), and a completed
 * session applied, from confirm or the webhook, as the provider has it.
 */
import { CONTENT_TYPE_INFO } from '#shared/content/registry.ts';
import { isPriced, REFUNDED_DUPLICATE, REFUSED_PURCHASE } from '#shared/payments/purchasable.ts';
import type { AccessLevel } from '#shared/access.ts';
import { AppError } from '../platform/errors.ts';
import { memberAccess } from '../users/index.ts';
import type { Viewer } from '../users/index.ts';
import { checkoutAnswer, type CheckoutAnswer } from './answers.ts';
import { CURRENCY, planFor } from './catalog.ts';
import type { BillingContext } from './context.ts';
import { ownUrl, profileOf } from './ownership.ts';
import { grants, type CheckoutRequest } from './provider.ts';
import type { Purchases } from './purchases.ts';
import { createGrantStore } from './grants/store.ts';
import type { OfferService } from './offers/service.ts';
import type { GiftOrder, Gifts } from './gifts/service.ts';
import { giftName, giftPriceCents } from '#shared/payments/gifts.ts';
import { createPaymentStore } from './store.ts';
import type { PurchasableType } from './tables.ts';

export interface CheckoutInput {
  priceId?: string | undefined;
  item?: { type: PurchasableType; slug: string } | undefined;
  successUrl: string;
  cancelUrl: string;
  /** The provider's idempotency key for the session, from the request's Idempotency-Key: a retry gets the same session. */
  idempotencyKey?: string | undefined;
  /** A sign-up offer's code (plans only). */
  offerCode?: string | undefined;
  /** A gift membership for someone else (a one-time payment). */
  gift?: GiftOrder | undefined;
}

/** Where a session returns to, and its idempotency key. */
type SessionStart = Pick<CheckoutRequest, 'successUrl' | 'cancelUrl' | 'idempotencyKey'>;

const SESSION_ID = /^[\w-]{1,255}$/;

interface CheckoutParts {
  sync: (subscriptionId: string) => Promise<AccessLevel | undefined>;
  purchases: Pick<Purchases, 'owns' | 'record'>;
  offers: Pick<OfferService, 'hold' | 'trials'>;
  gifts: Pick<Gifts, 'create' | 'attachSession' | 'drop' | 'paid'>;
}

/** What checkout's steps share: billing's context and the parts it calls. */
type CheckoutDeps = BillingContext & CheckoutParts;

/** The member's provider customer, created once: a conditional write settles a race between two requests. */
async function ensureCustomer({ db, provider, users }: CheckoutDeps, viewer: NonNullable<Viewer>): Promise<string> {
  const profile = await profileOf(db, viewer.id);
  if (profile.customerId) return profile.customerId;
  const { id } = await provider.createCustomer({
    email: profile.email,
    userId: profile.id,
    idempotencyKey: `customer-create-${profile.id}`,
  });
  const won = await memberAccess(db).claimCustomer(profile.id, id);
  users.forget(profile.id);
  return won ?? (await profileOf(db, profile.id)).customerId!;
}

/** A purchasable item with its price in cents, or a 4xx. */
async function purchasable({ content }: CheckoutDeps, type: PurchasableType, slug: string) {
  const item = await content.get(type, slug);
  if (!item) throw new AppError('not_found', `${CONTENT_TYPE_INFO[type].itemLabel} not found`);
  const price = 'price' in item ? item.price : undefined;
  if (!isPriced(price)) throw new AppError('validation_failed', 'This item is not for sale.', { fields: { item: ['Not for sale'] } });
  return { item, amount: Math.round(price * 100) };
}

/** A one-time item's checkout, unless the member owns it already. */
async function itemSession(
  deps: CheckoutDeps,
  viewer: NonNullable<Viewer>,
  wanted: NonNullable<CheckoutInput['item']>,
  start: SessionStart,
) {
  const { provider, purchases } = deps;
  const { item, amount } = await purchasable(deps, wanted.type, wanted.slug);
  if (await purchases.owns(viewer.id, wanted.type, wanted.slug)) throw new AppError('conflict', 'You already own this item.');
  const customerId = await ensureCustomer(deps, viewer);
  const session = await provider.createCheckoutSession({
    customerId,
    userId: viewer.id,
    mode: 'payment',
    line: { unitAmount: amount, currency: CURRENCY, productName: item.title },
    metadata: { userId: viewer.id, itemType: wanted.type, itemSlug: item.slug, itemTitle: item.title },
    ...start,
  });
  return checkoutAnswer(session);
}

/**
 * A plan's checkout, unless another subscription of the member grants access: a sign-up offer's
 * coupon when a code came (its redemption held for this checkout, given back if the session cannot
 * be made), else the plan's free trial (staff set its days) for a member who never had one.
 */
async function planSession(deps: CheckoutDeps, viewer: NonNullable<Viewer>, input: CheckoutInput, start: SessionStart) {
  const { db, provider, clock, offers } = deps;
  const plan = input.priceId ? planFor(input.priceId) : undefined;
  if (!plan) throw new AppError('validation_failed', 'Choose a paid plan.', { fields: { priceId: ['Unknown or free plan'] } });
  const now = clock();
  const current = await createPaymentStore(db).subscriptionsOf(viewer.id);
  if (current.some((s) => grants(s, now))) {
    throw new AppError('conflict', 'You already have an active subscription. Change or cancel it from your account.');
  }
  const [price] = await provider.pricesByLookupKeys([plan.lookupKey]);
  if (!price) throw new AppError('unavailable', 'This plan cannot be bought right now.');
  const held = input.offerCode ? await offers.hold(viewer.id, input.offerCode, plan) : undefined;
  // A sign-up offer is the incentive in place of the trial: the member pays its price from the first day.
  const planTrial = held ? 0 : ((await offers.trials())[plan.tierId] ?? 0);
  const trialDays = planTrial && !(await createGrantStore(db).hadSource(viewer.id, 'trial')) ? planTrial : 0;
  try {
    const customerId = await ensureCustomer(deps, viewer);
    const session = await provider.createCheckoutSession({
      customerId,
      userId: viewer.id,
      mode: 'subscription',
      line: { priceId: price.id },
      metadata: { userId: viewer.id, plan: plan.tierId, interval: plan.interval, ...(held ? { offerId: held.offer.id } : {}) },
      ...(held ? { couponId: held.offer.couponId } : {}),
      ...(trialDays ? { trialDays } : {}),
      ...start,
    });
    await held?.attach(session.id);
    return checkoutAnswer(session);
  } catch (err) {
    await held?.release();
    throw err;
  }
}

/** A gift's checkout: the gift waits for its payment, and goes if the session cannot be made. */
async function giftSession(deps: CheckoutDeps, viewer: NonNullable<Viewer>, input: GiftOrder, start: SessionStart) {
  const { db, provider, gifts } = deps;
  const amount = giftPriceCents(input.accessLevel, input.months);
  const buyer = await profileOf(db, viewer.id);
  const gift = await gifts.create(buyer, { ...input, amount });
  try {
    const customerId = await ensureCustomer(deps, viewer);
    const session = await provider.createCheckoutSession({
      customerId,
      userId: viewer.id,
      mode: 'payment',
      line: { unitAmount: amount, currency: CURRENCY, productName: `Gift: ${giftName(input.accessLevel, input.months)}` },
      metadata: { userId: viewer.id, giftId: gift.id },
      // The price is the gift's as its receipt says: no promotion code on top.
      promotionCodes: false,
      ...start,
    });
    await gifts.attachSession(gift.id, session.id);
    return checkoutAnswer(session);
  } catch (err) {
    await gifts.drop(gift.id);
    throw err;
  }
}

/** Applies a completed checkout session (from confirm or the webhook), re-read from the provider. */
async function applyCheckout({ db, provider, sync, purchases, gifts }: CheckoutDeps, sessionId: string, expectedUserId?: string) {
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
  if (session.metadata.giftId) {
    await gifts.paid(session);
    return { session, owner, paid: true as const };
  }
  const purchase = owner ? await purchases.record(session, owner) : undefined;
  return { session, owner, paid: true as const, purchase };
}

export function createCheckout(ctx: BillingContext, parts: CheckoutParts) {
  const deps: CheckoutDeps = { ...ctx, ...parts };
  const { db, origin } = deps;
  return {
    /** Applies a completed checkout session (from confirm or the webhook), re-read from the provider. */
    applyCheckout: (sessionId: string, expectedUserId?: string) => applyCheckout(deps, sessionId, expectedUserId),

    /** POST create-session: a plan (refused while another one grants access) or a one-time item. */
    async createSession(viewer: NonNullable<Viewer>, input: CheckoutInput): Promise<CheckoutAnswer> {
      const start: SessionStart = {
        successUrl: ownUrl(origin, 'successUrl', input.successUrl),
        cancelUrl: ownUrl(origin, 'cancelUrl', input.cancelUrl),
        ...(input.idempotencyKey ? { idempotencyKey: input.idempotencyKey } : {}),
      };
      if (input.item) return itemSession(deps, viewer, input.item, start);
      if (input.gift) return giftSession(deps, viewer, input.gift, start);
      return planSession(deps, viewer, input, start);
    },

    /** POST confirm: verifies with the provider that the caller's session is paid; idempotent. */
    async confirm(viewer: NonNullable<Viewer>, sessionId: string) {
      if (!SESSION_ID.test(sessionId))
        throw new AppError('validation_failed', 'Not a checkout session id.', { fields: { sessionId: ['Not a session id'] } });
      const result = await applyCheckout(deps, sessionId, viewer.id);
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
  };
}

export type Checkout = ReturnType<typeof createCheckout>;
