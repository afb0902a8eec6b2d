/**
 * The embedded provider's checkout: sessions for a plan or a one-time line, the test checkout
 * page's view and payment with Stripe's test card numbers (declines included, and one card that
 * pays now but fails every later charge), and refunds of one-time payments.
 */
import { isDeepStrictEqual } from 'node:util';
import { AppError } from '../../platform/errors.ts';
import { CURRENCY, PLAN_PRICES, planForLookupKey } from '../catalog.ts';
import type { CheckoutRequest, PaymentProvider } from '../provider.ts';
import { openSession, type EmbeddedContext } from './context.ts';
import { addDays } from 'date-fns/addDays';
import {
  discounted,
  discountFrom,
  idFromKey,
  invoiceObject,
  newId,
  newInvoice,
  nextPeriodEnd,
  priceIdFor,
  subscriptionObject,
  toSession,
  type CheckoutDetail,
} from './objects.ts';
import { createEmbeddedStore } from './store.ts';

/** Stripe's test cards that fail at checkout, with Stripe's decline messages. */
const DECLINES: Record<string, string> = {
  '4000000000000002': 'Your card was declined.',
  '4000000000009995': 'Your card has insufficient funds.',
  '4000000000000069': 'Your card has expired.',
  '4000000000000127': "Your card's security code is incorrect.",
};
/** Attaches and pays at checkout, but every later charge fails (renewals go past due, then end). */
const FAILS_LATER = '4000000000000341';

const CHECKOUT_HOURS = 24;

function luhn(digits: string): boolean {
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    let d = Number(digits[digits.length - 1 - i]);
    if (i % 2 === 1) d = d * 2 > 9 ? d * 2 - 9 : d * 2;
    sum += d;
  }
  return sum % 10 === 0;
}

export interface CardInput {
  cardNumber: string;
  expiry: string;
  cvc: string;
}

/** The card's problems as field errors (empty when it is a usable card number, expiry and code). */
export function cardErrors({ cardNumber, expiry, cvc }: CardInput, now: Date): Record<string, string[]> {
  const errors: Record<string, string[]> = {};
  const digits = cardNumber.replace(/[\s-]/g, '');
  if (!/^\d{13,19}$/.test(digits) || !luhn(digits)) errors.cardNumber = ['Your card number is invalid.'];
  const m = /^(\d{2})\s*\/\s*(\d{2}|\d{4})$/.exec(expiry.trim());
  const month = m ? Number(m[1]) : 0;
  const year = m ? Number(m[2]!.length === 2 ? `20${m[2]}` : m[2]) : 0;
  if (!m || month < 1 || month > 12) errors.expiry = ["Your card's expiration date is incomplete."];
  else if (year * 12 + month < now.getUTCFullYear() * 12 + now.getUTCMonth() + 1)
    errors.expiry = ["Your card's expiration year is in the past."];
  if (!/^\d{3,4}$/.test(cvc.trim())) errors.cvc = ["Your card's security code is incomplete."];
  return errors;
}

/** What the session sells: a plan by its provider price, or an inline one-time line. */
function lineOf(line: CheckoutRequest['line']): Pick<CheckoutDetail, 'lookupKey' | 'productName' | 'amount' | 'currency' | 'interval'> {
  if (!('priceId' in line)) return { productName: line.productName, amount: line.unitAmount, currency: line.currency, interval: null };
  const plan = PLAN_PRICES.find((p) => priceIdFor(p.lookupKey) === line.priceId);
  if (!plan) throw new Error(`No such price: ${line.priceId}`);
  return { lookupKey: plan.lookupKey, productName: plan.name, amount: plan.amount, currency: CURRENCY, interval: plan.interval };
}

/** The provider's checkout calls, answered from the embedded tables. */
function checkoutPort({ db, siteUrl, clock, events }: EmbeddedContext) {
  return {
    async createCheckoutSession(input) {
      const item = lineOf(input.line);
      if ((input.mode === 'subscription') !== Boolean(item.lookupKey))
        throw new Error('A subscription needs a plan price, a payment an inline line.');
      // Stripe's idempotency: the same key names the same session (as long as it asks for the same).
      const id = input.idempotencyKey ? idFromKey('cs', input.idempotencyKey) : newId('cs');
      const detail: CheckoutDetail = {
        mode: input.mode,
        userId: input.userId,
        ...item,
        metadata: input.metadata,
        successUrl: input.successUrl,
        cancelUrl: input.cancelUrl,
        ...(input.couponId ? { couponId: input.couponId } : {}),
        ...(input.trialDays ? { trialDays: input.trialDays } : {}),
      };
      if (input.couponId && !(await createEmbeddedStore(db).coupon(input.couponId))) throw new Error(`No such coupon: ${input.couponId}`);
      const values = {
        id,
        kind: 'checkout' as const,
        customerId: input.customerId,
        detail: JSON.parse(JSON.stringify(detail)) as Record<string, unknown>,
        status: 'open',
        expiresAt: new Date(clock().getTime() + CHECKOUT_HOURS * 3_600_000),
      };
      const row = await createEmbeddedStore(db).addSessionOnce(values);
      if (row.kind !== 'checkout' || row.customerId !== values.customerId || !isDeepStrictEqual(row.detail, values.detail)) {
        throw new AppError(
          'idempotency_key_reused',
          'Keys for idempotent requests can only be used with the same parameters they were first used with.',
        );
      }
      return { id, url: `${siteUrl}/billing/test-checkout?session=${id}` };
    },

    async retrieveCheckoutSession(id) {
      const row = await createEmbeddedStore(db).session(id, 'checkout');
      return row ? toSession(row, clock()) : null;
    },

    async refundCheckout({ sessionId, metadata }) {
      // Keyed by the session, like Stripe's idempotency key: a second call answers the first refund.
      const refund = await db.transaction(async (tx) => {
        const store = createEmbeddedStore(tx);
        const row = await store.lockSession(sessionId, 'checkout');
        if (!row) throw new AppError('not_found', 'No such checkout session.');
        const d = row.detail as unknown as CheckoutDetail;
        if (d.refund) return d.refund;
        if (d.mode !== 'payment' || row.status !== 'complete') throw new Error(`Checkout session ${sessionId} has no payment to refund`);
        const made = { id: newId('re'), metadata, at: clock().toISOString() };
        await store.updateSession(sessionId, { detail: { ...d, refund: made } as unknown as Record<string, unknown> });
        await events.raise(tx, 'charge.refunded', {
          id: newId('ch'),
          object: 'charge',
          amount: d.amount,
          amount_refunded: d.amount,
          refunded: true,
          customer: row.customerId,
          metadata: d.metadata,
        });
        return made;
      });
      void events.deliverPending();
      return { id: refund.id };
    },
  } satisfies Pick<PaymentProvider, 'createCheckoutSession' | 'retrieveCheckoutSession' | 'refundCheckout'>;
}

