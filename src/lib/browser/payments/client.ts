/**
 * The browser's calls to the payment API (spec point 7): checkout for a plan or a priced item,
 * confirm, the member's subscription, cancel, the provider's management portal, and purchases.
 * Every call goes through the typed payments client of the API module (api.ts), with the member's
 * bearer token, and answers a typed result instead of throwing; the answer types are the routes'. Browser only, apart from the pure URL builders.
 */
import type { AccessLevel } from '#shared/access.ts';
import type { PurchasableType } from '#shared/content/registry.ts';
import { api, call, publicApi, storedSession, type ApiData } from '../api.ts';

export type { PurchasableType };

const stripe = api.payments.stripe;
const subscriptions = stripe.subscriptions;

/**
 * create-session's answer: the provider's hosted checkout (or the embedded test checkout), where the
 * browser goes; or, with Stripe's embedded Checkout configured, what Stripe.js needs to open it here.
 */
export type CheckoutSession = ApiData<(typeof stripe)['create-session']['$post']>;
export type ConfirmedPayment = ApiData<typeof stripe.confirm.$post>;
/** The spec's Subscription (point 3), plus the plan's tier id and a change held for the period end. */
export type Subscription = NonNullable<ApiData<typeof api.payments.subscription.$get>>;
/** A plan change's answer: upgraded now, scheduled for the period end (or a cancel), or a scheduled change withdrawn. */
export type PlanChangeResult = ApiData<(typeof subscriptions)[':subscriptionId']['change']['$post']>;
export type Purchase = ApiData<typeof api.payments.purchases.$get>['purchases'][number];
export type PaymentMode = ApiData<typeof publicApi.payments.mode.$get>['mode'];

/** The provider replaces this with the checkout session's id in the success URL; sent literally. */
export const CHECKOUT_SESSION_PLACEHOLDER = '{CHECKOUT_SESSION_ID}';

/** Where a paid checkout returns (spec point 7): the confirmation page with the session id placeholder. */
export function checkoutSuccessUrl(origin: string): string {
  return `${origin}/payment/confirmation?session_id=${CHECKOUT_SESSION_PLACEHOLDER}&payment_status=success`;
}

/** Where an abandoned plan checkout returns (spec point 7), naming the plan so the page reopens it with its interval. */
export function planCancelUrl(origin: string, priceId?: string): string {
  return `${origin}/pricing?canceled=true${priceId ? `&plan=${encodeURIComponent(priceId)}` : ''}`;
}

/** The page of a purchasable item. */
export function purchasePath(type: PurchasableType, slug: string): string {
  return `/${type === 'market' ? 'market' : 'courses'}/${encodeURIComponent(slug)}`;
}

/** Where an abandoned item checkout returns: the item's own page. */
export function itemCancelUrl(origin: string, type: PurchasableType, slug: string): string {
  return `${origin}${purchasePath(type, slug)}?canceled=true`;
}

/** Where the provider's portal returns (spec point 7): the account page. */
export function portalReturnUrl(origin: string): string {
  return `${origin}/account`;
}

/**
 * The confirmation page's query (spec point 2): the session id, unless missing, blank or still the
 * unreplaced placeholder, and the payment status as given.
 */
export function readConfirmationQuery(search: string): { sessionId: string | null; paymentStatus: string | null } {
  const query = new URLSearchParams(search);
  const id = query.get('session_id')?.trim();
  return {
    sessionId: id && id !== CHECKOUT_SESSION_PLACEHOLDER ? id : null,
    paymentStatus: query.get('payment_status'),
  };
}

const userId = () => storedSession()?.userId;
const seg = encodeURIComponent;

/** Starts checkout for a plan (a tier id, monthly or yearly). */
export function startPlanCheckout(
  plan: { priceId: string; accessLevel: AccessLevel; productName: string; offerCode?: string | undefined },
  origin = window.location.origin,
) {
  const body = {
    priceId: plan.priceId,
    successUrl: checkoutSuccessUrl(origin),
    cancelUrl: planCancelUrl(origin, plan.priceId),
    userId: userId(),
    metadata: { accessLevel: plan.accessLevel, productName: plan.productName },
    ...(plan.offerCode ? { offerCode: plan.offerCode } : {}),
  };
  return call((o) => stripe['create-session'].$post({ json: body }, o));
}

/** Starts checkout for a one-time purchase of a priced market item or course. */
export function startItemCheckout(item: { type: PurchasableType; slug: string }, origin = window.location.origin) {
  const body = {
    item: { type: item.type, slug: item.slug },
    successUrl: checkoutSuccessUrl(origin),
    cancelUrl: itemCancelUrl(origin, item.type, item.slug),
    userId: userId(),
  };
  return call((o) => stripe['create-session'].$post({ json: body }, o));
}

/** Asks the server to check the session with the provider and apply it; any failure is a failure. */
export function confirmPayment(sessionId: string, signal?: AbortSignal) {
  return call((o) => stripe.confirm.$post({ json: { sessionId, userId: userId() } }, o), { signal });
}

/** The member's subscription, or null when they have none. */
export function fetchSubscription(customerId: string, signal?: AbortSignal) {
  return call((o) => subscriptions[':customerId'].$get({ param: { customerId: seg(customerId) } }, o), { signal });
}

/** The caller's own plan (the one that grants access, else the latest), or null. */
export function fetchMySubscription(signal?: AbortSignal) {
  return call((o) => api.payments.subscription.$get({}, o), { signal });
}

/** Another plan for the member's subscription: an upgrade now, a downgrade at the period end, or the current plan to keep it. */
export function changePlan(subscriptionId: string, priceId: string) {
  const param = { subscriptionId: seg(subscriptionId) };
  return call((o) => subscriptions[':subscriptionId'].change.$post({ param, json: { priceId } }, o));
}

/** The retention offer the cancel confirmation may show (`offer: null` when there is none). */
export function fetchRetentionOffer(subscriptionId: string, signal?: AbortSignal) {
  const param = { subscriptionId: seg(subscriptionId) };
  return call((o) => subscriptions[':subscriptionId']['retention-offer'].$get({ param }, o), { signal });
}

/** Takes the retention offer: its discount on the live subscription from the next payment. */
export function acceptRetentionOffer(subscriptionId: string, code: string) {
  const param = { subscriptionId: seg(subscriptionId) };
  return call((o) => subscriptions[':subscriptionId']['retention-offer'].$post({ param, json: { code } }, o));
}

/** Cancels at the end of the period already paid for. */
export function cancelSubscription(subscriptionId: string) {
  const param = { subscriptionId: seg(subscriptionId) };
  return call((o) => subscriptions[':subscriptionId'].cancel.$post({ param }, o));
}

/** A session of the provider's management portal, returning to the account page. */
export function createPortalSession(customerId: string, origin = window.location.origin) {
  return call((o) => stripe['create-portal-session'].$post({ json: { customerId, returnUrl: portalReturnUrl(origin) } }, o));
}

/** What the member bought, newest first. */
export function fetchPurchases(signal?: AbortSignal) {
  return call((o) => api.payments.purchases.$get({}, o), { signal });
}

/** Whether payments run in test mode (public and the same for everyone); null when it cannot be read. */
export async function fetchPaymentMode(signal?: AbortSignal): Promise<PaymentMode | null> {
  try {
    const res = await publicApi.payments.mode.$get({}, signal ? { init: { signal } } : {});
    const mode = res.ok ? ((await res.json()) as { mode?: unknown }).mode : null;
    return mode === 'test' || mode === 'live' ? mode : null;
  } catch {
    return null;
  }
}
