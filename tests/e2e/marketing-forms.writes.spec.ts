/**
 * The newsletter form (footer) and the contact form against the real API. The success paths write
 * to the site database (a pending subscription, a contact message), so this file runs in the
 * "writes" project. The API limits each address and IP, so real submissions are few and use fresh
 * addresses; failure answers the browser cannot provoke on demand (500, 429) are forced with
 * page.route, following the API's error contract.
 */
import { expect, test, type Page } from '@playwright/test';

const unique = (name: string) => `${name}+${Date.now()}${Math.floor(Math.random() * 1e6)}@example.com`;
const newsletter = (page: Page) => page.getByRole('form', { name: 'Newsletter' });
/** A toast with this title, in the assertive (destructive) or polite live region. */
const toastTitled = (page: Page, live: 'assertive' | 'polite', title: string) =>
  page.locator(`#toast-region [aria-live="${live}"] [data-toast]`).filter({ hasText: title });

test.describe('newsletter form', () => {
  test('rejects an empty or @-less email with the Error toast and keeps what was typed', async ({ page }) => {
    let calls = 0;
    await page.route('**/api/newsletter/subscribe', (route) => {
      calls += 1;
      return route.continue();
    });
    await page.goto('/about');
    await newsletter(page).getByRole('button', { name: 'Subscribe' }).click();
    const error = toastTitled(page, 'assertive', 'Error');
    await expect(error).toContainText('Please enter a valid email address');
    await newsletter(page).getByLabel('Email address').fill('owner.example.com');
    await newsletter(page).getByRole('button', { name: 'Subscribe' }).click();
    await newsletter(page).getByRole('button', { name: 'Subscribe' }).click();
    // Each try replaces the form's last message: errors never pile up over the form.
    await expect(error).toHaveCount(1);
    await expect(error).toContainText('Please enter a valid email address');
    const [toastBox, formBox] = [await error.boundingBox(), await newsletter(page).boundingBox()];
    expect(toastBox!.y >= formBox!.y + formBox!.height || toastBox!.x >= formBox!.x + formBox!.width).toBe(true);
    await expect(newsletter(page).getByLabel('Email address')).toHaveValue('owner.example.com');
    expect(calls).toBe(0);
  });

  test('carries a honeypot field people never see or reach', async ({ page }) => {
    await page.goto('/about');
    const trap = newsletter(page).locator('input[name="website"]');
    await expect(trap).toHaveAttribute('tabindex', '-1');
    await expect(trap).toHaveAttribute('autocomplete', 'off');
    await expect(trap).toHaveAttribute('aria-hidden', 'true');
    await expect(trap).not.toBeInViewport();
    await newsletter(page).getByLabel('Email address').focus();
    await page.keyboard.press('Tab');
    await expect(newsletter(page).getByRole('button', { name: 'Subscribe' })).toBeFocused();
  });

  test('subscribes: Success! toast, the email stored locally and the field cleared', async ({ page }) => {
    const email = unique('newsletter');
    let sent: unknown;
    page.on('request', (req) => {
      if (req.url().endsWith('/api/newsletter/subscribe')) sent = req.postDataJSON();
    });
    await page.goto('/faq');
    const input = newsletter(page).getByLabel('Email address');
    await input.fill(email);
    const answer = page.waitForResponse('**/api/newsletter/subscribe');
    await input.press('Enter');
    expect((await answer).status()).toBe(202);
    const success = toastTitled(page, 'polite', 'Success!');
    await expect(success).toContainText('Thank you for subscribing to our newsletter.');
    await expect(input).toHaveValue('');
    expect(sent).toEqual({ email, source: '/faq', website: '' });
    expect(await page.evaluate(() => localStorage.getItem('beacon.userEmail'))).toBe(email);
  });

  test('shows the invalid-email text when the server rejects the address (422)', async ({ page }) => {
    await page.goto('/about');
    await newsletter(page).getByLabel('Email address').fill('owner@nodot');
    const answer = page.waitForResponse('**/api/newsletter/subscribe');
    await newsletter(page).getByRole('button', { name: 'Subscribe' }).click();
    expect((await answer).status()).toBe(422);
    await expect(toastTitled(page, 'assertive', 'Error')).toContainText('Please enter a valid email address');
    await expect(newsletter(page).getByLabel('Email address')).toHaveValue('owner@nodot');
  });

  test('shows the server message on a failure and disables the button while sending', async ({ page }) => {
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    await page.route('**/api/newsletter/subscribe', async (route) => {
      await held;
      await route.fulfill({
        status: 500,
        json: { error: { code: 'internal', message: 'Something went wrong on our side. Please try again.' } },
      });
    });
    await page.goto('/about');
    await newsletter(page).getByLabel('Email address').fill('owner@example.com');
    const button = newsletter(page).getByRole('button', { name: 'Subscribe' });
    await button.click();
    await expect(button).toBeDisabled();
    release();
    await expect(toastTitled(page, 'assertive', 'Error')).toContainText('Something went wrong on our side. Please try again.');
    await expect(button).toBeEnabled();
    await expect(newsletter(page).getByLabel('Email address')).toHaveValue('owner@example.com');
  });
});