/** The checkout page's view of a session (the id is the capability, as with Stripe's hosted page). */
async function describeCheckout({ db, clock }: EmbeddedContext, id: string) {
  const row = await openSession(db, id, 'checkout');
  const d = row.detail as unknown as CheckoutDetail;
  const store = createEmbeddedStore(db);
  const email = await store.customerEmail(row.customerId);
  const coupon = d.couponId ? await store.coupon(d.couponId) : undefined;
  return {
    id: row.id,
    mode: d.mode,
    status: toSession(row, clock()).status,
    productName: d.productName,
    amount: d.amount,
    /** What is charged today: nothing during a trial, the offer's price otherwise. */
    dueToday: d.trialDays ? 0 : discounted(d.amount, coupon),
    trialDays: d.trialDays ?? 0,
    offer: coupon?.name ?? null,
    currency: d.currency,
    interval: d.interval,
    email: email ?? '',
    cancelUrl: d.cancelUrl,
  };
}

/** Pays an open checkout session with a test card; answers where the browser goes next. */
async function pay({ db, clock, events }: EmbeddedContext, id: string, card: CardInput): Promise<{ redirectUrl: string }> {
  const now = clock();
  const session = await openSession(db, id, 'checkout');
  if (toSession(session, clock()).status !== 'open') throw new AppError('conflict', 'This checkout is no longer open.');
  const errors = cardErrors(card, now);
  if (Object.keys(errors).length) throw new AppError('validation_failed', 'Check the card details.', { fields: errors });
  const digits = card.cardNumber.replace(/[\s-]/g, '');
  const decline = DECLINES[digits];
  if (decline) throw new AppError('payment_required', decline);
  const d = session.detail as unknown as CheckoutDetail;

  await db.transaction(async (tx) => {
    const store = createEmbeddedStore(tx);
    const locked = await store.lockSession(id, 'checkout');
    if (locked?.status !== 'open') throw new AppError('conflict', 'This checkout is no longer open.');
    await store.updateCustomer(session.customerId, { cardLast4: digits.slice(-4), cardFailsLater: digits === FAILS_LATER });
    let subscriptionId: string | null = null;
    if (d.mode === 'subscription' && d.lookupKey) {
      const plan = planForLookupKey(d.lookupKey)!;
      const coupon = d.couponId ? await store.coupon(d.couponId) : undefined;
      const discount = coupon ? discountFrom(coupon, now) : null;
      const trialEnd = d.trialDays ? addDays(now, d.trialDays) : null;
      const sub = await store.addSubscription({
        id: newId('sub'),
        customerId: session.customerId,
        status: trialEnd ? 'trialing' : 'active',
        lookupKey: d.lookupKey,
        currentPeriodStart: now,
        currentPeriodEnd: trialEnd ?? nextPeriodEnd(now, plan),
        trialEnd,
        latestInvoice: newInvoice(trialEnd ? 0 : discounted(plan.amount, discount), 'subscription_create'),
        // A `once` coupon is used up by the first invoice it took money off (a trial's is the next one).
        discount: discount?.duration === 'once' && !trialEnd ? null : discount,
        metadata: d.metadata,
        createdAt: now,
      });
      subscriptionId = sub.id;
      await events.raise(tx, 'customer.subscription.created', subscriptionObject(sub));
      await events.raise(tx, 'invoice.paid', invoiceObject(sub));
    }
    const done = await store.updateSession(id, { status: 'complete', subscriptionId });
    await events.raise(tx, 'checkout.session.completed', {
      id,
      object: 'checkout.session',
      mode: d.mode,
      status: 'complete',
      customer: done!.customerId,
      subscription: subscriptionId,
      client_reference_id: d.userId,
    });
  });
  // Like Stripe's hosted page, wait for our endpoint to take the events before redirecting.
  await events.deliverPending();
  return { redirectUrl: d.successUrl.replaceAll('{CHECKOUT_SESSION_ID}', id) };
}

export function createCheckouts(ctx: EmbeddedContext) {
  return {
    ...checkoutPort(ctx),
    /** The checkout page's view of a session (the id is the capability, as with Stripe's hosted page). */
    describeCheckout: (id: string) => describeCheckout(ctx, id),
    /** Pays an open checkout session with a test card; answers where the browser goes next. */
    pay: (id: string, card: CardInput) => pay(ctx, id, card),
  };
}
