/**
 * A stateful fake of the Stripe API endpoints we call, written from the contract
 * (`../shared/reference/stripe-contract.md`) for the pinned version (2026-10-28.endive): the real SDK
 * talks to it over node:http on loopback. It parses Stripe's form encoding (bracket keys), refuses
 * unknown parameters, answers Stripe's object shapes and error envelopes (so the SDK raises its typed
 * errors), replays idempotent POSTs, and records every request. Longer than our usual file because
 * it is one table of endpoints over one state; splitting it would scatter that table.
 */
import { randomBytes } from 'node:crypto';
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { addMonths } from 'date-fns/addMonths';
import { addYears } from 'date-fns/addYears';
import Stripe from 'stripe';
import type { SubscriptionStatus } from '../../functions/payments/provider.ts';

type Params = Record<string, unknown>;
type Metadata = Record<string, string>;

/** What every stored object carries. */
interface FakeObject {
  id: string;
  metadata: Metadata;
  created: number;
}

export interface FakeCustomer extends FakeObject {
  object: 'customer';
  email: string | null;
  /** Cents; negative is credit (prorated downgrades), taken off the next invoices. */
  balance: number;
  livemode: false;
}

export interface FakeInvoice extends FakeObject {
  object: 'invoice';
  customer: string;
  amount_due: number;
  amount_paid: number;
  status: 'paid' | 'open';
  billing_reason: 'subscription_create' | 'subscription_cycle' | 'subscription_update';
  parent: { type: 'subscription_details'; subscription_details: { subscription: string } };
  livemode: false;
}

export interface FakeSchedulePhase {
  start_date: number;
  end_date: number;
  items: { price: string; quantity: number }[];
}

export interface FakeSubscriptionSchedule extends FakeObject {
  object: 'subscription_schedule';
  customer: string;
  subscription: string | null;
  released_subscription: string | null;
  status: 'active' | 'released';
  end_behavior: 'release' | 'cancel';
  current_phase: { start_date: number; end_date: number } | null;
  phases: FakeSchedulePhase[];
  released_at: number | null;
  livemode: false;
}

export interface FakeProduct extends FakeObject {
  object: 'product';
  name: string;
  active: boolean;
  livemode: false;
}

export interface FakePrice extends FakeObject {
  object: 'price';
  active: boolean;
  currency: string;
  unit_amount: number;
  lookup_key: string | null;
  product: string;
  recurring: { interval: 'month' | 'year'; interval_count: 1; usage_type: 'licensed' } | null;
  type: 'recurring' | 'one_time';
  livemode: false;
}

export interface FakeCheckoutSession extends FakeObject {
  object: 'checkout.session';
  mode: 'payment' | 'subscription';
  status: 'open' | 'complete' | 'expired';
  payment_status: 'paid' | 'unpaid';
  customer: string | null;
  subscription: string | null;
  client_reference_id: string | null;
  allow_promotion_codes: boolean | null;
  ui_mode: 'hosted_page' | 'embedded_page';
  success_url: string | null;
  cancel_url: string | null;
  return_url: string | null;
  url: string | null;
  client_secret: string | null;
  /** Payment mode: the payment, once paid (null before, and always in subscription mode). */
  payment_intent: string | null;
  amount_total: number;
  currency: string;
  expires_at: number;
  livemode: false;
}

export interface FakeRefund extends FakeObject {
  object: 'refund';
  amount: number;
  currency: string;
  payment_intent: string;
  status: 'succeeded';
  reason: string | null;
}

export interface FakeSubscriptionItem extends FakeObject {
  object: 'subscription_item';
  price: FakePrice;
  quantity: number;
  current_period_start: number;
  current_period_end: number;
  subscription: string;
}

export interface FakeSubscription extends FakeObject {
  object: 'subscription';
  customer: string;
  status: SubscriptionStatus;
  cancel_at_period_end: boolean;
  cancel_at: number | null;
  canceled_at: number | null;
  ended_at: number | null;
  start_date: number;
  billing_mode: { type: 'flexible' };
  items: { object: 'list'; data: FakeSubscriptionItem[]; has_more: false; url: string };
  /** Only on payloads of API versions before basil; the tests add it to check the fallback. */
  current_period_end?: number;
  /** The schedule that holds a change for the period end, while it runs. */
  schedule: string | null;
  latest_invoice: string | null;
  /** Discount ids (coupons on its invoices); expanded with `expand: ['discounts']`. */
  discounts: string[];
  trial_start: number | null;
  trial_end: number | null;
  /** A change waiting for its invoice to be paid (payment_behavior pending_if_incomplete). */
  pending_update: { expires_at: number; subscription_items: { id: string; price: string }[] } | null;
  livemode: false;
}

export interface FakeCoupon extends FakeObject {
  object: 'coupon';
  name: string | null;
  percent_off: number | null;
  amount_off: number | null;
  currency: string | null;
  duration: 'once' | 'repeating' | 'forever';
  duration_in_months: number | null;
  valid: true;
  livemode: false;
}

export interface FakeDiscount {
  id: string;
  object: 'discount';
  source: { type: 'coupon'; coupon: string };
  start: number;
  /** A repeating coupon's end; null for once and forever. */
  end: number | null;
  subscription: string | null;
}

export interface RecordedRequest {
  method: string;
  /** Without the query string. */
  path: string;
  idempotencyKey: string | null;
  stripeVersion: string | null;
  headers: IncomingHttpHeaders;
  /** Query and body, bracket keys made into objects and arrays. */
  params: Params;
}

interface StripeErrorBody {
  type: 'invalid_request_error' | 'idempotency_error' | 'authentication_error' | 'api_error';
  code?: string;
  message: string;
  param?: string;
}

class FakeError extends Error {
  readonly status: number;
  readonly body: StripeErrorBody;
  constructor(status: number, body: StripeErrorBody) {
    super(body.message);
    this.status = status;
    this.body = body;
  }
}

const missing = (what: string, id: string, param = 'id', status = 404) =>
  new FakeError(status, { type: 'invalid_request_error', code: 'resource_missing', message: `No such ${what}: '${id}'`, param });
const invalid = (message: string, param?: string, code = 'parameter_invalid') =>
  new FakeError(400, { type: 'invalid_request_error', code, message, ...(param ? { param } : {}) });

