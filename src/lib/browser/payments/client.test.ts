import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

vi.mock('../auth/client.ts', () => ({ authClient: () => ({ auth: { getSession: vi.fn() } }) }));

const {
  cancelSubscription,
  checkoutSuccessUrl,
  confirmPayment,
  createPortalSession,
  fetchSubscription,
  itemCancelUrl,
  planCancelUrl,
  portalReturnUrl,
  purchasePath,
  readConfirmationQuery,
  startItemCheckout,
  startPlanCheckout,
} = await import('./client.ts');

const ORIGIN = 'https://beacon.example';

describe('the URLs checkout and the portal return to', () => {
  it('returns a paid checkout to the confirmation page with the provider placeholder kept literal', () => {
    expect(checkoutSuccessUrl(ORIGIN)).toBe(`${ORIGIN}/payment/confirmation?session_id={CHECKOUT_SESSION_ID}&payment_status=success`);
  });

  it('returns an abandoned plan checkout to pricing with canceled=true, and an item checkout to its page', () => {
    expect(planCancelUrl(ORIGIN)).toBe(`${ORIGIN}/pricing?canceled=true`);
    // With the plan, so the page comes back with it (and its interval) chosen.
    expect(planCancelUrl(ORIGIN, 'price_premium_yearly')).toBe(`${ORIGIN}/pricing?canceled=true&plan=price_premium_yearly`);
    expect(itemCancelUrl(ORIGIN, 'market', 'brand kit')).toBe(`${ORIGIN}/market/brand%20kit?canceled=true`);
    expect(itemCancelUrl(ORIGIN, 'course', 'seo-101')).toBe(`${ORIGIN}/courses/seo-101?canceled=true`);
  });

  it('returns from the portal to the account page', () => {
    expect(portalReturnUrl(ORIGIN)).toBe(`${ORIGIN}/account`);
  });

  it('links purchases to their item pages', () => {
    expect(purchasePath('market', 'kit')).toBe('/market/kit');
    expect(purchasePath('course', 'playbook')).toBe('/courses/playbook');
  });
});

describe('the confirmation query', () => {
  it('reads session_id and payment_status', () => {
    expect(readConfirmationQuery('?session_id=cs_test_abc&payment_status=success')).toEqual({
      sessionId: 'cs_test_abc',
      paymentStatus: 'success',
    });
  });

  it('has no session id when it is missing, blank or the unreplaced placeholder', () => {
    expect(readConfirmationQuery('').sessionId).toBeNull();
    expect(readConfirmationQuery('?session_id=%20&payment_status=success').sessionId).toBeNull();
    expect(readConfirmationQuery('?session_id={CHECKOUT_SESSION_ID}').sessionId).toBeNull();
  });
});

/** localStorage as browsers expose it: stored keys are the object's own keys. */
class FakeStorage {
  [key: string]: unknown;
  getItem(key: string): string | null {
    return Object.hasOwn(this, key) ? (this[key] as string) : null;
  }
  setItem(key: string, value: string): void {
    this[key] = value;
  }
}

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
const USER = '5b0c8c84-5a8e-4e55-9e43-5a4f3b0f2f11';

describe('payment calls', () => {
  let fetchMock: ReturnType<typeof vi.fn>;

  beforeEach(() => {
    const storage = new FakeStorage();
    const expiresAt = Math.floor(Date.now() / 1000) + 3600;
    storage.setItem('sb-127-auth-token', JSON.stringify({ access_token: 'token-a', expires_at: expiresAt, user: { id: USER } }));
    fetchMock = vi.fn().mockResolvedValue(json(200, { sessionId: 'cs_1', url: `${ORIGIN}/billing/test-checkout?session=cs_1` }));
    vi.stubGlobal('localStorage', storage);
    vi.stubGlobal('window', Object.assign(new EventTarget(), { location: { origin: ORIGIN } }));
    vi.stubGlobal('fetch', fetchMock);
  });
  afterEach(() => vi.unstubAllGlobals());

  const sent = (n = 0) => {
    const [path, init] = fetchMock.mock.calls[n] as [string, RequestInit];
    return { path, init, body: init.body ? (JSON.parse(init.body as string) as unknown) : undefined };
  };

  it('starts a plan checkout with the spec fields, the member id and the bearer token', async () => {
    const result = await startPlanCheckout({ priceId: 'price_premium_yearly', accessLevel: 'premium', productName: 'Premium' });
    expect(result).toEqual({ ok: true, data: { sessionId: 'cs_1', url: `${ORIGIN}/billing/test-checkout?session=cs_1` } });
    const { path, init, body } = sent();
    expect(path).toBe('/api/payments/stripe/create-session');
    expect(init.method).toBe('POST');
    expect(init.headers).toMatchObject({ authorization: 'Bearer token-a' });
    expect(body).toEqual({
      priceId: 'price_premium_yearly',
      successUrl: `${ORIGIN}/payment/confirmation?session_id={CHECKOUT_SESSION_ID}&payment_status=success`,
      cancelUrl: `${ORIGIN}/pricing?canceled=true&plan=price_premium_yearly`,
      userId: USER,
      metadata: { accessLevel: 'premium', productName: 'Premium' },
    });
  });

  it('starts an item checkout with the item instead of a price', async () => {
    await startItemCheckout({ type: 'market', slug: 'brand-kit' });
    expect(sent().body).toEqual({
      item: { type: 'market', slug: 'brand-kit' },
      successUrl: `${ORIGIN}/payment/confirmation?session_id={CHECKOUT_SESSION_ID}&payment_status=success`,
      cancelUrl: `${ORIGIN}/market/brand-kit?canceled=true`,
      userId: USER,
    });
  });

  it('answers a refused checkout with its status and message (already subscribed)', async () => {
    fetchMock.mockResolvedValueOnce(json(409, { error: { code: 'conflict', message: 'You already have an active subscription.' } }));
    expect(await startPlanCheckout({ priceId: 'price_subscriber_monthly', accessLevel: 'subscriber', productName: 'Subscriber' })).toEqual({
      ok: false,
      kind: 'error',
      status: 409,
      code: 'conflict',
      message: 'You already have an active subscription.',
    });
  });

  it('confirms, reads, cancels and opens the portal on the spec paths', async () => {
    await confirmPayment('cs_1');
    await fetchSubscription('cus_1');
    await cancelSubscription('sub_1');
    await createPortalSession('cus_1');
    expect(sent(0)).toMatchObject({ path: '/api/payments/stripe/confirm', body: { sessionId: 'cs_1', userId: USER } });
    expect(sent(1)).toMatchObject({ path: '/api/payments/stripe/subscriptions/cus_1', init: { method: 'GET' } });
    expect(sent(2)).toMatchObject({ path: '/api/payments/stripe/subscriptions/sub_1/cancel', init: { method: 'POST' } });
    expect(sent(3)).toMatchObject({
      path: '/api/payments/stripe/create-portal-session',
      body: { customerId: 'cus_1', returnUrl: `${ORIGIN}/account` },
    });
  });

  it('answers signed-out without a call when no session is stored', async () => {
    vi.stubGlobal('localStorage', new FakeStorage());
    expect(await confirmPayment('cs_1')).toEqual({ ok: false, kind: 'signed-out' });
    expect(fetchMock).not.toHaveBeenCalled();
  });
});
