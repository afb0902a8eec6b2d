/**
 * Gift memberships (issue 34): a member buys 1, 3, 6 or 12 months of Subscriber or Premium once, for
 * a recipient address, with a message and a delivery date. Paid (from confirm or the webhook, once),
 * the buyer gets a receipt and the recipient a mail with the redeem link at the delivery date. The
 * recipient redeems the code once, within a year of payment: a free member (or a visitor who signs
 * up) gets the level at once, until the months have run (after any gift of theirs still running); a
 * member whose subscription runs keeps paying nothing extra: the gift waits and starts, for its full
 * length, the day their paid access ends (decided: never two reasons for one day they pay for).
 */
import { randomBytes } from 'node:crypto';
import { addDays } from 'date-fns/addDays';
import { addMonths } from 'date-fns/addMonths';
import { GIFT_DELIVERY_DAYS, giftName, type GiftMonths } from '#shared/payments/gifts.ts';
import type { DbOrTx } from '../../platform/db/client.ts';
import { AppError } from '../../platform/errors.ts';
import { memberAccess } from '../../users/index.ts';
import type { ProfileRow } from '../../users/index.ts';
import type { BillingContext } from '../context.ts';
import { BILLING_ACTOR } from '../context.ts';
import type { AccessLedger } from '../grants/ledger.ts';
import { createGrantStore } from '../grants/store.ts';
import { grants as subscriptionGrants } from '../provider.ts';
import { createPaymentStore } from '../store.ts';
import { createGiftStore } from './store.ts';
import type { GiftRow } from './tables.ts';
import { grantEvent } from '../outbound-events.ts';

/** What a buyer orders (POST /api/payments/gifts, through checkout's `gift`). */
export interface GiftOrder {
  accessLevel: GiftRow['accessLevel'];
  months: GiftMonths;
  recipientEmail: string;
  recipientName?: string | undefined;
  /** How the recipient sees the giver (else the buyer's display name). */
  fromName?: string | undefined;
  message?: string | undefined;
  deliverAt?: Date | undefined;
}

/** 20 characters of an alphabet without look-alikes: what a recipient may have to type. */
export function newGiftCode(): string {
  const alphabet = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789';
  return [...randomBytes(20)].map((b) => alphabet[b % alphabet.length]).join('');
}
export const GIFT_CODE = /^[A-HJ-NP-Z2-9]{20}$/;

/** A gift's state as its buyer reads it on the account page. */
function giftState(g: GiftRow, now: Date): 'awaiting_payment' | 'scheduled' | 'delivered' | 'redeemed' | 'expired' {
  if (g.status === 'pending') return 'awaiting_payment';
  if (g.status === 'redeemed') return 'redeemed';
  if (g.expiresAt && g.expiresAt <= now) return 'expired';
  return g.deliverAt > now ? 'scheduled' : 'delivered';
}

/** What the gifts' parts share: billing's context and the access ledger. */
interface GiftParts extends BillingContext {
  ledger: AccessLedger;
}

/** The gift's redeem page. */
function redeemUrl({ origin }: GiftParts, code: string) {
  return `${origin}/gift/redeem?code=${code}`;
}

/** Opens a gift's row in the ledger for the locked member, after any gift of theirs still running. */
async function start({ clock, webhooks }: GiftParts, tx: DbOrTx, profile: ProfileRow, gift: GiftRow, now = clock()): Promise<void> {
  const running = (await createGrantStore(tx).currentOfSource(profile.id, 'gift', now)).map((g) => g.endsAt ?? now);
  const from = new Date(Math.max(now.getTime(), ...running.map((d) => d.getTime())));
  const row = await createGrantStore(tx).insert({
    userId: profile.id,
    accessLevel: gift.accessLevel,
    source: 'gift',
    sourceId: gift.id,
    startsAt: from,
    endsAt: addMonths(from, gift.months),
    createdBy: gift.buyerId ?? BILLING_ACTOR,
    detail: gift.buyerName,
  });
  await grantEvent(webhooks, tx, 'grant.started', profile, row);
}
/** A gift bought: made waiting for its payment, its session, dropped, paid (the mails). */
function buying(deps: GiftParts) {
  const { db, outbox, clock, origin, testMode } = deps;
  return {
    /** A new gift waiting for its payment; its code is made here. */
    async create(buyer: ProfileRow, input: GiftOrder & { amount: number }) {
      return createGiftStore(db).insert({
        code: newGiftCode(),
        buyerId: buyer.id,
        // The name the buyer signs with, else their display name; never their address.
        buyerName: input.fromName?.trim() || buyer.name?.trim() || 'A friend',
        recipientEmail: input.recipientEmail.trim().toLowerCase(),
        recipientName: input.recipientName ?? null,
        message: input.message ?? null,
        accessLevel: input.accessLevel,
        months: input.months,
        amount: input.amount,
        status: 'pending',
        deliverAt: input.deliverAt ?? clock(),
      });
    },
    attachSession: (id: string, sessionId: string) => createGiftStore(db).setSession(id, sessionId),
    drop: (id: string) => createGiftStore(db).remove(id),

    /** A paid gift checkout, applied once: the buyer's receipt now, the recipient's mail at the delivery date. */
    async paid(session: { id: string; metadata: Record<string, string> }): Promise<void> {
      const now = clock();
      await db.transaction(async (tx) => {
        // A year to redeem from the day it reaches the recipient, not from the payment.
        const deliverAt = await createGiftStore(tx).deliveryOf(session.metadata.giftId ?? '');
        const from = deliverAt && deliverAt > now ? deliverAt : now;
        const gift = await createGiftStore(tx).markPaid(session.metadata.giftId ?? '', session.id, now, addDays(from, GIFT_DELIVERY_DAYS));
        if (!gift) return;
        const buyer = gift.buyerId ? await memberAccess(tx).byId(gift.buyerId) : undefined;
        const what = giftName(gift.accessLevel, gift.months as GiftMonths);
        await outbox.enqueue(tx, {
          to: gift.recipientEmail,
          template: 'gift-received',
          data: {
            from: gift.buyerName,
            recipientName: gift.recipientName,
            what,
            message: gift.message,
            url: redeemUrl(deps, gift.code),
            expiresAt: gift.expiresAt!.toISOString(),
          },
          notBefore: gift.deliverAt > now ? gift.deliverAt : undefined,
        });
        if (buyer)
          await outbox.enqueue(tx, {
            to: buyer.email,
            template: 'gift-purchased',
            userId: buyer.id,
            data: {
              language: buyer.language,
              what,
              amount: gift.amount,
              recipient: gift.recipientEmail,
              deliverAt: gift.deliverAt.toISOString(),
              url: `${origin}/account`,
              testMode,
            },
          });
      });
    },
  };
}

