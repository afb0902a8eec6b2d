/**
 * Payments in the browser, on the embedded test provider (writes members, subscriptions and
 * purchases, so it runs with the writing tests): a free member subscribes to Premium yearly through
 * the test checkout (leaving it once, which keeps Yearly chosen; then a declined card), the
 * confirmation shows the new level, a premium body
 * opens, the account cancels and the portal resumes; a priced market item is bought and downloaded;
 * a priced course at the free level offers members the Buy button (never its lessons) until they buy
 * it; a failed checkout start shows the spec's error, and so do the account card's failed load, cancel
 * and portal; visitors go through sign-in to buy. The account page says payments are in test mode.
 */
import { expect, test, type Page } from '@playwright/test';
import { makeCourseInput } from '../support/fixtures.ts';
import { seriousViolations } from './axe.ts';
import { signedInMember } from './members.ts';
import { siteContent } from './support.ts';

const PREMIUM_ARTICLE = '/blog/ai-content-workflow-guardrails';
const PURCHASE_ONLY_ITEM = { path: '/market/social-media-content-pack', title: '90-Day Social Media Content Pack', price: '$24.00' };

async function payWith(page: Page, cardNumber: string): Promise<void> {
  const form = page.getByRole('form', { name: 'Card details' });
  await form.getByLabel('Card number').fill(cardNumber);
  await form.getByLabel('Expiry').fill('12/34');
  await form.getByLabel('CVC').fill('123');
  await form.getByRole('button', { name: /^Pay / }).click();
}

