/**
 * Offers (issue 34): staff create a code for a discount at sign-up or to keep a member going to
 * cancel, backed by a provider coupon made under the offer's id. A checkout with a sign-up offer
 * holds one redemption (one conditional update: concurrent redemptions never pass the maximum; one
 * use per member) until it completes (redeemed, on the subscription) or is given up (released after
 * a day). A retention offer goes on a live subscription that is not cancelling, once per member.
 * While an offer discounts a subscription, its row in the grants ledger says so (`offer`), and each
 * paid invoice adds to the revenue it brought.
 */
import { randomUUID } from 'node:crypto';
import { addMonths } from 'date-fns/addMonths';
import { addYears } from 'date-fns/addYears';
import { discountedCents, offerTerms, type OfferDuration, type OfferKind } from '#shared/payments/offers.ts';
import type { Db, DbOrTx } from '../../platform/db/client.ts';
import { AppError } from '../../platform/errors.ts';
import { CURRENCY, PLAN_PRICES, planFor, type PlanPrice } from '../catalog.ts';
import type { PaymentProvider, ProviderSubscription } from '../provider.ts';
import type { SubscriptionRow } from '../tables.ts';
import { createOfferStore } from './store.ts';
import type { OfferRow, RedemptionRow } from './tables.ts';

export interface OfferInput {
  code: string;
  kind: OfferKind;
  percentOff?: number | undefined;
  amountOff?: number | undefined;
  duration: OfferDuration;
  durationInMonths?: number | undefined;
  priceIds?: string[] | undefined;
  maxRedemptions?: number | undefined;
  expiresAt?: Date | undefined;
}

/** A checkout given up holds its redemption this long (a provider's checkout session lives a day). */
export const HOLD_MS = 25 * 3_600_000;

const notFound = () => new AppError('not_found', 'This offer code is not valid or has ended.');
const fullyRedeemed = () => new AppError('conflict', 'This offer has been fully redeemed or has ended.');

/** The plans an offer applies to. */
export const plansOf = (offer: Pick<OfferRow, 'priceIds'>): readonly PlanPrice[] =>
  offer.priceIds ? PLAN_PRICES.filter((p) => offer.priceIds!.includes(p.tierId)) : PLAN_PRICES;

/** Whether an offer is open at `now`: not archived, not expired, not used up. */
const isOpen = (o: OfferRow, now: Date) =>
  !o.archivedAt && (!o.expiresAt || o.expiresAt > now) && (o.maxRedemptions === null || o.redemptions < o.maxRedemptions);

/** The offer as anyone may read it: its terms, and each plan's price with it taken off. */
export function publicOffer(o: OfferRow) {
  return {
    code: o.code,
    kind: o.kind,
    percentOff: o.percentOff,
    amountOff: o.amountOff,
    duration: o.duration,
    durationInMonths: o.durationInMonths,
    expiresAt: o.expiresAt?.toISOString() ?? null,
    terms: offerTerms(o),
    plans: plansOf(o).map((p) => ({
      priceId: p.tierId,
      name: p.name,
      interval: p.interval,
      amount: p.amount,
      discounted: discountedCents(p.amount, o),
    })),
  };
}
export type PublicOffer = ReturnType<typeof publicOffer>;

/** Until when a redeemed offer discounts the subscription (null: for as long as it lasts). */
function offerEnds(offer: OfferRow, redeemedAt: Date, interval: string): Date | null {
  if (offer.duration === 'forever') return null;
  if (offer.duration === 'repeating') return addMonths(redeemedAt, offer.durationInMonths ?? 1);
  return interval === 'year' ? addYears(redeemedAt, 1) : addMonths(redeemedAt, 1);
}

/** What the offers need: the database, the provider (its coupons) and the clock. */
interface OfferDeps {
  db: Db;
  provider: PaymentProvider;
  clock: () => Date;
}

/**
 * An offer of `kind` by code that is open and applies to `plan`: 404 for an unknown, archived or
 * expired code (nothing about it leaks), and for a used-up one too unless `usedUp` says 409 (a
 * checkout, where the member should hear why).
 */
async function openOffer(
  { db, clock }: OfferDeps,
  code: string,
  kind: OfferKind,
  plan?: PlanPrice,
  usedUp: 'not_found' | 'conflict' = 'not_found',
): Promise<OfferRow> {
  const offer = await createOfferStore(db).byCode(code.trim().toUpperCase());
  const now = clock();
  if (!offer || offer.kind !== kind || offer.archivedAt || (offer.expiresAt && offer.expiresAt <= now)) throw notFound();
  if (!isOpen(offer, now)) throw usedUp === 'conflict' ? fullyRedeemed() : notFound();
  if (plan && !plansOf(offer).some((p) => p.tierId === plan.tierId))
    throw new AppError('validation_failed', 'This offer does not apply to that plan.', { fields: { offerCode: ['Not for this plan'] } });
  return offer;
}