/** A gift received: previewed, redeemed, started once paid access ends, and the buyer's list. */
function redeeming(deps: GiftParts) {
  const { db, clock, ledger } = deps;
  return {
    /** GET /api/payments/gifts/{code}: what the gift is, for its redeem page (never the recipient's address); 404 unless paid. */
    async preview(code: string) {
      const gift = GIFT_CODE.test(code) ? await createGiftStore(db).byCode(code) : undefined;
      if (!gift || gift.status === 'pending') throw new AppError('not_found', 'No gift with this code.');
      const state = giftState(gift, clock());
      return {
        accessLevel: gift.accessLevel,
        months: gift.months,
        from: gift.buyerName,
        recipientName: gift.recipientName,
        message: gift.message,
        state: state === 'scheduled' ? ('delivered' as const) : state,
        expiresAt: gift.expiresAt?.toISOString() ?? null,
      };
    },

    /**
     * POST /api/payments/gifts/{code}/redeem: the gift for the caller, once. Under their profile's lock: with
     * a subscription of theirs running it waits for their paid access to end; else its row opens now.
     */
    async redeem(userId: string, code: string) {
      if (!GIFT_CODE.test(code)) throw new AppError('not_found', 'No gift with this code.');
      return db.transaction(async (tx) => {
        const profile = await memberAccess(tx).lock(userId);
        if (!profile) throw new AppError('not_found', 'No such user.');
        const now = clock();
        const paying = (await createPaymentStore(tx).subscriptionsOf(userId)).some(
          (s) => subscriptionGrants(s, now) && s.accessLevel !== 'free',
        );
        const gift = await createGiftStore(tx).claim(code, userId, now, paying);
        if (!gift) {
          const found = await createGiftStore(tx).byCode(code);
          if (!found || found.status === 'pending') throw new AppError('not_found', 'No gift with this code.');
          throw new AppError('conflict', found.status === 'redeemed' ? 'This gift has already been redeemed.' : 'This gift has expired.');
        }
        if (!paying) await start(deps, tx, profile, gift, now);
        await ledger.recompute(
          tx,
          profile,
          { actorId: gift.buyerId ?? BILLING_ACTOR, action: 'access_level.gift', detail: { giftId: gift.id } },
          now,
        );
        const row = (await createGrantStore(tx).currentOfSource(userId, 'gift', now)).find((g) => g.sourceId === gift.id);
        return {
          accessLevel: gift.accessLevel,
          source: 'gift' as const,
          startsAt: row?.startsAt.toISOString() ?? null,
          endsAt: row?.endsAt?.toISOString() ?? null,
          /** It starts the day the member's paid access ends. */
          waiting: paying,
        };
      });
    },

    /** Under billing's sync, once the member's subscriptions grant no more: their waiting gifts start. */
    async startWaiting(tx: DbOrTx, profile: ProfileRow, now = clock()): Promise<boolean> {
      const waiting = await createGiftStore(tx).waitingOf(profile.id);
      for (const gift of waiting) {
        await start(deps, tx, profile, gift, now);
        await createGiftStore(tx).started(gift.id);
      }
      return waiting.length > 0;
    },

    /** GET /api/payments/gifts: the gifts the member bought, with their state. */
    async mine(userId: string) {
      const now = clock();
      return (await createGiftStore(db).boughtBy(userId)).map((g) => ({
        id: g.id,
        accessLevel: g.accessLevel,
        months: g.months,
        recipientEmail: g.recipientEmail,
        amount: g.amount,
        state: giftState(g, now),
        deliverAt: g.deliverAt.toISOString(),
        redeemedAt: g.redeemedAt?.toISOString() ?? null,
        expiresAt: g.expiresAt?.toISOString() ?? null,
        /** The link, for the buyer to pass on themselves if the mail went astray. */
        redeemUrl: g.status === 'paid' ? redeemUrl(deps, g.code) : null,
      }));
    },
  };
}

export function createGifts(ctx: BillingContext, ledger: AccessLedger) {
  const deps: GiftParts = { ...ctx, ledger };
  return { ...buying(deps), ...redeeming(deps) };
}

export type Gifts = ReturnType<typeof createGifts>;