/** Form or query text with Stripe's bracket keys (`line_items[0][price]`) as nested objects and arrays. */
export function parseForm(text: string): Params {
  const root: Params = {};
  for (const [key, value] of new URLSearchParams(text)) {
    const path = key.replaceAll(']', '').split('[');
    let node = root;
    path.forEach((segment, i) => {
      if (i === path.length - 1) node[segment] = value;
      else node = (node[segment] ??= {}) as Params;
    });
  }
  return withArrays(root) as Params;
}

function withArrays(value: unknown): unknown {
  if (typeof value !== 'object' || value === null) return value;
  const entries = Object.entries(value).map(([k, v]) => [k, withArrays(v)] as const);
  const indexed = entries.length > 0 && entries.every(([k]) => /^\d+$/.test(k));
  return indexed ? entries.sort(([a], [b]) => Number(a) - Number(b)).map(([, v]) => v) : Object.fromEntries(entries);
}

const seconds = (d: Date) => Math.floor(d.getTime() / 1000);
/** One billing interval after `from` (unix seconds). */
const plusInterval = (from: number, interval: 'month' | 'year') =>
  seconds(interval === 'year' ? addYears(new Date(from * 1000), 1) : addMonths(new Date(from * 1000), 1));
const str = (params: Params, key: string) => (typeof params[key] === 'string' ? (params[key] as string) : undefined);
const required = (params: Params, key: string) =>
  str(params, key) ?? fail(invalid(`Missing required param: ${key}.`, key, 'parameter_missing'));
const flag = (params: Params, key: string) => (params[key] === undefined ? undefined : params[key] === 'true');
const metadataOf = (value: unknown): Metadata => (typeof value === 'object' && value !== null ? (value as Metadata) : {});
function fail(err: FakeError): never {
  throw err;
}

function only(params: Params, allowed: readonly string[]) {
  const unknown = Object.keys(params).find((key) => !allowed.includes(key) && key !== 'expand');
  if (unknown) throw invalid(`Received unknown parameter: ${unknown}`, unknown, 'parameter_unknown');
}

function page<T extends { id: string }>(all: T[], params: Params, url: string) {
  const limit = Number(params.limit ?? 10);
  if (!Number.isInteger(limit) || limit < 1 || limit > 100) throw invalid('Invalid integer: limit', 'limit');
  const after = str(params, 'starting_after');
  const start = after ? all.findIndex((item) => item.id === after) + 1 : 0;
  const data = all.slice(start, start + limit);
  return { object: 'list', data, has_more: start + limit < all.length, url };
}

/** The plan prices of the contract (USD cents). */
export const PLAN_SEED = [
  { lookup_key: 'subscriber_monthly', unit_amount: 999, interval: 'month', product: 'Subscriber' },
  { lookup_key: 'subscriber_yearly', unit_amount: 9590, interval: 'year', product: 'Subscriber' },
  { lookup_key: 'premium_monthly', unit_amount: 1999, interval: 'month', product: 'Premium' },
  { lookup_key: 'premium_yearly', unit_amount: 19190, interval: 'year', product: 'Premium' },
] as const;

