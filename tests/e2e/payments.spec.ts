/**
 * Payment pages that need no account: the confirmation page without a session id (the spec's
 * error, and no call), the test checkout and portal without a valid session, and axe on each.
 */
import { expect, test } from '@playwright/test';
import { seriousViolations } from './axe.ts';

test('the confirmation page without session_id says so and asks the server nothing', async ({ page }) => {
  const calls: string[] = [];
  page.on('request', (request) => {
    if (request.url().includes('/api/payments/')) calls.push(request.url());
  });
  await page.goto('/payment/confirmation?payment_status=success');
  await expect(page.getByText('No payment information found. Please try again.')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Return to Home' })).toBeEnabled();
  await expect(page.locator('meta[name="robots"]')).toHaveAttribute('content', 'noindex');
  expect(await seriousViolations(page)).toEqual([]);
  await page.getByRole('button', { name: 'Return to Home' }).click();
  await page.waitForURL((url) => url.pathname === '/');
  expect(calls).toEqual([]);
});

test('a visitor confirming a payment is told it failed and offered sign-in', async ({ page }) => {
  await page.goto('/payment/confirmation?session_id=cs_test_0123456789abcdef&payment_status=success');
  await expect(page.getByText('There was a problem confirming your payment. Please contact support.')).toBeVisible();
  await expect(page.getByRole('link', { name: 'Sign in', exact: true })).toHaveAttribute(
    'href',
    /^\/signin\?redirect=%2Fpayment%2Fconfirmation/,
  );
});

for (const [path, message] of [
  ['/billing/test-checkout', 'This checkout link is not valid.'],
  ['/billing/test-checkout?session=cs_test_0000000000000000', 'This checkout link is not valid.'],
  ['/billing/test-portal?session=bps_test_0000000000000000', 'This portal link is not valid.'],
] as const) {
  test(`${path} is a marked, unindexed test page that refuses an unknown session`, async ({ page }) => {
    await page.goto(path);
    await expect(page.getByRole('note', { name: 'Test mode' })).toContainText('4242 4242 4242 4242');
    await expect(page.getByRole('note', { name: 'Test mode' })).toContainText('4000 0000 0000 0002');
    await expect(page.getByText(message)).toBeVisible();
    await expect(page.locator('meta[name="robots"]')).toHaveAttribute('content', 'noindex');
    expect(await seriousViolations(page)).toEqual([]);
  });
}

test('robots.txt keeps the payment and test billing pages out of search', async ({ request }) => {
  const text = await (await request.get('/robots.txt')).text();
  expect(text).toContain('Disallow: /payment/');
  expect(text).toContain('Disallow: /billing/');
});
