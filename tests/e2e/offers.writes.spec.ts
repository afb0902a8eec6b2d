/**
 * Offers and trials in the browser, on the embedded test provider (issue 34): a visitor opens the
 * pricing page with a launch offer, sees the discounted price and its terms, signs up on the way to
 * checkout and pays the offer's price, and the account says the access rests on the offer; a member
 * about to cancel takes the retention offer in the cancel confirmation; a trial starts for nothing
 * and converts on the test clock, charged in full. Offers and trials are set as staff set them (the
 * admin API), on codes and a plan no other journey uses.
 */
import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { seriousViolations } from './axe.ts';
import { adminToken, DEMO_ADMIN, signedInMember } from './members.ts';
import { signInToAdmin } from './support.ts';

const SUCCESS = '/payment/confirmation?session_id={CHECKOUT_SESSION_ID}&payment_status=success';

async function asAdmin(request: APIRequestContext, method: 'post' | 'put', path: string, data: unknown) {
  const res = await request[method](path, { headers: { authorization: `Bearer ${await adminToken(request)}` }, data });
  expect(res.ok(), `${path}: ${res.status()} ${await res.text()}`).toBe(true);
}

const tokenOf = (page: Page) =>
  page.evaluate(() => {
    const key = Object.keys(localStorage).find((k) => /^sb-.+-auth-token$/.test(k))!;
    return (JSON.parse(localStorage.getItem(key)!) as { access_token: string }).access_token;
  });

async function pay(page: Page, button: RegExp): Promise<void> {
  const form = page.getByRole('form', { name: 'Card details' });
  await form.getByLabel('Card number').fill('4242 4242 4242 4242');
  await form.getByLabel('Expiry').fill('12/34');
  await form.getByLabel('CVC').fill('123');
  await form.getByRole('button', { name: button }).click();
}

test('a visitor takes a launch offer through sign-up and pays the discounted price', async ({ page, browser }) => {
  test.setTimeout(90_000);
  const code = `LAUNCH${Date.now()}`;
  await asAdmin(page.request, 'post', '/api/admin/payments/offers', {
    code,
    kind: 'signup',
    percentOff: 25,
    duration: 'repeating',
    durationInMonths: 3,
    priceIds: ['price_premium_monthly'],
  });

  // A visitor sees the offer's price and terms on the plan it covers.
  const visitor = await browser.newPage();
  await visitor.goto(`/pricing?offer=${code.toLowerCase()}`);
  await expect(visitor.getByRole('status').filter({ hasText: `Offer ${code}` })).toHaveText(`Offer ${code}: 25% off for 3 months.`);
  const premium = visitor.getByRole('article', { name: 'Premium' });
  await expect(premium.locator('[data-price]')).toHaveText('$14.99');
  await expect(premium).toContainText('Usually $19.99. 25% off for 3 months.');
  expect(await seriousViolations(visitor), 'pricing with an offer').toEqual([]);
  await premium.getByRole('button', { name: 'Subscribe' }).click();
  await visitor.getByRole('region', { name: 'Complete Your Subscription' }).getByRole('button', { name: 'Subscribe to Premium' }).click();
  // Not signed in: through sign-in, which brings them back to the plan with the offer.
  await visitor.waitForURL((url) => url.pathname === '/signin');
  const back = new URL(visitor.url()).searchParams.get('redirect')!;
  expect(back).toBe(`/pricing?plan=price_premium_monthly&offer=${code}`);
  await visitor.close();

  // They sign up (the mailed link), then come back where sign-in would have taken them.
  await signedInMember(page, 'launch-offer');
  await page.goto(back);
  const panel = page.getByRole('region', { name: 'Complete Your Subscription' });
  await expect(panel).toContainText('$14.99/month');
  await panel.getByRole('button', { name: 'Subscribe to Premium' }).click();
  await page.waitForURL((url) => url.pathname === '/billing/test-checkout');
  await expect(page.getByTestId('checkout-due')).toHaveText('$14.99');
  await pay(page, /^Pay \$14\.99$/);
  await page.waitForURL((url) => url.pathname === '/payment/confirmation');
  await expect(page.getByTestId('new-access-level')).toHaveText('Premium');

  // The Offers tab counts the redemption and the revenue it brought.
  const admin = await browser.newPage();
  await signInToAdmin(admin, DEMO_ADMIN);
  await admin.getByRole('tab', { name: 'Offers' }).click();
  await expect(admin.getByRole('listitem', { name: code }).getByTestId('offer-stats')).toContainText('1 redeemed · $14.99 revenue');
  expect(await seriousViolations(admin), 'offers tab').toEqual([]);
  await admin.close();

  await page.goto('/account');
  await expect(page.getByRole('region', { name: 'Your access' })).toContainText(
    /Premium, monthly, at an offer price, renews \d{1,2} [A-Z][a-z]+/,
  );
  expect(await seriousViolations(page), 'account with an offer').toEqual([]);
});

