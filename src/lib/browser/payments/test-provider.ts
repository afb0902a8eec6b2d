/**
 * Calls behind the embedded test provider's checkout and portal pages (`/api/payments/test/*`). The
 * session id in the page's address is the capability, as with Stripe's hosted pages, so no member
 * token is sent. Also the card form's formatting and first checks (the server has the last word:
 * Luhn, dates in the future, and the test cards' outcomes). Calls go through the API module's typed
 * client of the test provider's routes, so the answer types are the routes', and answer its one
 * ApiResult.
 */
import { call, GENERIC_ERROR, publicApi, type ApiData, type ApiFailure, type ApiInput } from '../api.ts';

const pages = publicApi.testBilling;
type Portal = (typeof pages.portal)[':id'];

export type TestCheckout = ApiData<(typeof pages.checkout)[':id']['$get']>;
export type TestPortal = ApiData<Portal['$get']>;
export type PortalSubscription = TestPortal['subscriptions'][number];
export type PortalPlan = TestPortal['plans'][number];

/** `advance` is the test clock: the subscription renews now, as at the end of its period. */
export type PortalAction = { action: 'cancel' | 'resume' | 'advance' } | { action: 'switch'; priceId: string };

/** A test card as the pay route takes it (its schema's input). */
export type CardInput = ApiInput<(typeof pages.checkout)[':id']['pay']['$post']>;

export type CardField = keyof CardInput;
export type CardErrors = Partial<Record<CardField, string>>;

const seg = encodeURIComponent;

/** The text a page shows for a failure: the server's message (the generic one for a 5xx or no answer). */
export function failureMessage(failure: ApiFailure): string {
  return 'message' in failure ? failure.message : GENERIC_ERROR;
}

/** Whether trying again may help: a server failure or no answer at all (an unknown session will not). */
export function worthRetry(failure: ApiFailure): boolean {
  return failure.kind === 'error' && (failure.status === undefined || failure.status >= 500);
}

/** The card fields' errors of a failure (a 422 names them), if any. */
export function cardErrors(failure: ApiFailure): CardErrors | undefined {
  return failure.kind === 'error' ? firstFieldErrors(failure.fields) : undefined;
}

/** The first message of each card field the server named. */
export function firstFieldErrors(fields: Record<string, string[]> | undefined): CardErrors | undefined {
  if (!fields) return undefined;
  const out: CardErrors = {};
  for (const key of ['cardNumber', 'expiry', 'cvc'] as const) {
    const message = fields[key]?.[0];
    if (message) out[key] = message;
  }
  return Object.keys(out).length ? out : undefined;
}

export function fetchTestCheckout(sessionId: string, signal?: AbortSignal) {
  return call((o) => pages.checkout[':id'].$get({ param: { id: seg(sessionId) } }, o), { signal });
}

/** Pays with a test card; answers where the browser goes next. */
export function payTestCheckout(sessionId: string, card: CardInput) {
  return call((o) => pages.checkout[':id'].pay.$post({ param: { id: seg(sessionId) }, json: card }, o));
}

export function fetchTestPortal(sessionId: string, signal?: AbortSignal) {
  return call((o) => pages.portal[':id'].$get({ param: { id: seg(sessionId) } }, o), { signal });
}

export function changeTestSubscription(sessionId: string, subscriptionId: string, action: PortalAction) {
  const param = { id: seg(sessionId), subscriptionId: seg(subscriptionId) };
  return call((o) => pages.portal[':id'].subscriptions[':subscriptionId'].$post({ param, json: action }, o));
}

/** Card digits in groups of four, as typed ("4242424242424242" → "4242 4242 4242 4242"); 19 digits at most. */
export function formatCardNumber(value: string): string {
  const digits = value.replace(/\D/g, '').slice(0, 19);
  return digits.replace(/(\d{4})(?=\d)/g, '$1 ');
}

/** Expiry as MM/YY while typing ("1" → "1", "123" → "12/3", "12/34" stays). */
export function formatExpiry(value: string): string {
  const digits = value.replace(/\D/g, '').slice(0, 4);
  return digits.length > 2 ? `${digits.slice(0, 2)}/${digits.slice(2)}` : digits;
}

/** First checks before paying: every field filled and of the right shape. */
export function checkCard({ cardNumber, expiry, cvc }: CardInput): CardErrors {
  const errors: CardErrors = {};
  const digits = cardNumber.replace(/[\s-]/g, '');
  if (!digits) errors.cardNumber = 'Enter your card number.';
  else if (!/^\d{13,19}$/.test(digits)) errors.cardNumber = 'Your card number is incomplete.';
  const m = /^(\d{2})\/(\d{2})$/.exec(expiry.trim());
  if (!expiry.trim()) errors.expiry = 'Enter the expiry date.';
  else if (!m || Number(m[1]) < 1 || Number(m[1]) > 12) errors.expiry = 'Enter the expiry date as MM/YY.';
  if (!cvc.trim()) errors.cvc = 'Enter the security code.';
  else if (!/^\d{3,4}$/.test(cvc.trim())) errors.cvc = "Your card's security code is incomplete.";
  return errors;
}
