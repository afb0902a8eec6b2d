/**
 * The browser's calls to the payment API (spec point 7): checkout for a plan or a priced item,
 * confirm, the member's subscription, cancel, the provider's management portal, and purchases.
 * Every call sends the member's bearer token through gated-client's `gatedFetch` (the session
 * supabase-js stored, read without loading it), so the pricing and confirmation pages stay light,
 * and answers a typed result instead of throwing. Browser only, apart from the pure URL builders.
 */
import type { AccessLevel } from '#shared/access.ts';
import { gatedFetch, storedSession } from '../api.ts';

export type PurchasableType = 'market' | 'course';
export type PlanInterval = 'month' | 'year';

/**
 * create-session's answer: the provider's hosted checkout (or the embedded test checkout), where the
 * browser goes; or, with Stripe's embedded Checkout configured, what Stripe.js needs to open it here.
 */
export type CheckoutSession = { sessionId: string; url: string } | { sessionId: string; clientSecret: string; publishableKey: string };

export interface PurchasedItem {
  type: PurchasableType;
  slug: string;
  title: string;
}

export interface ConfirmedPayment {
  accessLevel: AccessLevel;
  mode: 'subscription' | 'payment';
  /** Set for a one-time purchase. */
  purchase?: PurchasedItem;
}

/** A plan by our tier id (price_premium_yearly), its name, cents and interval. */
export interface PlanSummary {
  priceId: string;
  name: string;
  amount: number;
  interval: PlanInterval;
}

/**
 * The spec's Subscription (point 3): amount in cents, period end as an ISO string; plus (beyond the
 * spec) the plan's tier id and a change held for the period end.
 */
export interface Subscription {
  subscriptionId: string;
  status: string;
  cancelAtPeriodEnd: boolean;
  currentPeriodEnd: string;
  plan: { name: string; amount: number; interval: PlanInterval };
  priceId?: string | null;
  scheduledChange?: (PlanSummary & { effectiveAt: string }) | null;
}

/** A plan change's answer: upgraded now, scheduled for the period end (or a cancel), or a scheduled change withdrawn. */
export interface PlanChangeResult {
  change: 'upgraded' | 'scheduled' | 'kept';
  subscription: Subscription;
  accessLevel: AccessLevel;
  /** Cents charged now for an upgrade's prorated difference. */
  charged?: number;
}

export interface Purchase extends PurchasedItem {
  /** Cents. */
  amount: number;
  currency: string;
  purchasedAt: string;
}

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
  plan: { priceId: string; accessLevel: AccessLevel; productName: string },
  origin = window.location.origin,
) {
  return gatedFetch<CheckoutSession>('/api/payments/stripe/create-session', {
    method: 'POST',
    body: {
      priceId: plan.priceId,
      successUrl: checkoutSuccessUrl(origin),
      cancelUrl: planCancelUrl(origin, plan.priceId),
      userId: userId(),
      metadata: { accessLevel: plan.accessLevel, productName: plan.productName },
    },
  });
}

/** Starts checkout for a one-time purchase of a priced market item or course. */
export function startItemCheckout(item: { type: PurchasableType; slug: string }, origin = window.location.origin) {
  return gatedFetch<CheckoutSession>('/api/payments/stripe/create-session', {
    method: 'POST',
    body: {
      item: { type: item.type, slug: item.slug },
      successUrl: checkoutSuccessUrl(origin),
      cancelUrl: itemCancelUrl(origin, item.type, item.slug),
      userId: userId(),
    },
  });
}

/** Asks the server to check the session with the provider and apply it; any failure is a failure. */
export function confirmPayment(sessionId: string, signal?: AbortSignal) {
  return gatedFetch<ConfirmedPayment>('/api/payments/stripe/confirm', { method: 'POST', body: { sessionId, userId: userId() }, signal });
}

/** The member's subscription, or null when they have none. */
export function fetchSubscription(customerId: string, signal?: AbortSignal) {
  return gatedFetch<Subscription | null>(`/api/payments/stripe/subscriptions/${seg(customerId)}`, { signal });
}

/** The caller's own plan (the one that grants access, else the latest), or null. */
export function fetchMySubscription(signal?: AbortSignal) {
  return gatedFetch<Subscription | null>('/api/payments/subscription', { signal });
}

/** Another plan for the member's subscription: an upgrade now, a downgrade at the period end, or the current plan to keep it. */
export function changePlan(subscriptionId: string, priceId: string) {
  return gatedFetch<PlanChangeResult>(`/api/payments/stripe/subscriptions/${seg(subscriptionId)}/change`, {
    method: 'POST',
    body: { priceId },
  });
}

/** Cancels at the end of the period already paid for. */
export function cancelSubscription(subscriptionId: string) {
  return gatedFetch<{ subscription: Subscription }>(`/api/payments/stripe/subscriptions/${seg(subscriptionId)}/cancel`, { method: 'POST' });
}

/** A session of the provider's management portal, returning to the account page. */
export function createPortalSession(customerId: string, origin = window.location.origin) {
  return gatedFetch<{ url: string }>('/api/payments/stripe/create-portal-session', {
    method: 'POST',
    body: { customerId, returnUrl: portalReturnUrl(origin) },
  });
}

/** What the member bought, newest first. */
export function fetchPurchases(signal?: AbortSignal) {
  return gatedFetch<{ purchases: Purchase[] }>('/api/payments/purchases', { signal });
}

export type PaymentMode = 'test' | 'live';

/** Whether payments run in test mode (public and the same for everyone); null when it cannot be read. */
export async function fetchPaymentMode(signal?: AbortSignal): Promise<PaymentMode | null> {
  try {
    const res = await fetch('/api/payments/mode', { headers: { accept: 'application/json' }, ...(signal ? { signal } : {}) });
    const mode = res.ok ? ((await res.json()) as { mode?: unknown }).mode : null;
    return mode === 'test' || mode === 'live' ? mode : null;
  } catch {
    return null;
  }
}