test('a free member subscribes to Premium yearly, reads premium content, cancels, and resumes in the portal', async ({ page }) => {
  test.setTimeout(90_000);
  // On the embedded provider no page ever fetches Stripe.js or its loader chunk.
  const stripeJs: string[] = [];
  page.on('request', (request) => {
    if (/js\.stripe\.com|stripe-checkout|stripe-js/.test(request.url())) stripeJs.push(request.url());
  });
  await signedInMember(page, 'subscriber-journey');

  await page.goto('/pricing');
  const free = page.getByRole('article', { name: 'Free' });
  await expect(free.getByRole('button', { name: 'Current Plan' })).toBeDisabled();
  await expect(free.getByRole('link', { name: 'Get Started' })).toBeHidden();
  await page.locator('label', { hasText: 'Yearly' }).click();
  await page.getByRole('article', { name: 'Premium' }).getByRole('button', { name: 'Subscribe' }).click();
  const panel = page.getByRole('region', { name: 'Complete Your Subscription' });
  await expect(panel).toContainText('$191.90/year');
  await panel.getByRole('button', { name: 'Subscribe to Premium' }).click();

  // The test checkout: marked as a test, the order, a declined card, then a good one.
  await page.waitForURL((url) => url.pathname === '/billing/test-checkout' && url.searchParams.has('session'));
  await expect(page.getByRole('note', { name: 'Test mode' })).toContainText('No real card is charged');
  await expect(page.getByTestId('checkout-product')).toHaveText('Premium');
  await expect(page.getByTestId('checkout-amount')).toHaveText('$191.90 / year');
  // Leaving the checkout comes back to the plan as it was chosen: Premium, yearly.
  await page.getByRole('link', { name: 'Cancel and return' }).click();
  await page.waitForURL((url) => url.pathname === '/pricing' && url.searchParams.get('canceled') === 'true');
  await expect(page.getByText('Checkout was canceled. You have not been charged.')).toBeVisible();
  await expect(page.getByRole('radio', { name: /Yearly/ })).toBeChecked();
  await expect(panel).toContainText('$191.90/year');
  await panel.getByRole('button', { name: 'Subscribe to Premium' }).click();
  await page.waitForURL((url) => url.pathname === '/billing/test-checkout' && url.searchParams.has('session'));
  await payWith(page, '4000 0000 0000 0002');
  await expect(page.getByTestId('payment-error')).toHaveText('Your card was declined.');
  expect(await seriousViolations(page), 'test checkout with a decline').toEqual([]);
  await payWith(page, '4242 4242 4242 4242');

  await page.waitForURL((url) => url.pathname === '/payment/confirmation');
  expect(new URL(page.url()).searchParams.get('payment_status')).toBe('success');
  await expect(page.getByRole('heading', { name: 'Payment Successful!' })).toBeVisible();
  await expect(page.getByText('Your new access level')).toBeVisible();
  await expect(page.getByTestId('new-access-level')).toHaveText('Premium');
  await expect(page.getByRole('button', { name: 'Continue to Dashboard' })).toBeEnabled();
  expect(await page.evaluate(() => localStorage.getItem('beacon.userAccessLevel'))).toBe('premium');
  expect(await seriousViolations(page), 'confirmation').toEqual([]);

  await page.goto(PREMIUM_ARTICLE);
  await expect(page.getByTestId('article-body')).toBeVisible();
  await expect(page.getByTestId('gate-card')).toHaveCount(0);

  // The account shows the subscription; cancelling keeps access until the period ends.
  await page.goto('/account');
  const card = page.getByRole('region', { name: 'Subscription' });
  const details = card.getByTestId('subscription-details');
  await expect(details).toContainText('Premium');
  await expect(details).toContainText('$191.90 / year');
  await expect(card.getByTestId('subscription-status')).toHaveText('Active');
  await expect(details).toContainText('Next Billing Date');
  await card.getByRole('button', { name: 'Cancel Subscription' }).click();
  await page.getByRole('dialog', { name: 'Cancel your Premium plan?' }).getByRole('button', { name: 'Yes, cancel' }).click();
  await expect(card.getByTestId('subscription-status')).toHaveText('Canceling');
  await expect(details).toContainText('Access Until');
  await expect(details).toContainText('Your subscription has been canceled and will end on');
  await expect(card.getByRole('button', { name: 'Cancel Subscription' })).toHaveCount(0);
  expect(await seriousViolations(page), 'account, canceling').toEqual([]);

  // The portal resumes it; back on the account it is active again.
  await card.getByRole('button', { name: 'Manage Subscription' }).click();
  await page.waitForURL((url) => url.pathname === '/billing/test-portal');
  await expect(page.getByTestId('portal-status')).toHaveText('Canceling');
  expect(await seriousViolations(page), 'test portal').toEqual([]);
  await page.getByRole('button', { name: 'Resume subscription' }).click();
  await expect(page.getByTestId('portal-status')).toHaveText('Active');
  await expect(page.getByRole('button', { name: 'Cancel at period end' })).toBeVisible();
  await page.getByRole('link', { name: 'Return to account' }).click();
  await page.waitForURL((url) => url.pathname === '/account');
  await expect(card.getByTestId('subscription-status')).toHaveText('Active');
  await expect(card.getByTestId('subscription-details')).toContainText('Next Billing Date');
  await expect(card.getByRole('button', { name: 'Cancel Subscription' })).toBeVisible();

  // Subscribed: pricing shows Premium as the current plan.
  await page.goto('/pricing');
  await expect(page.getByRole('article', { name: 'Premium' }).getByRole('button', { name: 'Current Plan' })).toBeDisabled();
  expect(stripeJs).toEqual([]);
});