/** Holds one redemption of the offer for the member: 409 when used up (a race lost) or used by them already. */
async function take(
  { clock }: OfferDeps,
  tx: DbOrTx,
  offer: OfferRow,
  userId: string,
  values: Partial<RedemptionRow>,
): Promise<RedemptionRow & { reused: boolean }> {
  const store = createOfferStore(tx);
  const held = await store.redemptionOf(offer.id, userId);
  // A member's new checkout takes over their hold, which runs a day from now again.
  if (held?.status === 'pending' && values.status === 'pending') {
    await store.updateRedemption(held.id, { createdAt: clock() });
    return { ...held, reused: true };
  }
  if (held) throw new AppError('conflict', 'You have already used this offer.');
  if (!(await store.take(offer.id, clock()))) throw fullyRedeemed();
  const row = await store.addRedemption({ offerId: offer.id, userId, status: 'pending', ...values });
  if (!row) throw new AppError('conflict', 'You have already used this offer.');
  return { ...row, reused: false };
}

/** Gives a redemption back: released, and no longer counted against the offer. */
async function giveBack({ db }: OfferDeps, redemption: Pick<RedemptionRow, 'id' | 'offerId'>): Promise<void> {
  await db.transaction(async (tx) => {
    await createOfferStore(tx).updateRedemption(redemption.id, { status: 'released' });
    await createOfferStore(tx).giveBack(redemption.offerId);
  });
}
/** Offers as staff manage them (and the plans' free trials). */
function offerAdmin({ db, provider, clock }: OfferDeps) {
  return {
    /** POST /api/admin/payments/offers: the offer and its provider coupon; 409 for a code in use. */
    async create(actorId: string, input: OfferInput): Promise<{ id: string }> {
      const code = input.code.trim().toUpperCase();
      const store = createOfferStore(db);
      if (await store.byCode(code)) throw new AppError('conflict', 'An offer with this code exists already.');
      const plans = input.priceIds ? input.priceIds.map((id) => planFor(id)) : PLAN_PRICES;
      if (plans.some((p) => !p))
        throw new AppError('validation_failed', 'Choose paid plans.', { fields: { priceIds: ['Unknown or free plan'] } });
      if (input.amountOff && plans.some((p) => input.amountOff! >= p!.amount))
        throw new AppError('validation_failed', 'The amount off must be less than every plan’s price.', {
          fields: { amountOff: ['Too large'] },
        });
      const id = randomUUID();
      const { id: couponId } = await provider.createCoupon({
        id: `offer_${id.replaceAll('-', '')}`,
        name: code,
        percentOff: input.percentOff,
        amountOff: input.amountOff,
        currency: CURRENCY,
        duration: input.duration,
        durationInMonths: input.durationInMonths,
      });
      const row = await store.insert({
        id,
        code,
        kind: input.kind,
        percentOff: input.percentOff ?? null,
        amountOff: input.amountOff ?? null,
        duration: input.duration,
        durationInMonths: input.duration === 'repeating' ? (input.durationInMonths ?? 1) : null,
        priceIds: input.priceIds ?? null,
        maxRedemptions: input.maxRedemptions ?? null,
        expiresAt: input.expiresAt ?? null,
        couponId,
        createdBy: actorId,
      });
      if (!row) throw new AppError('conflict', 'An offer with this code exists already.');
      return { id: row.id };
    },

    /** GET /api/admin/payments/offers: every offer with its redemptions and the revenue it brought (cents). */
    async list() {
      const now = clock();
      return (await createOfferStore(db).list()).map(({ offer, redeemed, pending, revenue }) => ({
        id: offer.id,
        ...publicOffer(offer),
        priceIds: offer.priceIds,
        maxRedemptions: offer.maxRedemptions,
        open: isOpen(offer, now),
        archived: Boolean(offer.archivedAt),
        redeemed,
        pending,
        revenue,
        createdAt: offer.createdAt.toISOString(),
      }));
    },

    /** DELETE /api/admin/payments/offers/{id}: no new redemptions; those made keep their discount. */
    async archive(id: string): Promise<void> {
      if (!(await createOfferStore(db).archive(id, clock()))) throw new AppError('not_found', 'No such offer.');
    },

    /** PUT /api/admin/payments/offers/trials/{priceId}: a plan's free trial days (0: none). */
    async setTrial(actorId: string, priceId: string, days: number): Promise<void> {
      if (!planFor(priceId)) throw new AppError('not_found', 'No such plan.');
      await createOfferStore(db).setTrial(priceId, days, actorId);
    },
  };
}

