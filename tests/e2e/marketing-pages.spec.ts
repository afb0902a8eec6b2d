/**
 * About, FAQ, pricing, contact details and the legal pages in Chromium, including the pricing
 * toggle maths, the subscription panel and a keyboard-only pass through the pricing page.
 */
import { expect, test, type Page } from '@playwright/test';

test('about tells the story (2018, over 100 businesses) and the four values', async ({ page }) => {
  await page.goto('/about');
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  const story = page.getByRole('region', { name: 'Our Story' });
  await expect(story).toContainText('founded in 2018');
  await expect(story).toContainText('over 100 businesses');
  const values = page.getByRole('region', { name: 'Our Values' }).getByRole('heading', { level: 3 });
  await expect(values).toHaveText(['Innovation', 'Transparency', 'Results-Driven', 'Collaboration']);
});

test.describe('FAQ', () => {
  const QUESTIONS = [
    'What services do you offer?',
    'How do you measure success?',
    'What industries do you work with?',
    'How long does it take to see results?',
    'Do you provide ongoing support?',
    'How do you stay current with digital marketing trends?',
    'What does your onboarding process look like?',
    'Do you offer custom packages?',
  ];

  test('lists eight questions and keeps only one open', async ({ page }) => {
    await page.goto('/faq');
    const items = page.locator('details[name="faq"]');
    await expect(items.locator('summary')).toHaveText(QUESTIONS);
    await expect(page.locator('details[open]')).toHaveCount(0);
    await items.nth(0).locator('summary').click();
    await expect(items.nth(0)).toHaveAttribute('open', '');
    await expect(items.nth(0).getByText(/three to five KPIs|six services/)).toBeVisible();
    await items.nth(3).locator('summary').click();
    await expect(items.nth(3)).toHaveAttribute('open', '');
    await expect(items.nth(3)).toContainText('within 3-6 months');
    await expect(items.nth(0)).not.toHaveAttribute('open');
    await expect(page.locator('details[name="faq"][open]')).toHaveCount(1);
    await items.nth(3).locator('summary').click();
    await expect(page.locator('details[name="faq"][open]')).toHaveCount(0);
  });

  test('opens with the keyboard and points to the contact page', async ({ page }) => {
    await page.goto('/faq');
    await page.locator('summary').first().focus();
    await page.keyboard.press('Enter');
    await expect(page.locator('details[name="faq"]').first()).toHaveAttribute('open', '');
    const still = page.getByRole('region', { name: 'Still Have Questions?' });
    await expect(still.getByRole('link', { name: 'Contact Us' })).toHaveAttribute('href', '/contact');
  });
});

