/**
 * The embedded test payment provider: the default when no Stripe key is configured. It keeps what
 * Stripe would keep (customers, checkout and portal sessions, subscriptions) in its own tables,
 * serves a checkout page and a billing portal on our origin (clearly marked as test pages), takes
 * Stripe's test card numbers, and runs subscriptions with real periods that renew, fail and end on
 * a clock the tests can move. Every change raises the event Stripe would send, stored with the
 * change and delivered to the same handler as Stripe's webhooks until it is taken, so a crash
 * between paying and confirming loses nothing. Plan changes follow Stripe's billing: upgrades
 * prorated and charged at once (proration.ts), downgrades held for the renewal, and a test clock
 * per subscription. Longer than our usual file because it is one state machine over its own
 * tables (sessions, subscriptions, renewals, events); the arithmetic lives in proration.ts.
 */
import { randomBytes } from 'node:crypto';
import { addMonths, addYears } from 'date-fns';
import { and, asc, desc, eq, inArray, isNull, lte } from 'drizzle-orm';
import Stripe from 'stripe';
import type { Db, DbOrTx } from '../../platform/db/client.ts';
import {
  testBillingCustomers as customers,
  testBillingEvents as events,
  testBillingSessions as sessions,
  testBillingSubscriptions as subs,
} from '../../platform/db/schema.ts';
import { AppError } from '../../platform/errors.ts';
import type { Logger } from '../../platform/logger.ts';
import { planChange } from '#shared/pricing.ts';
import { CURRENCY, PLAN_PRICES, planForLookupKey, type PlanPrice } from '../catalog.ts';
import { prorate, settle } from './proration.ts';
import {
  WebhookSignatureError,
  type CheckoutRequest,
  type PaymentProvider,
  type ProviderCheckoutSession,
  type ProviderEvent,
  type ProviderPrice,
  type ProviderSubscription,
  type SubscriptionPrice,
  type SubscriptionStatus,
} from '../provider.ts';

export interface EmbeddedProviderOptions {
  db: Db;
  siteUrl: string;
  /** Signs and verifies webhook payloads sent to our endpoint (Stripe's scheme), as Stripe's secret would. */
  webhookSecret: string;
  logger: Logger;
  /** Now, as the provider sees it; tests move it to renew and end subscriptions. */
  clock?: () => Date;
}

type SubRow = typeof subs.$inferSelect;
type SessionRow = typeof sessions.$inferSelect;

interface CheckoutDetail {
  mode: 'subscription' | 'payment';
  userId: string;
  lookupKey?: string;
  productName: string;
  amount: number;
  currency: string;
  interval: 'month' | 'year' | null;
  metadata: Record<string, string>;
  successUrl: string;
  cancelUrl: string;
  /** Set once the payment was refunded (one-time payments only). */
  refund?: { id: string; metadata: Record<string, string>; at: string };
}

interface PortalDetail {
  returnUrl: string;
}

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
const PORTAL_MINUTES = 60;
const GRANTING: readonly SubscriptionStatus[] = ['active', 'trialing', 'past_due'];

const newId = (prefix: string) => `${prefix}_test_${randomBytes(12).toString('base64url')}`;
const seconds = (d: Date) => Math.floor(d.getTime() / 1000);
const priceIdFor = (lookupKey: string) => `price_test_${lookupKey}`;
const planByPriceId = (priceId: string) => PLAN_PRICES.find((p) => priceIdFor(p.lookupKey) === priceId);

function priceRef(lookupKey: string): SubscriptionPrice {
  const plan = planForLookupKey(lookupKey);
  return { id: priceIdFor(lookupKey), lookupKey, unitAmount: plan?.amount ?? 0, interval: plan?.interval ?? null };
}

type Invoice = NonNullable<SubRow['latestInvoice']>;
const newInvoice = (amountPaid: number, billingReason: string): Invoice => ({ id: newId('in'), amountPaid, billingReason });

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