/** Offers taken: looked up, held for a checkout, redeemed, followed on the subscription, given back. */
function redemptions(deps: OfferDeps) {
  const { db, clock } = deps;
  return {
    /** An open offer of `kind` by code (see openOffer). */
    openOffer: (code: string, kind: OfferKind, plan?: PlanPrice, usedUp?: 'not_found' | 'conflict') =>
      openOffer(deps, code, kind, plan, usedUp),

    /** GET /api/payments/offers/{code}: a sign-up offer's terms and prices; 404 for an unknown, expired or used-up code. */
    terms: async (code: string): Promise<PublicOffer> => publicOffer(await openOffer(deps, code, 'signup')),

    /** Holds a sign-up offer's redemption for a member's checkout of `plan` (released again when the checkout is not made). */
    async hold(userId: string, code: string, plan: PlanPrice) {
      const offer = await openOffer(deps, code, 'signup', plan, 'conflict');
      const redemption = await db.transaction((tx) => take(deps, tx, offer, userId, { status: 'pending' }));
      return {
        offer,
        attach: (sessionId: string) => createOfferStore(db).updateRedemption(redemption.id, { sessionId }),
        // Only a hold this checkout made goes back: one taken over may still belong to an open session.
        release: () => (redemption.reused ? Promise.resolve() : giveBack(deps, redemption)),
      };
    },

    /** A retention offer taken on a live subscription (the caller checked it is the member's and not cancelling). */
    async redeemRetention(tx: DbOrTx, offer: OfferRow, userId: string, subscriptionId: string): Promise<RedemptionRow> {
      return take(deps, tx, offer, userId, { status: 'redeemed', subscriptionId, redeemedAt: clock() });
    },
    /** Gives a redemption back: released, and no longer counted against the offer. */
    giveBack: (redemption: Pick<RedemptionRow, 'id' | 'offerId'>) => giveBack(deps, redemption),

    /**
     * Under billing's sync (its transaction, the member's lock): a checkout's held redemption becomes
     * redeemed on the subscription it made; each new paid invoice of that subscription adds to the
     * revenue the offer brought. Answers the offer's code while it discounts the subscription (the ledger's `offer`).
     */
    async follow(
      tx: DbOrTx,
      userId: string,
      row: Pick<SubscriptionRow, 'id' | 'interval'>,
      fresh: ProviderSubscription,
    ): Promise<string | undefined> {
      const store = createOfferStore(tx);
      const now = clock();
      // The checkout named its offer in the subscription's metadata; the member's held redemption is the one.
      const held = fresh.metadata.offerId ? await store.redemptionOf(fresh.metadata.offerId, userId) : undefined;
      if (held?.status === 'pending')
        await store.updateRedemption(held.id, { status: 'redeemed', subscriptionId: row.id, redeemedAt: now });
      const found = await store.ofSubscription(row.id);
      if (!found) return undefined;
      const { redemption, offer } = found;
      const ends = offerEnds(offer, redemption.redeemedAt ?? now, row.interval);
      const invoice = fresh.latestInvoice;
      if (invoice && invoice.id !== redemption.lastInvoiceId && invoice.amountPaid > 0)
        await store.updateRedemption(redemption.id, { revenue: redemption.revenue + invoice.amountPaid, lastInvoiceId: invoice.id });
      return !ends || ends > now ? offer.code : undefined;
    },

    /** Gives back what checkouts given up held for a day (the prune's). */
    async releaseStale(): Promise<number> {
      return db.transaction(async (tx) => {
        const store = createOfferStore(tx);
        const stale = await store.stalePending(new Date(clock().getTime() - HOLD_MS), 100);
        // Offers' counters in one order, so two instances' rounds never wait on each other in a cycle.
        stale.sort((a, b) => a.offerId.localeCompare(b.offerId));
        for (const r of stale) {
          await store.updateRedemption(r.id, { status: 'released' });
          await store.giveBack(r.offerId);
        }
        return stale.length;
      });
    },

    /** GET /api/payments/trials: each plan's free trial days (the pricing page says so). */
    trials: () => createOfferStore(db).trials(),

    /** The newest open retention offer for a plan that the member has not used, or null. */
    async retentionFor(userId: string, plan: PlanPrice | undefined): Promise<OfferRow | null> {
      if (!plan) return null;
      const store = createOfferStore(db);
      for (const offer of await store.openRetention(clock())) {
        if (!plansOf(offer).some((p) => p.tierId === plan.tierId)) continue;
        if (!(await store.redemptionOf(offer.id, userId))) return offer;
      }
      return null;
    },
  };
}

export function createOfferService(deps: OfferDeps) {
  return { ...offerAdmin(deps), ...redemptions(deps) };
}

export type OfferService = ReturnType<typeof createOfferService>;