test.describe('pricing', () => {
  const card = (page: Page, name: string) => page.getByRole('article', { name });
  const price = (page: Page, name: string) => card(page, name).locator('[data-price]');
  const choose = (page: Page, interval: 'Monthly' | 'Yearly') => page.locator('label', { hasText: interval }).click();

  test('shows the three tiers with monthly prices, Most Popular on Subscriber and the right buttons', async ({ page }) => {
    await page.goto('/pricing');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Choose Your Plan');
    await expect(page.getByRole('radio', { name: 'Monthly' })).toBeChecked();
    await expect(page.getByRole('radio', { name: 'Yearly Save 20%' })).not.toBeChecked();
    await expect(page.getByText('Save 20%')).toBeVisible();
    await expect(price(page, 'Free')).toHaveText('$0.00');
    await expect(price(page, 'Subscriber')).toHaveText('$9.99');
    await expect(price(page, 'Premium')).toHaveText('$19.99');
    await expect(card(page, 'Subscriber').getByText('Most Popular')).toBeVisible();
    await expect(page.getByText('Most Popular')).toHaveCount(1);
    await expect(card(page, 'Free').getByRole('link', { name: 'Get Started' })).toHaveAttribute('href', '/signup');
    await expect(card(page, 'Free').getByRole('button', { name: 'Subscribe' })).toHaveCount(0);
    await expect(card(page, 'Subscriber').getByRole('button', { name: 'Subscribe' })).toBeVisible();
    await expect(card(page, 'Premium').getByRole('button', { name: 'Subscribe' })).toBeVisible();
  });

  test('yearly prices are monthly x 12 x 0.8 with two decimals', async ({ page }) => {
    await page.goto('/pricing');
    await choose(page, 'Yearly');
    await expect(page.getByRole('radio', { name: /Yearly/ })).toBeChecked();
    await expect(price(page, 'Subscriber')).toHaveText('$95.90');
    await expect(price(page, 'Premium')).toHaveText('$191.90');
    await expect(price(page, 'Free')).toHaveText('$0.00');
    await expect(card(page, 'Premium').locator('[data-interval]')).toHaveText('/year');
    await choose(page, 'Monthly');
    await expect(price(page, 'Subscriber')).toHaveText('$9.99');
    await expect(card(page, 'Premium').locator('[data-interval]')).toHaveText('/month');
  });

  test('the Free card reads as free in both cadences: $0.00, free forever, never per month or per year', async ({ page }) => {
    await page.goto('/pricing');
    for (const interval of ['Yearly', 'Monthly', 'Yearly'] as const) {
      await choose(page, interval);
      await expect(price(page, 'Premium')).toHaveText(interval === 'Yearly' ? '$191.90' : '$19.99');
      await expect(price(page, 'Free')).toHaveText('$0.00');
      await expect(card(page, 'Free')).toContainText('Free forever, no card needed');
      await expect(card(page, 'Free')).not.toContainText('/year');
      await expect(card(page, 'Free')).not.toContainText('/month');
    }
  });

  test('choosing a paid tier shows Complete Your Subscription, which sends a visitor to sign in', async ({ page }) => {
    await page.goto('/pricing');
    const panel = page.getByRole('region', { name: 'Complete Your Subscription' });
    await expect(panel).toBeHidden();
    await card(page, 'Premium').getByRole('button', { name: 'Subscribe' }).click();
    await expect(panel).toBeVisible();
    await expect(panel).toBeFocused();
    await expect(panel).toContainText('$19.99/month');
    // A space between the sign-in note and the next sentence (the build once joined them: 'first.Payments').
    await expect(panel).toContainText('You will sign in or create an account first. Payments are processed securely');
    await choose(page, 'Yearly');
    await expect(panel).toContainText('$191.90/year');
    await card(page, 'Subscriber').getByRole('button', { name: 'Subscribe' }).click();
    const button = panel.getByRole('button', { name: 'Subscribe to Subscriber' });
    await expect(button).toBeVisible();
    await button.click();
    await page.waitForURL(/\/signin\?/);
    const url = new URL(page.url());
    expect(url.pathname).toBe('/signin');
    expect(url.searchParams.get('redirect')).toBe('/pricing?plan=price_subscriber_yearly');
  });

  test('keyboard only: switch to yearly and choose a plan', async ({ page }) => {
    await page.goto('/pricing');
    await page.getByRole('radio', { name: 'Monthly' }).focus();
    await page.keyboard.press('ArrowRight');
    await expect(page.getByRole('radio', { name: /Yearly/ })).toBeChecked();
    await expect(price(page, 'Subscriber')).toHaveText('$95.90');
    await page.keyboard.press('Tab');
    await expect(card(page, 'Free').getByRole('link', { name: 'Get Started' })).toBeFocused();
    await page.keyboard.press('Tab');
    await expect(card(page, 'Subscriber').getByRole('button', { name: 'Subscribe' })).toBeFocused();
    await page.keyboard.press('Tab');
    await page.keyboard.press('Enter');
    const panel = page.getByRole('region', { name: 'Complete Your Subscription' });
    await expect(panel).toBeFocused();
    await expect(panel.getByRole('button', { name: 'Subscribe to Premium' })).toBeVisible();
    await page.keyboard.press('Tab');
    await expect(panel.getByRole('button', { name: 'Subscribe to Premium' })).toBeFocused();
  });

  test('answers the four pricing questions', async ({ page }) => {
    await page.goto('/pricing');
    const questions = page.locator('details[name="pricing-faq"] summary');
    await expect(questions).toHaveCount(4);
    const details = page.locator('details[name="pricing-faq"]');
    const expectations = ['end of the period', 'account settings', 'Free tier', 'credit'];
    for (const [i, text] of expectations.entries()) {
      await questions.nth(i).click();
      await expect(details.nth(i)).toContainText(text);
    }
  });
});

test('contact shows the email, phone, location, reply time, hours and social links', async ({ page }) => {
  await page.goto('/contact');
  const info = page.getByRole('region', { name: 'Contact information' });
  await expect(info.getByRole('link', { name: 'hello@beacongrowth.co' })).toHaveAttribute('href', 'mailto:hello@beacongrowth.co');
  await expect(info.getByRole('link', { name: '+1 (410) 555-0142' })).toHaveAttribute('href', 'tel:+14105550142');
  await expect(info).toContainText('Baltimore, Maryland');
  await expect(info).toContainText('We reply within 24 hours');
  await expect(info).toContainText('Monday-Friday 9am-5pm EST');
  await expect(info.getByRole('list', { name: 'Beacon Growth on social media' }).getByRole('link')).toHaveCount(4);
  for (const label of ['Name', 'Email', 'Subject', 'Message']) await expect(page.getByLabel(label, { exact: true })).toBeVisible();
});

test('the legal pages cover storage, payments, email, retention, deletion and contact', async ({ page }) => {
  await page.goto('/privacy-policy');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Privacy Policy');
  const privacy = page.getByRole('main');
  for (const text of [
    'local storage',
    'beacon.userEmail',
    'beacon.userAccessLevel',
    'Stripe',
    'Email',
    'How long we keep data',
    'deleting your data',
    'hello@beacongrowth.co',
  ]) {
    await expect(privacy, text).toContainText(text);
  }
  await page.goto('/terms-of-service');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Terms of Service');
  for (const text of ['Cancellation', 'Stripe', 'Maryland', 'hello@beacongrowth.co'])
    await expect(page.getByRole('main'), text).toContainText(text);
});