test('a priced course at the free level shows a member the Buy button, not its lessons, until they buy it', async ({ page }) => {
  test.setTimeout(90_000);
  const { service, close } = await siteContent();
  let slug: string;
  try {
    const course = await service.create(
      'course',
      makeCourseInput({
        title: 'Sold Not Given Course',
        accessLevel: 'free',
        price: 39,
        sections: [
          {
            id: 'start',
            title: 'Getting started',
            lessons: [{ id: 'first', title: 'First lesson', content: 'Only buyers read this lesson.', media: [], downloadables: [] }],
          },
        ],
      }),
    );
    slug = course.slug;
  } finally {
    await close();
  }
  await signedInMember(page, 'course-buyer');
  const lessonCalls: string[] = [];
  page.on('request', (request) => {
    if (request.url().includes(`/api/content/courses/${slug}/lessons/`)) lessonCalls.push(request.url());
  });
  await page.goto(`/courses/${slug}`);
  const offer = page.getByTestId('purchase-offer');
  await expect(offer.getByRole('button', { name: 'Buy for $39.00' })).toBeVisible();
  await expect(offer).toContainText('Buy this course');
  await expect(page.getByText('One-time purchase')).toBeVisible();
  await page.getByRole('tab', { name: 'Current Lesson' }).click();
  await expect(page.getByTestId('lesson-sold-only')).toBeVisible();
  await expect(page.getByTestId('gate-card')).toHaveCount(0);
  expect(lessonCalls).toEqual([]);
  expect(await seriousViolations(page), 'priced course offer').toEqual([]);

  await offer.getByRole('button', { name: 'Buy for $39.00' }).click();
  await page.waitForURL((url) => url.pathname === '/billing/test-checkout');
  await payWith(page, '4242 4242 4242 4242');
  await page.waitForURL((url) => url.pathname === '/payment/confirmation');
  await expect(page.getByTestId('purchased-item')).toContainText('You bought Sold Not Given Course');

  await page.goto(`/courses/${slug}?lesson=first`);
  await expect(page.getByText('Only buyers read this lesson.')).toBeVisible();
  await expect(page.getByTestId('purchase-offer')).toHaveCount(0);

  // The account page says loudly that payments run in test mode here.
  await page.goto('/account');
  await expect(page.getByRole('note', { name: 'Test mode' })).toContainText('no real card is charged');
  expect(await seriousViolations(page), 'account in test mode').toEqual([]);
});

test('a member buys a priced market item and downloads it', async ({ page }) => {
  test.setTimeout(60_000);
  await signedInMember(page, 'buyer');
  await page.goto(PURCHASE_ONLY_ITEM.path);
  const offer = page.getByTestId('purchase-offer');
  await expect(page.getByRole('button', { name: 'Download', exact: true })).toHaveCount(0);
  expect(await seriousViolations(page), 'purchase offer').toEqual([]);
  await offer.getByRole('button', { name: `Buy for ${PURCHASE_ONLY_ITEM.price}` }).click();

  await page.waitForURL((url) => url.pathname === '/billing/test-checkout');
  await expect(page.getByTestId('checkout-product')).toHaveText(PURCHASE_ONLY_ITEM.title);
  await expect(page.getByTestId('checkout-amount')).toHaveText(PURCHASE_ONLY_ITEM.price);
  await payWith(page, '4242 4242 4242 4242');

  await page.waitForURL((url) => url.pathname === '/payment/confirmation');
  const bought = page.getByTestId('purchased-item');
  await expect(bought).toContainText(`You bought ${PURCHASE_ONLY_ITEM.title}`);
  await expect(page.getByTestId('new-access-level')).toHaveText('Free');
  await bought.getByRole('link', { name: PURCHASE_ONLY_ITEM.title }).click();

  await page.waitForURL((url) => url.pathname === PURCHASE_ONLY_ITEM.path);
  await expect(page.getByText('You bought this item.')).toBeVisible();
  const download = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Download', exact: true }).click();
  expect((await download).suggestedFilename()).toMatch(/\.zip$/);

  await page.goto('/account');
  const purchases = page.getByRole('region', { name: 'Purchases' });
  await expect(purchases.getByRole('link', { name: PURCHASE_ONLY_ITEM.title })).toHaveAttribute('href', PURCHASE_ONLY_ITEM.path);
  await expect(purchases).toContainText(PURCHASE_ONLY_ITEM.price);
});