export function createEmbeddedProvider({ db, siteUrl, webhookSecret, logger, clock = () => new Date() }: EmbeddedProviderOptions) {
  const signer = new Stripe('sk_test_embedded');
  let handler: ((event: ProviderEvent) => Promise<unknown>) | undefined;
  let delivering: Promise<void> = Promise.resolve();
  let stopped = false;

  function toSubscription(row: SubRow): ProviderSubscription {
    return {
      id: row.id,
      customerId: row.customerId,
      status: row.status,
      cancelAtPeriodEnd: row.cancelAtPeriodEnd,
      cancelAt: null,
      currentPeriodEnd: row.currentPeriodEnd,
      endedAt: row.endedAt,
      price: priceRef(row.lookupKey),
      scheduledChange: row.pendingLookupKey ? { price: priceRef(row.pendingLookupKey), at: row.currentPeriodEnd } : null,
      latestInvoice: row.latestInvoice ?? null,
      metadata: row.metadata,
    };
  }

  /** Stripe's shape of a subscription, for event payloads. */
  function subscriptionObject(row: SubRow): Record<string, unknown> {
    return {
      id: row.id,
      object: 'subscription',
      customer: row.customerId,
      status: row.status,
      cancel_at_period_end: row.cancelAtPeriodEnd,
      ended_at: row.endedAt ? seconds(row.endedAt) : null,
      metadata: row.metadata,
      items: {
        data: [
          {
            price: { id: priceIdFor(row.lookupKey), lookup_key: row.lookupKey },
            current_period_start: seconds(row.currentPeriodStart),
            current_period_end: seconds(row.currentPeriodEnd),
          },
        ],
      },
    };
  }

  function toSession(row: SessionRow): ProviderCheckoutSession {
    const d = row.detail as unknown as CheckoutDetail;
    const expired = row.status === 'open' && row.expiresAt <= clock();
    return {
      id: row.id,
      mode: d.mode,
      status: expired ? 'expired' : (row.status as ProviderCheckoutSession['status']),
      paymentStatus: row.status === 'complete' ? 'paid' : 'unpaid',
      customerId: row.customerId,
      subscriptionId: row.subscriptionId,
      clientReferenceId: d.userId,
      metadata: d.metadata,
      amountTotal: d.amount,
    };
  }

  async function raise(tx: DbOrTx, type: string, object: Record<string, unknown>): Promise<void> {
    await tx.insert(events).values({ id: newId('evt'), type, object, created: seconds(clock()) });
  }

  /** Hands stored events to the handler in order, one delivery loop at a time; a failure waits for the next round. */
  function deliverPending(): Promise<void> {
    delivering = delivering.then(async () => {
      if (!handler || stopped) return;
      try {
        const pending = await db
          .select()
          .from(events)
          .where(isNull(events.deliveredAt))
          .orderBy(asc(events.created), asc(events.id))
          .limit(500);
        for (const row of pending) {
          if (stopped) return;
          await handler({ object: 'event', id: row.id, type: row.type, created: row.created, data: { object: row.object } });
          await db.update(events).set({ deliveredAt: new Date() }).where(eq(events.id, row.id));
        }
      } catch (err) {
        logger.warn({ err }, 'embedded billing events not all taken; the next round retries');
      }
    });
    return delivering;
  }

  async function findSub(id: string): Promise<SubRow | undefined> {
    const [row] = await db.select().from(subs).where(eq(subs.id, id));
    return row;
  }

  async function updateSub(
    id: string,
    change: Partial<SubRow>,
    eventType = 'customer.subscription.updated',
  ): Promise<ProviderSubscription> {
    const row = await db.transaction(async (tx) => {
      const [updated] = await tx.update(subs).set(change).where(eq(subs.id, id)).returning();
      if (!updated) throw new AppError('not_found', 'No such subscription.');
      await raise(tx, eventType, subscriptionObject(updated));
      return updated;
    });
    void deliverPending();
    return toSubscription(row);
  }

  const provider: PaymentProvider = {
    kind: 'embedded',
    mode: 'test',

    async pricesByLookupKeys(keys) {
      return PLAN_PRICES.filter((p) => keys.includes(p.lookupKey)).map((p): ProviderPrice => ({
        id: priceIdFor(p.lookupKey),
        lookupKey: p.lookupKey,
        unitAmount: p.amount,
        currency: CURRENCY,
        interval: p.interval,
        productName: p.name,
      }));
    },

    async createCustomer({ email, userId, idempotencyKey }) {
      await db
        .insert(customers)
        .values({ id: newId('cus'), email, userId, idempotencyKey })
        .onConflictDoNothing();
      const [row] = await db.select({ id: customers.id }).from(customers).where(eq(customers.idempotencyKey, idempotencyKey));
      return { id: row!.id };
    },

    async createCheckoutSession(input: CheckoutRequest) {
      let item: Pick<CheckoutDetail, 'lookupKey' | 'productName' | 'amount' | 'currency' | 'interval'>;
      if ('priceId' in input.line) {
        const plan = PLAN_PRICES.find((p) => priceIdFor(p.lookupKey) === (input.line as { priceId: string }).priceId);
        if (!plan) throw new Error(`No such price: ${input.line.priceId}`);
        item = { lookupKey: plan.lookupKey, productName: plan.name, amount: plan.amount, currency: CURRENCY, interval: plan.interval };
      } else {
        item = { productName: input.line.productName, amount: input.line.unitAmount, currency: input.line.currency, interval: null };
      }
      if ((input.mode === 'subscription') !== Boolean(item.lookupKey))
        throw new Error('A subscription needs a plan price, a payment an inline line.');
      const id = newId('cs');
      const detail: CheckoutDetail = {
        mode: input.mode,
        userId: input.userId,
        ...item,
        metadata: input.metadata,
        successUrl: input.successUrl,
        cancelUrl: input.cancelUrl,
      };
      await db.insert(sessions).values({
        id,
        kind: 'checkout',
        customerId: input.customerId,
        detail: detail as unknown as Record<string, unknown>,
        status: 'open',
        expiresAt: new Date(clock().getTime() + CHECKOUT_HOURS * 3_600_000),
      });
      return { id, url: `${siteUrl}/billing/test-checkout?session=${id}` };
    },

    async retrieveCheckoutSession(id) {
      const [row] = await db
        .select()
        .from(sessions)
        .where(and(eq(sessions.id, id), eq(sessions.kind, 'checkout')));
      return row ? toSession(row) : null;
    },

    async retrieveSubscription(id) {
      const row = await findSub(id);
      return row ? toSubscription(row) : null;
    },

    async listSubscriptions(customerId) {
      const rows = await db.select().from(subs).where(eq(subs.customerId, customerId)).orderBy(desc(subs.createdAt));
      return rows.map(toSubscription);
    },

    setCancelAtPeriodEnd: (id, cancel) => updateSub(id, { cancelAtPeriodEnd: cancel }),

    cancelNow: (id) => updateSub(id, { status: 'canceled', endedAt: clock(), cancelAtPeriodEnd: false }, 'customer.subscription.deleted'),

    changePrice: (id, { priceId }) => {
      const plan = planByPriceId(priceId);
      if (!plan) throw new Error(`No such price: ${priceId}`);
      return changePlanNow(id, plan);
    },

    schedulePrice(id, price) {
      const plan = price ? planByPriceId(price.id) : undefined;
      if (price && !plan) throw new Error(`No such price: ${price.id}`);
      return updateSub(id, { pendingLookupKey: plan?.lookupKey ?? null });
    },

    async createPortalSession({ customerId, returnUrl }) {
      const id = newId('bps');
      const detail: PortalDetail = { returnUrl };
      await db.insert(sessions).values({
        id,
        kind: 'portal',
        customerId,
        detail: detail as unknown as Record<string, unknown>,
        status: 'open',
        expiresAt: new Date(clock().getTime() + PORTAL_MINUTES * 60_000),
      });
      return { url: `${siteUrl}/billing/test-portal?session=${id}` };
    },

    async refundCheckout({ sessionId, metadata }) {
      // Keyed by the session, like Stripe's idempotency key: a second call answers the first refund.
      const refund = await db.transaction(async (tx) => {
        const [row] = await tx
          .select()
          .from(sessions)
          .where(and(eq(sessions.id, sessionId), eq(sessions.kind, 'checkout')))
          .for('update');
        if (!row) throw new AppError('not_found', 'No such checkout session.');
        const d = row.detail as unknown as CheckoutDetail;
        if (d.refund) return d.refund;
        if (d.mode !== 'payment' || row.status !== 'complete') throw new Error(`Checkout session ${sessionId} has no payment to refund`);
        const made = { id: newId('re'), metadata, at: clock().toISOString() };
        await tx
          .update(sessions)
          .set({ detail: { ...d, refund: made } as unknown as Record<string, unknown> })
          .where(eq(sessions.id, sessionId));
        await raise(tx, 'charge.refunded', {
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
      void deliverPending();
      return { id: refund.id };
    },

    async verifyWebhook(rawBody, signature) {
      if (!signature) throw new WebhookSignatureError('No Stripe-Signature header.');
      try {
        return (await signer.webhooks.constructEventAsync(rawBody, signature, webhookSecret)) as unknown as ProviderEvent;
      } catch (err) {
        throw new WebhookSignatureError(err instanceof Error ? err.message : 'The signature does not match.');
      }
    },
  };

  async function openSession(id: string, kind: 'checkout' | 'portal'): Promise<SessionRow> {
    const [row] = /^(cs|bps)_test_[\w-]{16}$/.test(id)
      ? await db
          .select()
          .from(sessions)
          .where(and(eq(sessions.id, id), eq(sessions.kind, kind)))
      : [];
    if (!row) throw new AppError('not_found', kind === 'checkout' ? 'No such checkout session.' : 'No such portal session.');
    return row;
  }

  /** The checkout page's view of a session (the id is the capability, as with Stripe's hosted page). */
  async function describeCheckout(id: string) {
    const row = await openSession(id, 'checkout');
    const d = row.detail as unknown as CheckoutDetail;
    const [customer] = await db.select({ email: customers.email }).from(customers).where(eq(customers.id, row.customerId));
    return {
      id: row.id,
      mode: d.mode,
      status: toSession(row).status,
      productName: d.productName,
      amount: d.amount,
      currency: d.currency,
      interval: d.interval,
      email: customer?.email ?? '',
      cancelUrl: d.cancelUrl,
    };
  }

  /** Pays an open checkout session with a test card; answers where the browser goes next. */
  async function pay(id: string, card: CardInput): Promise<{ redirectUrl: string }> {
    const now = clock();
    const session = await openSession(id, 'checkout');
    if (toSession(session).status !== 'open') throw new AppError('conflict', 'This checkout is no longer open.');
    const errors = cardErrors(card, now);
    if (Object.keys(errors).length) throw new AppError('validation_failed', 'Check the card details.', { fields: errors });
    const digits = card.cardNumber.replace(/[\s-]/g, '');
    const decline = DECLINES[digits];
    if (decline) throw new AppError('payment_required', decline);
    const d = session.detail as unknown as CheckoutDetail;

    await db.transaction(async (tx) => {
      const [locked] = await tx.select().from(sessions).where(eq(sessions.id, id)).for('update');
      if (locked?.status !== 'open') throw new AppError('conflict', 'This checkout is no longer open.');
      await tx
        .update(customers)
        .set({ cardLast4: digits.slice(-4), cardFailsLater: digits === FAILS_LATER })
        .where(eq(customers.id, session.customerId));
      let subscriptionId: string | null = null;
      if (d.mode === 'subscription' && d.lookupKey) {
        const plan = planForLookupKey(d.lookupKey)!;
        const [sub] = await tx
          .insert(subs)
          .values({
            id: newId('sub'),
            customerId: session.customerId,
            status: 'active',
            lookupKey: d.lookupKey,
            currentPeriodStart: now,
            currentPeriodEnd: nextPeriodEnd(now, plan),
            latestInvoice: newInvoice(plan.amount, 'subscription_create'),
            metadata: d.metadata,
            createdAt: now,
          })
          .returning();
        subscriptionId = sub!.id;
        await raise(tx, 'customer.subscription.created', subscriptionObject(sub!));
        await raise(tx, 'invoice.paid', invoiceObject(sub!));
      }
      const [done] = await tx.update(sessions).set({ status: 'complete', subscriptionId }).where(eq(sessions.id, id)).returning();
      await raise(tx, 'checkout.session.completed', {
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
    await deliverPending();
    return { redirectUrl: d.successUrl.replaceAll('{CHECKOUT_SESSION_ID}', id) };
  }

  function nextPeriodEnd(from: Date, plan: PlanPrice | undefined): Date {
    return plan?.interval === 'year' ? addYears(from, 1) : addMonths(from, 1);
  }

  function invoiceObject(row: SubRow): Record<string, unknown> {
    return {
      id: row.latestInvoice?.id ?? newId('in'),
      object: 'invoice',
      customer: row.customerId,
      amount_paid: row.latestInvoice?.amountPaid ?? 0,
      billing_reason: row.latestInvoice?.billingReason ?? null,
      parent: { subscription_details: { subscription: row.id } },
    };
  }

  /**
   * An upgrade now, as Stripe bills it with `always_invoice` and pending updates: the prorated
   * difference is charged at once (credit first); a card that fails later refuses the charge and
   * nothing changes; an interval change starts a new period now.
   */
  async function changePlanNow(id: string, plan: PlanPrice): Promise<{ subscription: ProviderSubscription; paid: boolean }> {
    const outcome = await db.transaction(async (tx) => {
      const [row] = await tx.select().from(subs).where(eq(subs.id, id)).for('update');
      if (!row) throw new AppError('not_found', 'No such subscription.');
      const [customer] = await tx.select().from(customers).where(eq(customers.id, row.customerId)).for('update');
      const now = clock();
      const from = planForLookupKey(row.lookupKey);
      const restart = from?.interval !== plan.interval;
      const due = prorate({
        oldAmount: from?.amount ?? 0,
        newAmount: plan.amount,
        periodStart: row.currentPeriodStart,
        periodEnd: row.currentPeriodEnd,
        now,
        restart,
      });
      const bill = settle(due, customer?.credit ?? 0);
      if (bill.amountPaid > 0 && customer?.cardFailsLater) {
        await raise(tx, 'invoice.payment_failed', {
          ...invoiceObject(row),
          id: newId('in'),
          amount_paid: 0,
          billing_reason: 'subscription_update',
        });
        return { row, paid: false };
      }
      await tx.update(customers).set({ credit: bill.credit }).where(eq(customers.id, row.customerId));
      const [updated] = await tx
        .update(subs)
        .set({
          lookupKey: plan.lookupKey,
          pendingLookupKey: null,
          latestInvoice: newInvoice(bill.amountPaid, 'subscription_update'),
          ...(restart ? { currentPeriodStart: now, currentPeriodEnd: nextPeriodEnd(now, plan) } : {}),
        })
        .where(eq(subs.id, id))
        .returning();
      await raise(tx, 'customer.subscription.updated', subscriptionObject(updated!));
      await raise(tx, 'invoice.paid', invoiceObject(updated!));
      return { row: updated!, paid: true };
    });
    void deliverPending();
    return { subscription: toSubscription(outcome.row), paid: outcome.paid };
  }

  const planJson = (p: PlanPrice) => ({ priceId: p.tierId, name: p.name, amount: p.amount, interval: p.interval });

  function portalSubscription(s: ProviderSubscription) {
    const p = planForLookupKey(s.price.lookupKey);
    const next = s.scheduledChange && planForLookupKey(s.scheduledChange.price.lookupKey);
    return {
      id: s.id,
      status: s.status,
      cancelAtPeriodEnd: s.cancelAtPeriodEnd,
      currentPeriodEnd: s.currentPeriodEnd.toISOString(),
      plan: p ? planJson(p) : { priceId: '', name: 'Unknown plan', amount: s.price.unitAmount, interval: s.price.interval ?? 'month' },
      scheduledChange: next ? { plan: planJson(next), effectiveAt: s.scheduledChange!.at.toISOString() } : null,
    };
  }

  /** The portal page's view: the customer's subscriptions and the plans they may switch to. */
  async function describePortal(id: string) {
    const session = await openSession(id, 'portal');
    if (session.expiresAt <= clock()) throw new AppError('gone', 'This portal link has expired. Open it again from your account.');
    const [customer] = await db.select({ email: customers.email }).from(customers).where(eq(customers.id, session.customerId));
    const list = await provider.listSubscriptions(session.customerId);
    return {
      email: customer?.email ?? '',
      returnUrl: (session.detail as unknown as PortalDetail).returnUrl,
      subscriptions: list.map(portalSubscription),
      plans: PLAN_PRICES.map(planJson),
    };
  }

  /**
   * Switches plan the way Stripe's portal does when configured as our pricing page behaves
   * (`planChange`): an upgrade now with the prorated difference charged, a downgrade at the period
   * end, the current plan withdraws a scheduled change. Switching withdraws a pending cancel.
   */
  async function portalSwitch(row: SubRow, priceId: string | undefined): Promise<ProviderSubscription> {
    const plan = PLAN_PRICES.find((p) => p.tierId === priceId);
    if (!plan) throw new AppError('validation_failed', 'Choose one of the plans.', { fields: { priceId: ['Unknown plan'] } });
    const current = planForLookupKey(row.lookupKey);
    const direction = current ? planChange(current, plan) : 'up';
    if (direction === 'same' && !row.pendingLookupKey && !row.cancelAtPeriodEnd)
      throw new AppError('conflict', 'You are already on this plan.');
    if (direction === 'up') {
      const result = await changePlanNow(row.id, plan);
      if (!result.paid) throw new AppError('payment_required', 'Your card was declined, so your plan has not changed.');
    }
    if (row.cancelAtPeriodEnd) await provider.setCancelAtPeriodEnd(row.id, false);
    if (direction === 'up') return (await provider.retrieveSubscription(row.id))!;
    return provider.schedulePrice(row.id, direction === 'same' ? null : { id: priceIdFor(plan.lookupKey), interval: plan.interval });
  }

  /** Cancel at period end (dropping a scheduled change), resume, switch plan, or move the test clock, from the portal page. */
  async function portalAction(
    id: string,
    subscriptionId: string,
    action: { action: 'cancel' | 'resume' | 'switch' | 'advance'; priceId?: string | undefined },
  ) {
    const session = await openSession(id, 'portal');
    if (session.expiresAt <= clock()) throw new AppError('gone', 'This portal link has expired. Open it again from your account.');
    const row = await findSub(subscriptionId);
    if (!row || row.customerId !== session.customerId) throw new AppError('not_found', 'No such subscription.');
    if (!GRANTING.includes(row.status)) throw new AppError('conflict', 'This subscription has ended.');
    if (action.action === 'switch') return portalSubscription(await portalSwitch(row, action.priceId));
    if (action.action === 'advance') return portalSubscription(await advanceToPeriodEnd(row.id));
    if (action.action === 'cancel' && row.pendingLookupKey) await updateSub(row.id, { pendingLookupKey: null });
    return portalSubscription(await provider.setCancelAtPeriodEnd(row.id, action.action === 'cancel'));
  }

  /**
   * Moves every subscription whose period has ended to where the clock says it is: renewed (paid),
   * past due (the card fails; a second failed period ends it), or ended (cancel at period end).
   * Answers how many subscriptions changed.
   */
  async function advance(): Promise<number> {
    const now = clock();
    const due = await db
      .select({ id: subs.id })
      .from(subs)
      .where(and(inArray(subs.status, [...GRANTING]), lte(subs.currentPeriodEnd, now)));
    for (const { id } of due) {
      await db.transaction(async (tx) => {
        const [row] = await tx.select().from(subs).where(eq(subs.id, id)).for('update');
        if (row) await renew(tx, row, now);
      });
    }
    if (due.length) await deliverPending();
    return due.length;
  }

  /**
   * Renews a locked subscription through every period that ended by `now`: the plan scheduled for
   * the renewal takes over (a downgrade), the renewal invoice uses the customer's credit first, a
   * failing card goes past due and then ends it, and a cancel at period end ends it.
   */
  async function renew(tx: DbOrTx, row: SubRow, now: Date): Promise<SubRow> {
    const [customer] = await tx.select().from(customers).where(eq(customers.id, row.customerId)).for('update');
    let credit = customer?.credit ?? 0;
    let current = row;
    while (GRANTING.includes(current.status) && current.currentPeriodEnd <= now) {
      let change: Partial<SubRow>;
      let types: string[];
      if (current.cancelAtPeriodEnd) {
        change = { status: 'canceled', endedAt: current.currentPeriodEnd, pendingLookupKey: null };
        types = ['customer.subscription.deleted'];
      } else if (customer?.cardFailsLater && current.status === 'past_due') {
        change = { status: 'canceled', endedAt: current.currentPeriodEnd };
        types = ['invoice.payment_failed', 'customer.subscription.deleted'];
      } else {
        const lookupKey = current.pendingLookupKey ?? current.lookupKey;
        const plan = planForLookupKey(lookupKey);
        const bill = settle(plan?.amount ?? 0, credit);
        const failed = Boolean(customer?.cardFailsLater) && bill.amountPaid > 0;
        if (!failed) credit = bill.credit;
        change = {
          status: failed ? 'past_due' : 'active',
          lookupKey,
          pendingLookupKey: null,
          currentPeriodStart: current.currentPeriodEnd,
          currentPeriodEnd: nextPeriodEnd(current.currentPeriodEnd, plan),
          ...(failed ? {} : { latestInvoice: newInvoice(bill.amountPaid, 'subscription_cycle') }),
        };
        types = [failed ? 'invoice.payment_failed' : 'invoice.paid', 'customer.subscription.updated'];
      }
      current = (await tx.update(subs).set(change).where(eq(subs.id, row.id)).returning())[0]!;
      for (const type of types) await raise(tx, type, type.startsWith('invoice.') ? invoiceObject(current) : subscriptionObject(current));
    }
    if (customer && credit !== customer.credit) await tx.update(customers).set({ credit }).where(eq(customers.id, customer.id));
    return current;
  }

  /**
   * The test clock, for one subscription (what Stripe's test clocks do for a customer): moves its
   * current period so that it ends now, then renews it as `advance` would at that moment (a scheduled
   * plan takes over, a cancel ends it). The portal's "Advance to period end" and browser tests use it.
   */
  async function advanceToPeriodEnd(id: string): Promise<ProviderSubscription> {
    const row = await db.transaction(async (tx) => {
      const [locked] = await tx.select().from(subs).where(eq(subs.id, id)).for('update');
      if (!locked) throw new AppError('not_found', 'No such subscription.');
      const now = clock();
      const early = Math.max(locked.currentPeriodEnd.getTime() - now.getTime(), 0);
      const [moved] = await tx
        .update(subs)
        .set({
          currentPeriodStart: new Date(locked.currentPeriodStart.getTime() - early),
          currentPeriodEnd: new Date(locked.currentPeriodEnd.getTime() - early),
        })
        .where(eq(subs.id, id))
        .returning();
      return renew(tx, moved!, now);
    });
    await deliverPending();
    return toSubscription(row);
  }

  return {
    provider,
    /** Sets the handler events go to (the billing service's) and delivers what is waiting. */
    connect(deliver: (event: ProviderEvent) => Promise<unknown>): Promise<void> {
      handler = deliver;
      return deliverPending();
    },
    deliverPending,
    advance,
    /** Stops delivering events (after the one under way), before the database closes. */
    async stop(): Promise<void> {
      stopped = true;
      await delivering;
    },
    testPages: { describeCheckout, pay, describePortal, portalAction },
  };
}

export type EmbeddedProvider = ReturnType<typeof createEmbeddedProvider>;