test('a member about to cancel takes the retention offer instead', async ({ page }) => {
  test.setTimeout(60_000);
  const code = `STAY${Date.now()}`;
  await asAdmin(page.request, 'post', '/api/admin/payments/offers', {
    code,
    kind: 'retention',
    percentOff: 50,
    duration: 'once',
    priceIds: ['price_subscriber_monthly'],
  });
  await signedInMember(page, 'retention-offer');
  const session = await page.request.post('/api/payments/stripe/create-session', {
    headers: { authorization: `Bearer ${await tokenOf(page)}` },
    data: { priceId: 'price_subscriber_monthly', successUrl: SUCCESS, cancelUrl: '/pricing' },
  });
  const { sessionId } = (await session.json()) as { sessionId: string };
  const paid = await page.request.post(`/api/payments/test/checkout/${sessionId}/pay`, {
    data: { cardNumber: '4242 4242 4242 4242', expiry: '12/34', cvc: '123' },
  });
  expect(paid.ok()).toBe(true);

  await page.goto('/account');
  const card = page.getByRole('region', { name: 'Subscription' });
  await card.getByRole('button', { name: 'Cancel Subscription' }).click();
  const confirm = page.getByRole('dialog', { name: 'Cancel your Subscriber plan?' });
  const offer = confirm.getByTestId('retention-offer');
  await expect(offer).toContainText('Before you go: 50% off your first payment.');
  await expect(offer).toContainText('Stay for $5.00/month instead of $9.99.');
  expect(await seriousViolations(page), 'cancel confirmation with an offer').toEqual([]);
  await offer.getByRole('button', { name: 'Stay with this offer' }).click();
  await expect(confirm).toBeHidden();
  await expect(card.getByTestId('subscription-status')).toHaveText('Active');
  // Taken: the confirmation offers it no more.
  await card.getByRole('button', { name: 'Cancel Subscription' }).click();
  await expect(confirm).toBeVisible();
  await expect(confirm.getByTestId('retention-offer')).toHaveCount(0);
  await confirm.getByRole('button', { name: 'Keep my plan' }).click();
});

test('a trial starts for nothing and converts on the test clock', async ({ page }) => {
  test.setTimeout(90_000);
  // Subscriber yearly: no other journey buys it.
  await asAdmin(page.request, 'put', '/api/admin/payments/offers/trials/price_subscriber_yearly', { days: 14 });
  try {
    await signedInMember(page, 'trial');
    await page.goto('/pricing');
    await page.locator('label', { hasText: 'Yearly' }).click();
    const subscriber = page.getByRole('article', { name: 'Subscriber' });
    await expect(subscriber).toContainText('Starts with a 14-day free trial for new members.');
    await subscriber.getByRole('button', { name: 'Subscribe' }).click();
    await page.getByRole('region', { name: 'Complete Your Subscription' }).getByRole('button', { name: 'Subscribe to Subscriber' }).click();
    await page.waitForURL((url) => url.pathname === '/billing/test-checkout');
    await expect(page.getByTestId('checkout-due')).toHaveText('$0.00');
    await pay(page, /^Start free trial$/);
    await page.waitForURL((url) => url.pathname === '/payment/confirmation');

    await page.goto('/account');
    const card = page.getByRole('region', { name: 'Subscription' });
    await expect(card.getByTestId('subscription-status')).toHaveText('Trialing');
    await expect(page.getByRole('region', { name: 'Your access' })).toContainText(
      /Subscriber until \d{1,2} [A-Z][a-z]+( \d{4})?, free trial/,
    );
    // The test clock crosses the trial's end: the first charge, in full.
    await card.getByRole('button', { name: 'Manage Subscription' }).click();
    await page.waitForURL((url) => url.pathname === '/billing/test-portal');
    await page.getByRole('button', { name: 'Advance to period end' }).click();
    await expect(page.getByRole('status')).toContainText('Renewed: Subscriber');
    await page.getByRole('link', { name: 'Return to account' }).click();
    await page.waitForURL((url) => url.pathname === '/account');
    await expect(card.getByTestId('subscription-status')).toHaveText('Active');
    await expect(page.getByRole('region', { name: 'Your access' })).toContainText(/Subscriber, yearly, renews/);
  } finally {
    await asAdmin(page.request, 'put', '/api/admin/payments/offers/trials/price_subscriber_yearly', { days: 0 });
  }
});