test("a checkout that cannot start shows the spec's error above the button and returns to idle", async ({ page }) => {
  await signedInMember(page, 'checkout-fails');
  await page.route('**/api/payments/stripe/create-session', (route) =>
    route.fulfill({
      status: 503,
      contentType: 'application/json',
      body: JSON.stringify({ error: { code: 'unavailable', message: 'Down' } }),
    }),
  );
  await page.goto('/pricing');
  await page.getByRole('article', { name: 'Subscriber' }).getByRole('button', { name: 'Subscribe' }).click();
  const panel = page.getByRole('region', { name: 'Complete Your Subscription' });
  const button = panel.getByRole('button', { name: 'Subscribe to Subscriber' });
  await button.click();
  await expect(panel).toContainText('Failed to initiate checkout. Please try again.');
  await expect(button).toBeEnabled();
  expect(new URL(page.url()).pathname).toBe('/pricing');
  expect(await seriousViolations(page), 'pricing with the checkout error').toEqual([]);
});

test("the account's subscription card shows the spec's load, cancel and portal failures", async ({ page }) => {
  await signedInMember(page, 'card-failures');
  // Starting a checkout (and leaving it) gives the member a customer at the provider, so the card asks for a subscription.
  await page.goto('/pricing');
  await page.getByRole('article', { name: 'Subscriber' }).getByRole('button', { name: 'Subscribe' }).click();
  await page.getByRole('region', { name: 'Complete Your Subscription' }).getByRole('button', { name: 'Subscribe to Subscriber' }).click();
  await page.waitForURL((url) => url.pathname === '/billing/test-checkout');

  const failing = {
    status: 503,
    contentType: 'application/json',
    body: JSON.stringify({ error: { code: 'unavailable', message: 'Down' } }),
  };
  await page.route('**/api/payments/stripe/subscriptions/*', (route) => route.fulfill(failing));
  await page.goto('/account');
  const card = page.getByRole('region', { name: 'Subscription' });
  await expect(card.getByRole('heading', { name: 'Error Loading Subscription' })).toBeVisible();
  await expect(card).toContainText('Failed to load subscription information.');
  await expect(card.getByRole('button', { name: 'Retry' })).toBeVisible();

  // A subscription that loads, then a cancel and a portal session that fail.
  await page.unroute('**/api/payments/stripe/subscriptions/*');
  const subscription = {
    subscriptionId: 'sub_card_failures',
    status: 'active',
    cancelAtPeriodEnd: false,
    currentPeriodEnd: new Date(Date.now() + 20 * 86_400_000).toISOString(),
    plan: { name: 'Subscriber', amount: 999, interval: 'month' },
  };
  await page.route('**/api/payments/stripe/subscriptions/*', (route) =>
    route.fulfill({ status: 200, contentType: 'application/json', body: JSON.stringify(subscription) }),
  );
  await page.route('**/api/payments/stripe/subscriptions/*/cancel', (route) => route.fulfill(failing));
  await page.route('**/api/payments/stripe/create-portal-session', (route) => route.fulfill(failing));
  await card.getByRole('button', { name: 'Retry' }).click();
  await expect(card.getByTestId('subscription-status')).toHaveText('Active');
  await card.getByRole('button', { name: 'Cancel Subscription' }).click();
  await page.getByRole('dialog', { name: 'Cancel your Subscriber plan?' }).getByRole('button', { name: 'Yes, cancel' }).click();
  await expect(card).toContainText('Failed to cancel subscription. Please try again.');
  await expect(card.getByRole('button', { name: 'Cancel Subscription' })).toBeEnabled();
  await card.getByRole('button', { name: 'Manage Subscription' }).click();
  await expect(card).toContainText('Failed to open subscription management portal. Please try again.');
  await expect(card.getByRole('button', { name: 'Manage Subscription' })).toBeEnabled();
  expect(new URL(page.url()).pathname).toBe('/account');
  expect(await seriousViolations(page), 'account with a card error').toEqual([]);
});