test.describe('contact form', () => {
  const field = (page: Page, label: string) => page.getByLabel(label, { exact: true });

  test('shows each problem next to its field before sending, and keeps the values', async ({ page }) => {
    let calls = 0;
    await page.route('**/api/contact', (route) => {
      calls += 1;
      return route.continue();
    });
    await page.goto('/contact');
    await field(page, 'Email').fill('dana@');
    await page.getByRole('button', { name: 'Send Message' }).click();
    await expect(field(page, 'Name')).toHaveAttribute('aria-invalid', 'true');
    await expect(field(page, 'Name')).toHaveAccessibleDescription('Please enter your name.');
    await expect(field(page, 'Email')).toHaveAccessibleDescription('Please enter a valid email address.');
    await expect(field(page, 'Subject')).toHaveAccessibleDescription('Please enter a subject.');
    await expect(field(page, 'Message')).toHaveAccessibleDescription('Please enter a message.');
    await expect(field(page, 'Name')).toBeFocused();
    await expect(field(page, 'Email')).toHaveValue('dana@');
    await field(page, 'Name').fill('Dana');
    await expect(field(page, 'Name')).not.toHaveAttribute('aria-invalid');
    expect(calls).toBe(0);
  });

  test('shows the server field errors (422) beside the fields', async ({ page }) => {
    await page.route('**/api/contact', (route) =>
      route.fulfill({
        status: 422,
        json: {
          error: {
            code: 'validation_failed',
            message: 'Some fields need attention.',
            fields: { email: ['This address cannot receive mail'], message: ['Message looks like spam'] },
          },
        },
      }),
    );
    await page.goto('/contact');
    await fillContact(page, 'Dana Whitfield');
    await page.getByRole('button', { name: 'Send Message' }).click();
    await expect(field(page, 'Email')).toHaveAccessibleDescription('This address cannot receive mail');
    await expect(field(page, 'Message')).toHaveAccessibleDescription('Message looks like spam');
    await expect(field(page, 'Name')).not.toHaveAttribute('aria-invalid');
    await expect(field(page, 'Subject')).toHaveValue('Local SEO for our bakery');
  });

  test('shows the rate-limit message (429) and keeps the form', async ({ page }) => {
    await page.route('**/api/contact', (route) =>
      route.fulfill({
        status: 429,
        json: { error: { code: 'rate_limited', message: 'Too many requests. Please try again in 10 minutes.' } },
      }),
    );
    await page.goto('/contact');
    await fillContact(page, 'Dana Whitfield');
    await page.getByRole('button', { name: 'Send Message' }).click();
    await expect(page.getByRole('form', { name: 'Send us a message' }).getByRole('alert')).toHaveText(
      'Too many requests. Please try again in 10 minutes.',
    );
    await expect(field(page, 'Message')).toHaveValue(/local search/);
  });

  test('sends a message, confirms it in place of the form, and offers another', async ({ page }) => {
    await page.goto('/contact');
    const email = unique('contact');
    await fillContact(page, '  Dana Whitfield ', email);
    const answer = page.waitForResponse('**/api/contact');
    await page.getByRole('button', { name: 'Send Message' }).click();
    const response = await answer;
    expect(response.status()).toBe(201);
    expect(response.request().postDataJSON()).toEqual({
      name: 'Dana Whitfield',
      email,
      subject: 'Local SEO for our bakery',
      message: 'We would like help with local search in Fells Point before the holidays.',
      website: '',
    });
    await expect(page.getByText('Thanks, Dana Whitfield! Your message is on its way. We reply within 24 hours.')).toBeVisible();
    await expect(page.getByRole('form', { name: 'Send us a message' })).toBeHidden();
    await page.getByRole('button', { name: 'Send another message' }).click();
    await expect(field(page, 'Name')).toBeFocused();
    await expect(field(page, 'Name')).toHaveValue('');
  });
});

test.describe('a submission cut by the network', () => {
  test('is sent again by itself under the same Idempotency-Key; the next submission has a key of its own', async ({ page }) => {
    const keys: (string | undefined)[] = [];
    await page.route('**/api/contact', (route) => {
      keys.push(route.request().headers()['idempotency-key']);
      // The first attempt never reaches the server (a connection cut); the retry does; the next
      // submission is answered here, so the suite sends one real message.
      if (keys.length === 1) return route.abort('failed');
      if (keys.length === 2) return route.continue();
      return route.fulfill({ status: 201, json: { status: 'received' } });
    });
    await page.goto('/contact');
    await fillContact(page, 'Dana Whitfield', unique('retry'));
    const answer = page.waitForResponse('**/api/contact');
    await page.getByRole('button', { name: 'Send Message' }).click();
    expect((await answer).status()).toBe(201);
    await expect(page.getByText('Thanks, Dana Whitfield! Your message is on its way. We reply within 24 hours.')).toBeVisible();
    expect(keys).toHaveLength(2);
    expect(keys[0]).toMatch(/^[0-9a-f]{32}$/);
    expect(keys[1]).toBe(keys[0]);

    await page.getByRole('button', { name: 'Send another message' }).click();
    await fillContact(page, 'Dana Whitfield');
    await page.getByRole('button', { name: 'Send Message' }).click();
    await expect(page.getByText('Thanks, Dana Whitfield! Your message is on its way. We reply within 24 hours.')).toBeVisible();
    expect(keys).toHaveLength(3);
    expect(keys[2]).toMatch(/^[0-9a-f]{32}$/);
    expect(keys[2]).not.toBe(keys[0]);
  });
});

async function fillContact(page: Page, name: string, email = 'dana@harborbakery.com') {
  await page.getByLabel('Name', { exact: true }).fill(name);
  await page.getByLabel('Email', { exact: true }).fill(email);
  await page.getByLabel('Subject', { exact: true }).fill('Local SEO for our bakery');
  await page.getByLabel('Message', { exact: true }).fill('We would like help with local search in Fells Point before the holidays.');
}