export async function startStripeFake(options: { seed?: boolean } = {}) {
  let seq = 0;
  // Unique across fakes too: several may write to one database (a retried browser test starts another).
  const run = randomBytes(3).toString('hex');
  const newId = (prefix: string) => `${prefix}_fake${run}${String(++seq).padStart(6, '0')}`;
  /** Seconds the fake's clock runs ahead of the real one (`advancePeriod` moves it, like a test clock). */
  let clockAhead = 0;
  /** A time set by `travelTo` (seconds), where the clock stands until moved again, as a Stripe test clock's does. */
  let frozenAt: number | null = null;
  const now = () => frozenAt ?? seconds(new Date()) + clockAhead;
  const state = {
    customers: new Map<string, FakeCustomer>(),
    products: new Map<string, FakeProduct>(),
    prices: new Map<string, FakePrice>(),
    sessions: new Map<string, FakeCheckoutSession>(),
    /** What each checkout session sells, and what it copies onto its subscription. */
    sessionLines: new Map<
      string,
      { price: FakePrice; quantity: number; subscriptionMetadata: Metadata; coupon: string | null; trialDays: number | null }
    >(),
    coupons: new Map<string, FakeCoupon>(),
    discounts: new Map<string, FakeDiscount>(),
    subscriptions: new Map<string, FakeSubscription>(),
    /** The payments of paid payment-mode sessions, and how much of each was refunded. */
    paymentIntents: new Map<string, { amount: number; currency: string; refunded: number }>(),
    refunds: new Map<string, FakeRefund>(),
    invoices: new Map<string, FakeInvoice>(),
    schedules: new Map<string, FakeSubscriptionSchedule>(),
    /** Customers whose charges are declined from now on (`declineCharges`). */
    declining: new Set<string>(),
    idempotency: new Map<string, { fingerprint: string; status: number; body: unknown }>(),
  };
  const requests: RecordedRequest[] = [];
  let failures = 0;
  /** Runs before each answer; the answer waits for it (tests use it to act in mid-call). */
  let beforeAnswer: ((request: RecordedRequest) => void | Promise<void>) | undefined;
  const newest = <T>(map: Map<string, T>) => [...map.values()].reverse();

  function addProduct(input: { name: string; metadata?: Metadata; active?: boolean }): FakeProduct {
    const product: FakeProduct = {
      id: newId('prod'),
      object: 'product',
      name: input.name,
      active: input.active ?? true,
      metadata: input.metadata ?? {},
      created: now(),
      livemode: false,
    };
    state.products.set(product.id, product);
    return product;
  }

  /** A price; a lookup key already in use is refused unless it is transferred (Stripe's rule). */
  function addPrice(input: {
    unit_amount: number;
    currency?: string;
    lookup_key?: string;
    interval?: 'month' | 'year';
    product?: string;
    productName?: string;
    active?: boolean;
    transfer_lookup_key?: boolean;
  }): FakePrice {
    const holder = input.lookup_key ? [...state.prices.values()].find((p) => p.lookup_key === input.lookup_key) : undefined;
    if (holder && !input.transfer_lookup_key)
      throw invalid(`A price (\`${holder.id}\`) already uses that lookup key.`, 'lookup_key', 'lookup_key_already_exists');
    if (holder) holder.lookup_key = null;
    const product = input.product ?? addProduct({ name: input.productName ?? input.lookup_key ?? 'One-time item' }).id;
    if (!state.products.has(product)) throw missing('product', product, 'product', 400);
    const price: FakePrice = {
      id: newId('price'),
      object: 'price',
      active: input.active ?? true,
      currency: input.currency ?? 'usd',
      unit_amount: input.unit_amount,
      lookup_key: input.lookup_key ?? null,
      product,
      recurring: input.interval ? { interval: input.interval, interval_count: 1, usage_type: 'licensed' } : null,
      type: input.interval ? 'recurring' : 'one_time',
      metadata: {},
      created: now(),
      livemode: false,
    };
    state.prices.set(price.id, price);
    return price;
  }

  if (options.seed !== false) {
    const products = new Map<string, string>();
    for (const p of PLAN_SEED) {
      const product = products.get(p.product) ?? addProduct({ name: p.product }).id;
      products.set(p.product, product);
      addPrice({ unit_amount: p.unit_amount, lookup_key: p.lookup_key, interval: p.interval, product });
    }
  }

  const get = <T>(map: Map<string, T>, what: string, id: string, param = 'id', status = 404): T =>
    map.get(id) ?? fail(missing(what, id, param, status));

  function checkoutLine(params: Params): { price: FakePrice; quantity: number } {
    const lines = params.line_items;
    if (!Array.isArray(lines) || lines.length !== 1) throw invalid('The fake takes exactly one line item.', 'line_items');
    const line = lines[0] as Params;
    only(line, ['price', 'price_data', 'quantity']);
    const quantity = Number(line.quantity);
    if (!Number.isInteger(quantity) || quantity < 1) throw invalid('Quantity must be a positive integer.', 'line_items[0][quantity]');
    const priceId = str(line, 'price');
    if (priceId) {
      const price = get(state.prices, 'price', priceId, 'line_items[0][price]', 400);
      if (!price.active) throw invalid(`The price \`${priceId}\` is not active.`, 'line_items[0][price]');
      return { price, quantity };
    }
    const data = (line.price_data ?? fail(invalid('One of price or price_data is required.', 'line_items[0]'))) as Params;
    const name = str(metadataOf(data.product_data), 'name') ?? fail(invalid('Missing product_data[name].', 'line_items[0][price_data]'));
    const price = addPrice({ unit_amount: Number(required(data, 'unit_amount')), currency: required(data, 'currency'), productName: name });
    price.active = false; // inline prices cannot be reused
    return { price, quantity };
  }

  function createSession(params: Params): FakeCheckoutSession {
    only(params, [
      'mode',
      'customer',
      'line_items',
      'client_reference_id',
      'metadata',
      'subscription_data',
      'payment_intent_data',
      'allow_promotion_codes',
      'discounts',
      'success_url',
      'cancel_url',
      'ui_mode',
      'return_url',
    ]);
    const mode = required(params, 'mode');
    const coupon = couponOf(params.discounts, 'discounts');
    if (coupon && params.allow_promotion_codes !== undefined)
      throw invalid('You may only specify one of these parameters: allow_promotion_codes, discounts.', 'discounts');
    const subscriptionData = metadataOf(params.subscription_data);
    only(subscriptionData, ['metadata', 'trial_period_days']);
    const trialDays = subscriptionData.trial_period_days === undefined ? null : Number(subscriptionData.trial_period_days);
    if (trialDays !== null && !(Number.isInteger(trialDays) && trialDays >= 1 && trialDays <= 730))
      throw invalid('trial_period_days must be a whole number from 1 to 730.', 'subscription_data[trial_period_days]');
    const uiMode = str(params, 'ui_mode') ?? 'hosted_page';
    if (uiMode !== 'hosted_page' && uiMode !== 'embedded_page') throw invalid(`Invalid ui_mode: ${uiMode}`, 'ui_mode');
    const embedded = uiMode === 'embedded_page';
    // Stripe's rules: embedded sessions return to return_url and take no success or cancel URL.
    for (const param of embedded ? ['success_url', 'cancel_url'] : ['return_url'])
      if (params[param] !== undefined) throw invalid(`${param} cannot be used with ui_mode ${uiMode}.`, param);
    if (mode !== 'payment' && mode !== 'subscription') throw invalid(`Invalid mode: ${mode}`, 'mode');
    const customer = str(params, 'customer');
    if (customer) get(state.customers, 'customer', customer, 'customer', 400);
    const { price, quantity } = checkoutLine(params);
    if ((mode === 'subscription') !== Boolean(price.recurring))
      throw invalid(
        `A ${mode} mode session needs ${mode === 'subscription' ? 'a recurring' : 'a one-time'} price.`,
        'line_items[0][price]',
      );
    if (mode === 'payment' && params.subscription_data)
      throw invalid('subscription_data is only for subscription mode.', 'subscription_data');
    if (mode === 'subscription' && params.payment_intent_data)
      throw invalid('payment_intent_data is only for payment mode.', 'payment_intent_data');
    const id = newId('cs_test');
    const session: FakeCheckoutSession = {
      id,
      object: 'checkout.session',
      mode,
      status: 'open',
      payment_status: 'unpaid',
      customer: customer ?? null,
      subscription: null,
      client_reference_id: str(params, 'client_reference_id') ?? null,
      metadata: metadataOf(params.metadata),
      allow_promotion_codes: flag(params, 'allow_promotion_codes') ?? null,
      ui_mode: uiMode,
      success_url: embedded ? null : required(params, 'success_url'),
      cancel_url: str(params, 'cancel_url') ?? null,
      return_url: embedded ? required(params, 'return_url') : null,
      url: embedded ? null : `https://checkout.stripe.com/c/pay/${id}`,
      client_secret: embedded ? `${id}_secret_fake` : null,
      payment_intent: null,
      amount_total: trialDays ? 0 : discountedAmount(price.unit_amount * quantity, coupon),
      currency: price.currency,
      created: now(),
      expires_at: now() + 24 * 3600,
      livemode: false,
    };
    state.sessions.set(id, session);
    state.sessionLines.set(id, {
      price,
      quantity,
      subscriptionMetadata: metadataOf(subscriptionData.metadata),
      coupon: coupon?.id ?? null,
      trialDays,
    });
    return session;
  }

  /** The coupon of a `discounts` parameter (one `{ coupon }` entry), or undefined without one. */
  function couponOf(value: unknown, param: string): FakeCoupon | undefined {
    if (value === undefined || value === '') return undefined;
    if (!Array.isArray(value) || value.length !== 1) throw invalid('The fake takes exactly one discount.', param);
    const entry = value[0] as Params;
    only(entry, ['coupon']);
    return get(state.coupons, 'coupon', required(entry, 'coupon'), `${param}[0][coupon]`, 400);
  }

  function discountedAmount(amount: number, coupon: FakeCoupon | undefined | null): number {
    if (!coupon) return amount;
    if (coupon.percent_off) return Math.max(0, Math.round((amount * (100 - coupon.percent_off)) / 100));
    return Math.max(0, amount - (coupon.amount_off ?? 0));
  }

  /** A discount of `coupon` on a subscription from `start` (seconds). */
  function addDiscount(coupon: FakeCoupon, subscription: string, start: number): string {
    const end = coupon.duration === 'repeating' ? seconds(addMonths(new Date(start * 1000), coupon.duration_in_months ?? 1)) : null;
    const discount: FakeDiscount = {
      id: newId('di'),
      object: 'discount',
      source: { type: 'coupon', coupon: coupon.id },
      start,
      end,
      subscription,
    };
    state.discounts.set(discount.id, discount);
    return discount.id;
  }

  /** The coupon a subscription's invoice for the period from `periodStart` takes off, if any. */
  function activeCoupon(sub: FakeSubscription, periodStart: number): FakeCoupon | undefined {
    const discount = sub.discounts.map((id) => state.discounts.get(id)).find((d) => d && (d.end === null || periodStart < d.end));
    return discount ? state.coupons.get(discount.source.coupon) : undefined;
  }

  function createCoupon(p: Params): FakeCoupon {
    only(p, ['id', 'name', 'duration', 'duration_in_months', 'percent_off', 'amount_off', 'currency']);
    const id = str(p, 'id') ?? newId('co');
    if (state.coupons.has(id))
      throw new FakeError(400, { type: 'invalid_request_error', code: 'resource_already_exists', message: 'Coupon already exists.' });
    const duration = required(p, 'duration');
    if (duration !== 'once' && duration !== 'repeating' && duration !== 'forever')
      throw invalid(`Invalid duration: ${duration}`, 'duration');
    const percent = p.percent_off === undefined ? null : Number(p.percent_off);
    const amount = p.amount_off === undefined ? null : Number(p.amount_off);
    if ((percent === null) === (amount === null)) throw invalid('Pass exactly one of percent_off and amount_off.');
    if (percent !== null && !(percent > 0 && percent <= 100)) throw invalid('percent_off must be over 0 and at most 100.', 'percent_off');
    if (amount !== null && !(Number.isInteger(amount) && amount > 0 && str(p, 'currency')))
      throw invalid('amount_off needs a positive whole amount and a currency.', 'amount_off');
    if ((duration === 'repeating') !== (p.duration_in_months !== undefined))
      throw invalid('duration_in_months goes with a repeating duration, and only with it.', 'duration_in_months');
    const coupon: FakeCoupon = {
      id,
      object: 'coupon',
      name: str(p, 'name') ?? null,
      percent_off: percent,
      amount_off: amount,
      currency: str(p, 'currency') ?? null,
      duration,
      duration_in_months: p.duration_in_months === undefined ? null : Number(p.duration_in_months),
      valid: true,
      metadata: {},
      created: now(),
      livemode: false,
    };
    state.coupons.set(id, coupon);
    return coupon;
  }

  function listSubscriptions(params: Params) {
    only(params, ['customer', 'status', 'limit', 'starting_after']);
    const status = str(params, 'status');
    const customer = str(params, 'customer');
    const all = newest(state.subscriptions).filter(
      (s) =>
        (!customer || s.customer === customer) &&
        (status === 'all' || (status ? s.status === status : s.status !== 'canceled' && s.status !== 'incomplete_expired')),
    );
    return page(all, params, '/v1/subscriptions');
  }

  /** An invoice for a subscription: the customer's credit first; paid unless the customer's charges are declined. */
  function issueInvoice(sub: FakeSubscription, due: number, reason: FakeInvoice['billing_reason']): FakeInvoice {
    const customer = get(state.customers, 'customer', sub.customer);
    let amount = due;
    let balance = customer.balance;
    if (amount < 0) {
      balance += amount;
      amount = 0;
    } else if (balance < 0) {
      const used = Math.min(-balance, amount);
      balance += used;
      amount -= used;
    }
    const paid = amount === 0 || !state.declining.has(customer.id);
    if (paid) customer.balance = balance;
    const invoice: FakeInvoice = {
      id: newId('in'),
      object: 'invoice',
      customer: customer.id,
      amount_due: amount,
      amount_paid: paid ? amount : 0,
      status: paid ? 'paid' : 'open',
      billing_reason: reason,
      parent: { type: 'subscription_details', subscription_details: { subscription: sub.id } },
      metadata: {},
      created: now(),
      livemode: false,
    };
    state.invoices.set(invoice.id, invoice);
    sub.latest_invoice = invoice.id;
    return invoice;
  }

  /** Stripe's expansions of a subscription that we ask for; any other path is refused as Stripe does. */
  function expandSubscription(sub: FakeSubscription, expand: unknown): Params {
    const paths = Array.isArray(expand) ? (expand as string[]) : [];
    const bad = paths.find((path) => !['latest_invoice', 'discounts', 'schedule', 'schedule.phases.items.price'].includes(path));
    if (bad) throw invalid(`This property cannot be expanded (${bad}).`, 'expand');
    const out: Params = { ...sub };
    if (paths.includes('discounts')) out.discounts = sub.discounts.map((id) => state.discounts.get(id));
    if (paths.includes('latest_invoice') && sub.latest_invoice) out.latest_invoice = state.invoices.get(sub.latest_invoice) ?? null;
    const schedule = sub.schedule ? state.schedules.get(sub.schedule) : undefined;
    if (schedule && paths.some((path) => path.startsWith('schedule'))) {
      const prices = paths.includes('schedule.phases.items.price');
      out.schedule = {
        ...schedule,
        phases: schedule.phases.map((phase) => ({
          ...phase,
          items: phase.items.map((item) => ({ ...item, price: prices ? state.prices.get(item.price) : item.price })),
        })),
      };
    }
    return out;
  }

  /** A new price for the subscription's item, prorated as Stripe does; under pending_if_incomplete only once paid. */
  function changeItem(sub: FakeSubscription, params: Params) {
    const lines = params.items;
    if (!Array.isArray(lines) || lines.length !== 1) throw invalid('The fake takes exactly one item.', 'items');
    const line = lines[0] as Params;
    only(line, ['id', 'price', 'quantity']);
    const item =
      sub.items.data.find((i) => i.id === str(line, 'id')) ??
      fail(invalid(`No such subscription item: '${String(line.id)}'`, 'items[0][id]'));
    const price = get(state.prices, 'price', required(line, 'price'), 'items[0][price]', 400);
    if (!price.active || !price.recurring) throw invalid(`The price \`${price.id}\` is not an active recurring price.`, 'items[0][price]');
    const behavior = str(params, 'proration_behavior') ?? 'create_prorations';
    if (!['always_invoice', 'create_prorations', 'none'].includes(behavior))
      throw invalid(`Invalid proration_behavior: ${behavior}`, 'proration_behavior');
    const t = now();
    const { current_period_start: start, current_period_end: end } = item;
    const restart = price.recurring.interval !== item.price.recurring?.interval;
    const share = end > start ? Math.min(Math.max(end - t, 0), end - start) / (end - start) : 0;
    const credit = behavior === 'none' ? 0 : Math.round(item.price.unit_amount * share);
    const charge = restart ? price.unit_amount : behavior === 'none' ? 0 : Math.round(price.unit_amount * share);
    // Another interval restarts the cycle and bills at once; always_invoice bills the proration now.
    if (restart || behavior === 'always_invoice') {
      const invoice = issueInvoice(sub, charge - credit, 'subscription_update');
      if (invoice.status !== 'paid' && params.payment_behavior === 'pending_if_incomplete') {
        sub.pending_update = { expires_at: t + 23 * 3600, subscription_items: [{ id: item.id, price: price.id }] };
        return;
      }
    }
    item.price = price;
    if (restart) Object.assign(item, { current_period_start: t, current_period_end: plusInterval(t, price.recurring.interval) });
    sub.pending_update = null;
  }

  function updateSubscription(id: string, params: Params): Params {
    only(params, ['cancel_at_period_end', 'cancel_at', 'metadata', 'items', 'proration_behavior', 'payment_behavior', 'discounts']);
    const sub = get(state.subscriptions, 'subscription', id);
    const coupon = couponOf(params.discounts, 'discounts');
    if (coupon) sub.discounts = [addDiscount(coupon, sub.id, now())];
    if (sub.status === 'canceled') throw invalid('A canceled subscription can only update its cancellation_details and metadata.');
    if (params.payment_behavior === 'pending_if_incomplete') {
      const unsupported = Object.keys(params).find((k) => !['items', 'proration_behavior', 'payment_behavior', 'expand'].includes(k));
      if (unsupported) throw invalid(`Pending updates do not support the parameter ${unsupported}.`, unsupported);
    }
    if (sub.schedule && (params.cancel_at_period_end !== undefined || params.cancel_at !== undefined || params.items))
      throw invalid(
        `The subscription is managed by the subscription schedule \`${sub.schedule}\`, and updating any cancelation behavior or items directly is not allowed. Please update the schedule instead.`,
      );
    const atPeriodEnd = flag(params, 'cancel_at_period_end');
    if (atPeriodEnd !== undefined) sub.cancel_at_period_end = atPeriodEnd;
    if (params.cancel_at !== undefined) sub.cancel_at = params.cancel_at === '' ? null : Number(params.cancel_at);
    if (params.metadata) sub.metadata = { ...sub.metadata, ...metadataOf(params.metadata) };
    if (params.items) changeItem(sub, params);
    return expandSubscription(sub, params.expand);
  }

  /** A schedule taking over a subscription: one phase, the current period on the current price. */
  function createSchedule(p: Params): FakeSubscriptionSchedule {
    only(p, ['from_subscription', 'metadata']);
    const sub = get(state.subscriptions, 'subscription', required(p, 'from_subscription'), 'from_subscription', 400);
    if (sub.schedule)
      throw invalid(`You cannot migrate a subscription that is already attached to a schedule: \`${sub.schedule}\`.`, 'from_subscription');
    if (sub.status === 'canceled') throw invalid('You cannot migrate a canceled subscription.', 'from_subscription');
    const item = sub.items.data[0]!;
    const schedule: FakeSubscriptionSchedule = {
      id: newId('sub_sched'),
      object: 'subscription_schedule',
      customer: sub.customer,
      subscription: sub.id,
      released_subscription: null,
      status: 'active',
      end_behavior: 'release',
      current_phase: { start_date: item.current_period_start, end_date: item.current_period_end },
      phases: [
        {
          start_date: item.current_period_start,
          end_date: item.current_period_end,
          items: [{ price: item.price.id, quantity: item.quantity }],
        },
      ],
      released_at: null,
      metadata: metadataOf(p.metadata),
      created: now(),
      livemode: false,
    };
    state.schedules.set(schedule.id, schedule);
    sub.schedule = schedule.id;
    return schedule;
  }

  /** New phases for a running schedule: each starts where the one before ends; the first keeps its start. */
  function updateSchedule(id: string, p: Params): FakeSubscriptionSchedule {
    only(p, ['phases', 'end_behavior', 'proration_behavior', 'metadata']);
    const schedule = get(state.schedules, 'subscription_schedule', id);
    if (schedule.status !== 'active') throw invalid(`You cannot update a subscription schedule that is ${schedule.status}.`);
    const endBehavior = str(p, 'end_behavior');
    if (endBehavior !== undefined && endBehavior !== 'release' && endBehavior !== 'cancel')
      throw invalid(`Invalid end_behavior: ${endBehavior}`, 'end_behavior');
    if (p.phases !== undefined) {
      if (!Array.isArray(p.phases) || p.phases.length === 0) throw invalid('Phases must be a non-empty list.', 'phases');
      let start: number | undefined;
      schedule.phases = (p.phases as Params[]).map((phase, i) => {
        only(phase, ['items', 'start_date', 'end_date', 'duration', 'proration_behavior', 'metadata']);
        const items = Array.isArray(phase.items)
          ? (phase.items as Params[])
          : fail(invalid('Each phase needs items.', `phases[${i}][items]`));
        const priced = items.map((item, j) => {
          const price = get(state.prices, 'price', required(item, 'price'), `phases[${i}][items][${j}][price]`, 400);
          if (!price.recurring) throw invalid('Phase items need recurring prices.', `phases[${i}][items][${j}][price]`);
          return { price: price.id, quantity: Number(item.quantity ?? 1), interval: price.recurring.interval };
        });
        const from =
          i === 0 ? Number(phase.start_date ?? fail(invalid('The first phase needs a start_date.', 'phases[0][start_date]'))) : start!;
        if (i > 0 && phase.start_date !== undefined && Number(phase.start_date) !== from)
          throw invalid('A phase must start where the one before ends.', `phases[${i}][start_date]`);
        const duration = metadataOf(phase.duration);
        const until =
          phase.end_date !== undefined
            ? Number(phase.end_date)
            : duration.interval === 'month' || duration.interval === 'year'
              ? plusInterval(from, duration.interval)
              : fail(invalid('Each phase needs an end_date or a duration.', `phases[${i}]`));
        if (until <= from) throw invalid('A phase must end after it starts.', `phases[${i}][end_date]`);
        start = until;
        return { start_date: from, end_date: until, items: priced.map(({ price, quantity }) => ({ price, quantity })) };
      });
      schedule.current_phase = schedule.phases.find((ph) => ph.start_date <= now() && now() < ph.end_date) ?? schedule.current_phase;
    }
    if (endBehavior) schedule.end_behavior = endBehavior;
    return schedule;
  }

  function releaseSchedule(id: string): FakeSubscriptionSchedule {
    const schedule = get(state.schedules, 'subscription_schedule', id);
    if (schedule.status !== 'active') throw invalid(`You cannot release a subscription schedule that is ${schedule.status}.`);
    const sub = schedule.subscription ? state.subscriptions.get(schedule.subscription) : undefined;
    if (sub) sub.schedule = null;
    Object.assign(schedule, {
      status: 'released',
      released_at: now(),
      released_subscription: schedule.subscription,
      subscription: null,
      current_phase: null,
    });
    return schedule;
  }

  function cancelSubscription(id: string): FakeSubscription {
    const sub = get(state.subscriptions, 'subscription', id);
    if (sub.status !== 'canceled') Object.assign(sub, { status: 'canceled', canceled_at: now(), ended_at: now() });
    return sub;
  }

  function createCustomer(p: Params): FakeCustomer {
    only(p, ['email', 'metadata']);
    const customer: FakeCustomer = {
      id: newId('cus'),
      object: 'customer',
      email: str(p, 'email') ?? null,
      balance: 0,
      metadata: metadataOf(p.metadata),
      created: now(),
      livemode: false,
    };
    state.customers.set(customer.id, customer);
    return customer;
  }

  function createPrice(p: Params): FakePrice {
    only(p, ['product', 'unit_amount', 'currency', 'recurring', 'lookup_key', 'transfer_lookup_key']);
    const interval = str(metadataOf(p.recurring), 'interval');
    if (interval !== undefined && interval !== 'month' && interval !== 'year') throw invalid('Invalid interval.', 'recurring[interval]');
    const lookupKey = str(p, 'lookup_key');
    return addPrice({
      product: required(p, 'product'),
      unit_amount: Number(required(p, 'unit_amount')),
      currency: required(p, 'currency'),
      ...(interval ? { interval } : {}),
      ...(lookupKey ? { lookup_key: lookupKey } : {}),
      transfer_lookup_key: flag(p, 'transfer_lookup_key') ?? false,
    });
  }

  function listPrices(p: Params) {
    only(p, ['lookup_keys', 'active', 'product', 'limit', 'starting_after']);
    const keys = p.lookup_keys;
    if (keys !== undefined && (!Array.isArray(keys) || keys.length > 10))
      throw invalid('You can specify up to 10 lookup_keys.', 'lookup_keys');
    const active = flag(p, 'active');
    const all = newest(state.prices).filter(
      (x) =>
        (!keys || (keys as string[]).includes(x.lookup_key ?? '')) &&
        (active === undefined || x.active === active) &&
        (!p.product || x.product === p.product),
    );
    const list = page(all, p, '/v1/prices');
    const expanded = ((p.expand as string[] | undefined) ?? []).includes('data.product');
    return expanded ? { ...list, data: list.data.map((price) => ({ ...price, product: state.products.get(price.product) })) } : list;
  }

  function createProduct(p: Params): FakeProduct {
    only(p, ['name', 'metadata']);
    return addProduct({ name: required(p, 'name'), metadata: metadataOf(p.metadata) });
  }

  function listProducts(p: Params) {
    only(p, ['active', 'limit', 'starting_after']);
    const active = flag(p, 'active');
    return page(
      newest(state.products).filter((x) => active === undefined || x.active === active),
      p,
      '/v1/products',
    );
  }

  function createPortalSession(p: Params) {
    only(p, ['customer', 'return_url']);
    const customer = get(state.customers, 'customer', required(p, 'customer'), 'customer', 400);
    const id = newId('bps');
    const url = `https://billing.stripe.com/p/session/test_${id}`;
    return {
      id,
      object: 'billing_portal.session',
      customer: customer.id,
      return_url: str(p, 'return_url') ?? null,
      url,
      created: now(),
      livemode: false,
    };
  }

  /** A full refund of a payment (the only kind we make); a second one fails as Stripe's does. */
  function createRefund(p: Params): FakeRefund {
    only(p, ['payment_intent', 'metadata', 'reason']);
    const paymentIntent = required(p, 'payment_intent');
    const payment = get(state.paymentIntents, 'payment_intent', paymentIntent, 'payment_intent', 400);
    if (payment.refunded >= payment.amount)
      throw invalid(`Charge ch_${paymentIntent.slice(3)} has already been refunded.`, undefined, 'charge_already_refunded');
    const refund: FakeRefund = {
      id: newId('re'),
      object: 'refund',
      amount: payment.amount - payment.refunded,
      currency: payment.currency,
      payment_intent: paymentIntent,
      status: 'succeeded',
      reason: str(p, 'reason') ?? null,
      metadata: metadataOf(p.metadata),
      created: now(),
    };
    payment.refunded = payment.amount;
    state.refunds.set(refund.id, refund);
    return refund;
  }

  function listRefunds(p: Params) {
    only(p, ['payment_intent', 'limit', 'starting_after']);
    const paymentIntent = str(p, 'payment_intent');
    return page(
      newest(state.refunds).filter((r) => !paymentIntent || r.payment_intent === paymentIntent),
      p,
      '/v1/refunds',
    );
  }

  type Route = [method: string, path: RegExp, handle: (params: Params, id: string) => unknown];
  const routes: Route[] = [
    ['POST', /^\/v1\/customers$/, createCustomer],
    ['POST', /^\/v1\/products$/, createProduct],
    ['GET', /^\/v1\/products$/, listProducts],
    ['POST', /^\/v1\/prices$/, createPrice],
    ['GET', /^\/v1\/prices$/, listPrices],
    ['POST', /^\/v1\/checkout\/sessions$/, createSession],
    ['GET', /^\/v1\/checkout\/sessions\/([^/]+)$/, (_p, id) => get(state.sessions, 'checkout.session', id)],
    ['GET', /^\/v1\/subscriptions$/, listSubscriptions],
    ['GET', /^\/v1\/subscriptions\/([^/]+)$/, (p, id) => expandSubscription(get(state.subscriptions, 'subscription', id), p.expand)],
    ['POST', /^\/v1\/subscriptions\/([^/]+)$/, (p, id) => updateSubscription(id, p)],
    ['POST', /^\/v1\/subscription_schedules$/, createSchedule],
    ['GET', /^\/v1\/subscription_schedules\/([^/]+)$/, (_p, id) => get(state.schedules, 'subscription_schedule', id)],
    ['POST', /^\/v1\/subscription_schedules\/([^/]+)$/, (p, id) => updateSchedule(id, p)],
    ['POST', /^\/v1\/subscription_schedules\/([^/]+)\/release$/, (_p, id) => releaseSchedule(id)],
    ['DELETE', /^\/v1\/subscriptions\/([^/]+)$/, (_p, id) => cancelSubscription(id)],
    ['POST', /^\/v1\/billing_portal\/sessions$/, createPortalSession],
    ['POST', /^\/v1\/refunds$/, createRefund],
    ['POST', /^\/v1\/coupons$/, createCoupon],
    ['GET', /^\/v1\/coupons\/([^/]+)$/, (_p, id) => get(state.coupons, 'coupon', id)],
    ['GET', /^\/v1\/refunds$/, listRefunds],
  ];

  /** Answers one request: status and body, after auth, idempotency and the route. */
  function answer(method: string, path: string, key: string | null, auth: string | undefined, params: Params): [number, unknown] {
    if (!/^Bearer sk_(test|live)_\w+$/.test(auth ?? ''))
      return [401, { error: { type: 'authentication_error', message: 'Invalid API Key provided.' } }];
    const fingerprint = JSON.stringify([method, path, params]);
    const earlier = method === 'POST' && key ? state.idempotency.get(key) : undefined;
    if (earlier && earlier.fingerprint !== fingerprint) {
      const message = `Keys for idempotent requests can only be used with the same parameters they were first used with. Try using a key other than '${key}' if you meant to execute a different request.`;
      return [400, { error: { type: 'idempotency_error', message } }];
    }
    if (earlier) return [earlier.status, earlier.body];
    let result: [number, unknown];
    try {
      const match = routes.map(([m, re, handle]) => [m, re.exec(path), handle] as const).find(([m, found]) => m === method && found);
      if (!match) throw new FakeError(404, { type: 'invalid_request_error', message: `Unrecognized request URL (${method}: ${path}).` });
      result = [200, match[2](params, decodeURIComponent(match[1]![1] ?? ''))];
    } catch (err) {
      if (!(err instanceof FakeError)) throw err;
      result = [err.status, { error: err.body }];
    }
    // Stripe replays the first answer for a key, errors included.
    if (method === 'POST' && key) state.idempotency.set(key, { fingerprint, status: result[0], body: result[1] });
    return result;
  }

  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => void respond());
    async function respond() {
      const url = new URL(req.url ?? '/', 'http://fake');
      const params = parseForm([url.search.slice(1), Buffer.concat(chunks).toString('utf8')].filter(Boolean).join('&'));
      const header = (name: string) => (typeof req.headers[name] === 'string' ? (req.headers[name] as string) : null);
      const key = header('idempotency-key');
      const recorded: RecordedRequest = {
        method: req.method ?? 'GET',
        path: url.pathname,
        idempotencyKey: key,
        stripeVersion: header('stripe-version'),
        headers: req.headers,
        params,
      };
      requests.push(recorded);
      await beforeAnswer?.(recorded);
      if (res.destroyed) return;
      const headers = { 'Content-Type': 'application/json', 'Request-Id': newId('req') };
      if (failures > 0) {
        failures--;
        res.writeHead(500, { ...headers, 'Stripe-Should-Retry': 'true' });
        res.end(JSON.stringify({ error: { type: 'api_error', message: 'Injected failure.' } }));
        return;
      }
      const [status, body] = answer(req.method ?? 'GET', url.pathname, key, req.headers.authorization, params);
      res.writeHead(status, headers);
      res.end(JSON.stringify(body));
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  return {
    host: '127.0.0.1',
    port,
    protocol: 'http' as const,
    state,
    requests,
    addPrice,
    addProduct,
    /** Runs `hook` before answering each request (and waits for it); undefined removes it. */
    intercept(hook: typeof beforeAnswer) {
      beforeAnswer = hook;
    },
    /** The next `count` requests fail with a 500 that asks the SDK to retry (and are not stored for idempotency). */
    failNext(count = 1) {
      failures = count;
    },
    /** Pays an open session as the hosted page would; in subscription mode starts an active subscription. */
    completeSession(id: string): { session: FakeCheckoutSession; subscription: FakeSubscription | null } {
      const session = state.sessions.get(id);
      const line = state.sessionLines.get(id);
      if (!session || !line || session.status !== 'open') throw new Error(`No open checkout session ${id}`);
      Object.assign(session, { status: 'complete', payment_status: 'paid' });
      if (session.mode !== 'subscription') {
        session.payment_intent = newId('pi');
        state.paymentIntents.set(session.payment_intent, { amount: session.amount_total, currency: session.currency, refunded: 0 });
        return { session, subscription: null };
      }
      const start = new Date(now() * 1000);
      const trialEnd = line.trialDays ? seconds(start) + line.trialDays * 86_400 : null;
      const end = trialEnd
        ? new Date(trialEnd * 1000)
        : line.price.recurring?.interval === 'year'
          ? addYears(start, 1)
          : addMonths(start, 1);
      const subId = newId('sub');
      const subscription: FakeSubscription = {
        id: subId,
        object: 'subscription',
        customer: session.customer ?? fail(invalid('The fake needs a customer on subscription sessions.')),
        status: trialEnd ? 'trialing' : 'active',
        cancel_at_period_end: false,
        cancel_at: null,
        canceled_at: null,
        ended_at: null,
        created: seconds(start),
        start_date: seconds(start),
        metadata: line.subscriptionMetadata,
        billing_mode: { type: 'flexible' },
        schedule: null,
        latest_invoice: null,
        discounts: [],
        trial_start: trialEnd ? seconds(start) : null,
        trial_end: trialEnd,
        pending_update: null,
        items: {
          object: 'list',
          data: [
            {
              id: newId('si'),
              object: 'subscription_item',
              price: line.price,
              quantity: line.quantity,
              current_period_start: seconds(start),
              current_period_end: seconds(end),
              subscription: subId,
              metadata: {},
              created: seconds(start),
            },
          ],
          has_more: false,
          url: `/v1/subscription_items?subscription=${subId}`,
        },
        livemode: false,
      };
      state.subscriptions.set(subId, subscription);
      const coupon = line.coupon ? state.coupons.get(line.coupon) : undefined;
      if (coupon) subscription.discounts = [addDiscount(coupon, subId, seconds(start))];
      const due = trialEnd ? 0 : discountedAmount(line.price.unit_amount * line.quantity, coupon);
      issueInvoice(subscription, due, 'subscription_create');
      // A once coupon is used up by the first invoice it took money off.
      if (coupon?.duration === 'once' && !trialEnd) subscription.discounts = [];
      session.subscription = subId;
      return { session, subscription };
    },
    /**
     * Stripe's test clocks: the fake's time stands at `date` from now on (never earlier than it
     * stood), so a scripted history of months prices prorations to the second. Subscriptions still
     * renew only through `advancePeriod`.
     */
    travelTo(date: Date) {
      const to = seconds(date);
      if (to < now()) throw new Error(`The fake's clock stands at ${new Date(now() * 1000).toISOString()} already`);
      frozenAt = to;
    },
    /** From now on every charge to this customer is declined (its invoices stay open). */
    declineCharges(customerId: string) {
      state.declining.add(customerId);
    },
    /**
     * The test clock: moves the fake's time to the subscription's period end and renews it as Stripe
     * would then: a cancel at period end ends it; a schedule's next phase changes its price (and a
     * schedule past its last phase lets go); a new period is invoiced. Answers the subscription.
     */
    advancePeriod(subscriptionId: string): FakeSubscription {
      const sub = state.subscriptions.get(subscriptionId);
      if (!sub || sub.status === 'canceled') throw new Error(`No live subscription ${subscriptionId}`);
      const item = sub.items.data[0]!;
      const end = item.current_period_end;
      clockAhead = Math.max(clockAhead, end - seconds(new Date()));
      if (frozenAt !== null) frozenAt = Math.max(frozenAt, end);
      const schedule = sub.schedule ? state.schedules.get(sub.schedule) : undefined;
      if (sub.cancel_at_period_end || (sub.cancel_at !== null && sub.cancel_at <= end)) {
        if (schedule) Object.assign(schedule, { status: 'released', subscription: null, released_subscription: sub.id, released_at: end });
        Object.assign(sub, { status: 'canceled', canceled_at: end, ended_at: end, schedule: null });
        return sub;
      }
      const next = schedule?.phases.find((phase) => phase.start_date >= end);
      if (schedule && next) {
        item.price = state.prices.get(next.items[0]!.price)!;
        schedule.current_phase = { start_date: next.start_date, end_date: next.end_date };
      } else if (schedule) {
        Object.assign(schedule, {
          status: 'released',
          subscription: null,
          released_subscription: sub.id,
          released_at: end,
          current_phase: null,
        });
        sub.schedule = null;
      }
      Object.assign(item, { current_period_start: end, current_period_end: plusInterval(end, item.price.recurring!.interval) });
      const coupon = activeCoupon(sub, end);
      const invoice = issueInvoice(sub, discountedAmount(item.price.unit_amount * item.quantity, coupon), 'subscription_cycle');
      if (coupon?.duration === 'once') sub.discounts = [];
      // A trial ends in its first charge: paid, the subscription is active; declined, past due.
      if (sub.status === 'trialing') sub.status = invoice.status === 'paid' ? 'active' : 'past_due';
      return sub;
    },
    close(): Promise<void> {
      server.closeAllConnections();
      return new Promise((resolve, reject) => server.close((err) => (err ? reject(err) : resolve())));
    },
  };
}

export type StripeFake = Awaited<ReturnType<typeof startStripeFake>>;

/** A webhook body and its Stripe-Signature header, signed with the SDK's own test helper. */
export function signedEvent(secret: string, event: object, timestamp?: number): { payload: string; header: string } {
  const payload = JSON.stringify(event);
  const header = new Stripe('sk_test_dummy').webhooks.generateTestHeaderString({ payload, secret, ...(timestamp ? { timestamp } : {}) });
  return { payload, header };
}