test('a visitor who is not signed in goes through sign-in to buy a priced item', async ({ page }) => {
  await page.goto(PURCHASE_ONLY_ITEM.path);
  await page.getByRole('button', { name: `Buy for ${PURCHASE_ONLY_ITEM.price}` }).click();
  await page.waitForURL((url) => url.pathname === '/signin');
  expect(new URL(page.url()).searchParams.get('redirect')).toBe(PURCHASE_ONLY_ITEM.path);
});

/** What create-session answers when the server runs Stripe's embedded Checkout (STRIPE_CHECKOUT_UI=embedded). */
async function answerEmbeddedCheckout(page: Page): Promise<void> {
  await page.route('**/api/payments/stripe/create-session', (route) =>
    route.fulfill({
      contentType: 'application/json',
      body: JSON.stringify({ sessionId: 'cs_test_embedded', clientSecret: 'cs_test_embedded_secret_e2e', publishableKey: 'pk_test_e2e' }),
    }),
  );
}

test("Stripe's embedded Checkout: blocked by this build's CSP, Stripe.js never runs and the spec's error shows", async ({ page }) => {
  await signedInMember(page, 'embedded-blocked');
  await answerEmbeddedCheckout(page);
  let served = false;
  await page.route('https://js.stripe.com/**', (route) => {
    served = true;
    return route.fulfill({ contentType: 'text/javascript', body: 'window.__stripeRan = true;' });
  });
  await page.goto('/pricing');
  await page.getByRole('article', { name: 'Subscriber' }).getByRole('button', { name: 'Subscribe' }).click();
  const panel = page.getByRole('region', { name: 'Complete Your Subscription' });
  await panel.getByRole('button', { name: 'Subscribe to Subscriber' }).click();
  await expect(panel).toContainText('Failed to initiate checkout. Please try again.');
  await expect(panel.getByRole('button', { name: 'Subscribe to Subscriber' })).toBeEnabled();
  expect(served).toBe(false); // the page's CSP allows scripts from our origin only
  expect(await page.evaluate(() => 'Stripe' in window || '__stripeRan' in window)).toBe(false);
});

test.describe("Stripe's embedded Checkout where the build allows Stripe.js", () => {
  // A build with STRIPE_CHECKOUT_UI=embedded adds js.stripe.com to script-src; here the CSP is bypassed instead.
  test.use({ bypassCSP: true });

  test('opens in a dialog on the page with the session, and closing it returns the button to idle', async ({ page }) => {
    await signedInMember(page, 'embedded-checkout');
    await answerEmbeddedCheckout(page);
    // Stripe.js stands in for Stripe's script: createEmbeddedCheckoutPage mounts a marker with what it was given.
    await page.route('https://js.stripe.com/**', (route) =>
      route.fulfill({
        contentType: 'text/javascript',
        body: `window.Stripe = Object.assign(function (key) {
          return {
            _registerWrapper: function () {},
            createEmbeddedCheckoutPage: function (options) {
              return Promise.resolve({
                mount: function (el) { el.insertAdjacentHTML('beforeend', '<p data-testid="stripe-mounted">' + key + ' ' + options.clientSecret + '</p>'); },
                destroy: function () { window.__checkoutDestroyed = true; },
              });
            },
          };
        }, { version: 'clover' });`,
      }),
    );
    await page.goto('/market/social-media-content-pack');
    await page.getByRole('button', { name: 'Buy for $24.00' }).click();
    const dialog = page.getByRole('dialog', { name: 'Checkout' });
    await expect(dialog.getByTestId('stripe-mounted')).toHaveText('pk_test_e2e cs_test_embedded_secret_e2e');
    expect(new URL(page.url()).pathname).toBe('/market/social-media-content-pack');
    await dialog.getByRole('button', { name: 'Close' }).click();
    await expect(dialog).toHaveCount(0);
    // A closed dialog leaves the accessibility tree at once; the checkout is destroyed a task later.
    await expect.poll(() => page.evaluate(() => (window as { __checkoutDestroyed?: boolean }).__checkoutDestroyed)).toBe(true);
    await expect(page.getByRole('button', { name: 'Buy for $24.00' })).toBeEnabled();
  });
});
