/**
 * Calls behind the embedded test provider's checkout and portal pages (`/api/payments/test/*`). The
 * session id in the page's address is the capability, as with Stripe's hosted pages, so no member
 * token is sent. Also the card form's formatting and first checks (the server has the last word:
 * Luhn, dates in the future, and the test cards' outcomes). Calls go through the API module's typed
 * client of the test provider's routes, so the answer types are the routes'.
 */
import { publicApi, type ApiData, type ApiInput } from '../api.ts';

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

/** An answer, or why not: the HTTP status (0 when the network failed), a message and field errors. */
export type TestResult<T> = { ok: true; data: T } | { ok: false; status: number; message: string; fields?: CardErrors };

const GENERIC = 'Something went wrong. Please try again.';
const seg = encodeURIComponent;

/** One call: `send` makes the request through the typed client (its body checked there) with the options given (an abort signal). */
async function testCall<T>(
  send: (options: { headers: Record<string, string>; init: RequestInit }) => Promise<{ ok: boolean; status: number; json(): Promise<T> }>,
  init: { signal?: AbortSignal } = {},
): Promise<TestResult<T>> {
  try {
    const res = await send({ headers: {}, init: init.signal ? { signal: init.signal } : {} });
    if (res.ok) return { ok: true, data: await res.json() };
    const body = (await res.json().catch(() => undefined)) as
      { error?: { message?: string; fields?: Record<string, string[]> } } | undefined;
    const fields = firstFieldErrors(body?.error?.fields);
    return {
      ok: false,
      status: res.status,
      message: res.status < 500 && body?.error?.message ? body.error.message : GENERIC,
      ...(fields ? { fields } : {}),
    };
  } catch (err) {
    if (init.signal?.aborted) throw err;
    return { ok: false, status: 0, message: GENERIC };
  }
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
  return testCall((o) => pages.checkout[':id'].$get({ param: { id: seg(sessionId) } }, o), signal ? { signal } : {});
}

/** Pays with a test card; answers where the browser goes next. */
export function payTestCheckout(sessionId: string, card: CardInput) {
  return testCall((o) => pages.checkout[':id'].pay.$post({ param: { id: seg(sessionId) }, json: card }, o));
}

export function fetchTestPortal(sessionId: string, signal?: AbortSignal) {
  return testCall((o) => pages.portal[':id'].$get({ param: { id: seg(sessionId) } }, o), signal ? { signal } : {});
}

export function changeTestSubscription(sessionId: string, subscriptionId: string, action: PortalAction) {
  const param = { id: seg(sessionId), subscriptionId: seg(subscriptionId) };
  return testCall((o) => pages.portal[':id'].subscriptions[':subscriptionId'].$post({ param, json: action }, o));
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
