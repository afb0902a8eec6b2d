/**
 * Accounts in the browser: sign up, confirm from the mailed link, sign in (and the error toast),
 * and the signed-in visitor sent on from /signin and /signup; the return target through every hop
 * (sign-up, the mailed link, the reset) with the message the target page shows; a used link and the
 * mail's code; strangers' wrong passwords, past which the page offers a mailed code instead of a lock. Writes users, so it
 * runs in "writes".
 */
import { expect, test, type Page } from '@playwright/test';
import { desc, eq } from 'drizzle-orm';
import { loadConfig } from '../../functions/config.ts';
import { openDatabase } from '../../functions/platform/db/client.ts';
import { emails } from '../../functions/email/tables.ts';
import { quietLogger } from '../support/fixtures.ts';
import { seriousViolations } from './axe.ts';
import { testClient } from './members.ts';
import { toastTitled } from './support.ts';

const unique = (name: string) => `${name}.${Date.now()}${Math.floor(Math.random() * 1e6)}@example.com`;
const PASSWORD = 'browser journey pass';
/** The sign-in or sign-up form (the footer has a newsletter form with an email field too). */
const form = (page: Page) => page.locator('main form[aria-label="Sign in"], main form[aria-label="Sign up"]');
/** The link and the code of the newest mail to `to` (of a template, if given), read from the site database's outbox. */
async function mailed(to: string, template?: string): Promise<{ link: string; code: string }> {
  const database = await openDatabase({ kind: 'postgres', url: process.env.TEST_SITE_DB_URL!, poolSize: 1 }, quietLogger());
  try {
    for (let i = 0; i < 50; i++) {
      const [mail] = await database.db.select().from(emails).where(eq(emails.to, to)).orderBy(desc(emails.createdAt)).limit(1);
      const link = mail && (!template || mail.template === template) && /https?:\/\/\S+\/auth\/v1\/verify\?\S+/.exec(mail.bodyText)?.[0];
      if (link) return { link, code: /code: (\d{6})/.exec(mail.bodyText)?.[1] ?? '' };
      await new Promise((r) => setTimeout(r, 100));
    }
    throw new Error(`no mail to ${to}`);
  } finally {
    await database.close();
  }
}
const mailedLink = async (to: string, template?: string) => (await mailed(to, template)).link;

test('sign up, confirm from the mail, then sign in; wrong passwords get the Authentication error toast', async ({ page }) => {
  const email = unique('journey');
  await page.goto('/signup');
  await form(page).getByLabel('Email').fill(email);
  await form(page).getByLabel('Password').fill(PASSWORD);
  await form(page).getByRole('button', { name: 'Sign Up' }).click();
  await expect(toastTitled(page, 'Account created')).toContainText('Please check your email to confirm your account.');

  // Not confirmed yet: sign-in is refused with the service's message.
  await page.goto('/signin');
  await form(page).getByLabel('Email').fill(email);
  await form(page).getByLabel('Password').fill(PASSWORD);
  await form(page).getByRole('button', { name: 'Sign In' }).click();
  await expect(toastTitled(page, 'Authentication error')).toContainText('Email not confirmed');

  // The mailed link signs the visitor in and lands on the site.
  await page.goto(await mailedLink(email));
  await page.waitForURL((url) => url.pathname === '/' && !url.hash, { timeout: 15_000 });
  const stored = await page.evaluate(() => Object.keys(localStorage).find((k) => k.startsWith('sb-') && k.endsWith('-auth-token')));
  expect(stored).toBeTruthy();
  await expect.poll(() => page.evaluate(() => localStorage.getItem('beacon.userAccessLevel'))).toBe('free');

  // Signed in: /signin sends the visitor on.
  await page.goto('/signin?redirect=%2Fpricing');
  await page.waitForURL('**/pricing');

  // A fresh browser: wrong password, then the right one with a redirect back.
  await page.context().clearCookies();
  await page.evaluate(() => localStorage.clear());
  await page.goto('/signin?redirect=%2Fblog');
  await form(page).getByLabel('Email').fill(email);
  await form(page).getByLabel('Password').fill('not the password');
  await form(page).getByRole('button', { name: 'Sign In' }).click();
  await expect(toastTitled(page, 'Authentication error')).toContainText('Invalid login credentials');
  await form(page).getByLabel('Password').fill(PASSWORD);
  await form(page).getByRole('button', { name: 'Sign In' }).click();
  await page.waitForURL('**/blog');
});

test('a redirect parameter that leaves the site is ignored', async ({ page }) => {
  await signedUp(page, 'redirect');
  await page.goto('/signin?redirect=%2F%2Fevil.example%2F');
  await page.waitForURL((url) => url.pathname === '/' && url.host !== 'evil.example');
});

/** A confirmed, signed-in visitor (signed up in this browser and confirmed from the mail). */
async function signedUp(page: Page, name: string): Promise<string> {
  const email = unique(name);
  await page.goto('/signup');
  await form(page).getByLabel('Email').fill(email);
  await form(page).getByLabel('Password').fill(PASSWORD);
  await form(page).getByRole('button', { name: 'Sign Up' }).click();
  await expect(toastTitled(page, 'Account created')).toBeVisible();
  await page.goto(await mailedLink(email));
  await page.waitForURL((url) => url.pathname === '/' && !url.hash, { timeout: 15_000 });
  return email;
}

test('the account page: header, name, language and newsletter, sign out, and /account then sends visitors to /signin', async ({ page }) => {
  const email = await signedUp(page, 'account');
  // On a phone the header keeps to one line, whose height the page reserves before it draws: a long
  // address is cut with an ellipsis inside the screen, and carries the whole address in its title.
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto('/account');
  await expect(page.getByRole('heading', { level: 1, name: 'My Account' })).toBeVisible();
  const address = page.getByRole('main').getByText(email);
  await expect(address).toBeVisible();
  await expect(address).toHaveAttribute('title', email);
  expect(await address.evaluate((el) => el.getBoundingClientRect().right <= window.innerWidth)).toBe(true);
  await page.setViewportSize({ width: 1280, height: 800 });
  await expect(page.getByText('No Active Subscription')).toBeVisible();
  await expect(page.getByRole('link', { name: 'Upgrade Plan' })).toHaveAttribute('href', '/pricing');

  await page.getByRole('tab', { name: 'Profile' }).click();
  const save = page.getByRole('button', { name: 'Save Changes' });
  await expect(save).toBeDisabled();
  await page.getByLabel('Name').fill('Grace Hopper');
  await save.click();
  await expect(page.getByText('Profile updated successfully!')).toBeVisible();
  await expect(page.getByRole('heading', { level: 1, name: 'Grace Hopper' })).toBeVisible();
  await expect(page.getByText('To change your email, please contact support.')).toBeVisible();

  await page.getByRole('tab', { name: 'Settings' }).click();
  await page.getByLabel('Language').selectOption('fr');
  // A free plan has no newsletter until the member asks for it.
  const newsletter = page.getByLabel("Email me the members' newsletter");
  await expect(newsletter).not.toBeChecked();
  await newsletter.check();
  await page.getByRole('button', { name: 'Save Settings' }).click();
  await expect(toastTitled(page, 'Settings saved')).toBeVisible();
  await page.reload();
  await page.getByRole('tab', { name: 'Settings' }).click();
  await expect(page.getByLabel('Language')).toHaveValue('fr');
  await expect(newsletter).toBeChecked();
  // Turned off again: the Newsletter tab's test finds Free members reaching nobody, as a new site has them.
  await newsletter.uncheck();
  const saved = page.waitForResponse((res) => res.request().method() === 'PATCH' && new URL(res.url()).pathname === '/api/users/me');
  await page.getByRole('button', { name: 'Save Settings' }).click();
  expect((await saved).status()).toBe(200);

  await page.getByRole('main').getByRole('button', { name: 'Sign Out' }).click();
  await page.waitForURL((url) => url.pathname === '/');
  expect(await page.evaluate(() => localStorage.getItem('beacon.userAccessLevel'))).toBeNull();
  await page.goto('/account');
  await page.waitForURL('**/signin?redirect=%2Faccount');
});

test('deleting the account really deletes it: the member can no longer sign in', async ({ page }) => {
  const email = await signedUp(page, 'delete');
  await page.goto('/account');
  await page.getByRole('tab', { name: 'Settings' }).click();
  await page.getByRole('button', { name: 'Delete Account' }).click();
  await page.getByRole('button', { name: 'Delete my account' }).click();
  await page.waitForURL((url) => url.pathname === '/');
  await page.goto('/signin');
  await form(page).getByLabel('Email').fill(email);
  await form(page).getByLabel('Password').fill(PASSWORD);
  await form(page).getByRole('button', { name: 'Sign In' }).click();
  await expect(toastTitled(page, 'Authentication error')).toContainText('Invalid login credentials');
});

test('the header shows the signed-in state without an island, and signs out', async ({ page }) => {
  const header = page.locator('#site-header');
  await page.goto('/about');
  // Sign In comes back to the page it was clicked on.
  await expect(header.getByRole('link', { name: 'Sign In' }).first()).toHaveAttribute('href', '/signin?redirect=%2Fabout');
  await expect(header.getByRole('button', { name: 'Sign Out' })).toHaveCount(0);
  await signedUp(page, 'header');
  await page.goto('/about');
  await expect(header.getByRole('link', { name: 'Account' }).first()).toHaveAttribute('href', '/account');
  await header.getByRole('button', { name: 'Sign Out' }).first().click();
  await page.waitForURL((url) => url.pathname === '/');
  await expect(header.getByRole('link', { name: 'Sign In' }).first()).toBeVisible();
  await page.goto('/account');
  await page.waitForURL('**/signin?redirect=%2Faccount');
});

test('a plan chosen on the pricing page survives sign-up and its mailed link, and sign-in', async ({ page }) => {
  const email = unique('pricing');
  const panel = page.locator('#checkout-panel');
  const choosePremiumYearly = async () => {
    await page.goto('/pricing');
    await page.getByText('Yearly').click();
    await page.getByRole('button', { name: 'Subscribe', exact: true }).nth(1).click();
    await expect(panel).toContainText('Premium');
    await panel.getByRole('button', { name: /Subscribe to/ }).click();
    await page.waitForURL((url) => url.pathname === '/signin');
  };
  const backOnThePlan = async () => {
    await page.waitForURL((url) => url.pathname === '/pricing' && url.searchParams.get('plan') === 'price_premium_yearly');
    await expect(panel.getByRole('button', { name: 'Subscribe to Premium' })).toBeVisible();
    await expect(page.getByRole('radio', { name: /Yearly/ })).toBeChecked();
  };

  // A new visitor: from sign-in to sign-up, then the mailed confirmation link, and back on the plan.
  await choosePremiumYearly();
  await page.getByRole('link', { name: 'Sign up' }).click();
  await page.waitForURL((url) => url.pathname === '/signup' && url.searchParams.get('redirect') === '/pricing?plan=price_premium_yearly');
  await form(page).getByLabel('Email').fill(email);
  await form(page).getByLabel('Password').fill(PASSWORD);
  await form(page).getByRole('button', { name: 'Sign Up' }).click();
  await expect(toastTitled(page, 'Account created')).toBeVisible();
  await page.goto(await mailedLink(email));
  await backOnThePlan();
  await expect(toastTitled(page, 'Email confirmed')).toBeVisible();
  // Signed in, Get Started leads to the account, not to a sign-up page that would send the member home.
  await expect(page.locator('[data-get-started]')).toHaveAttribute('href', '/account');

  // Signed out again: the same round trip through the sign-in form.
  await page.evaluate(() => localStorage.clear());
  await choosePremiumYearly();
  await form(page).getByLabel('Email').fill(email);
  await form(page).getByLabel('Password').fill(PASSWORD);
  await form(page).getByRole('button', { name: 'Sign In' }).click();
  await backOnThePlan();
});

test('forgot password: the mailed link opens the reset page, and the new password works', async ({ page }) => {
  const email = await signedUp(page, 'forgot');
  await page.evaluate(() => localStorage.clear());
  await page.goto('/signin');
  await page.getByRole('link', { name: 'Forgot your password?' }).click();
  await page.getByRole('form', { name: 'Reset password' }).getByLabel('Email').fill(email);
  await page.getByRole('button', { name: 'Send reset link' }).click();
  await expect(toastTitled(page, 'Check your email')).toBeVisible();
  const link = await mailedLink(email, 'auth-recovery');
  await page.goto(link);
  await page.waitForURL((url) => url.pathname === '/reset-password');
  await page.getByLabel('New password', { exact: true }).fill('a new browser pass');
  await page.getByRole('button', { name: 'Set new password' }).click();
  await page.waitForURL((url) => url.pathname === '/account');
  // Said on the page the visitor lands on, not on the one that left.
  await expect(toastTitled(page, 'Password updated')).toBeVisible();
  // Let the account page settle first: with the session gone mid-load it would send the visitor to /signin itself.
  await expect(page.getByRole('heading', { level: 1, name: 'My Account' })).toBeVisible();
  await page.evaluate(() => localStorage.clear());
  await page.goto('/signin');
  await form(page).getByLabel('Email').fill(email);
  await form(page).getByLabel('Password').fill('a new browser pass');
  await form(page).getByRole('button', { name: 'Sign In' }).click();
  await page.waitForURL((url) => url.pathname === '/');
});

test('sign in by an emailed link', async ({ page }) => {
  const email = await signedUp(page, 'link');
  await page.evaluate(() => localStorage.clear());
  await page.goto('/signin?redirect=%2Fblog');
  await form(page).getByLabel('Email').fill(email);
  await form(page).getByRole('button', { name: 'Email me a sign-in link' }).click();
  await expect(toastTitled(page, 'Check your email')).toBeVisible();
  await page.goto(await mailedLink(email, 'auth-magic-link'));
  await page.waitForURL((url) => url.pathname === '/blog');
});

test('a used link says so and sends a new one; the code in the mail signs in; reset and sign-in links wait apart', async ({ page }) => {
  const email = unique('used');
  const landing = `${process.env.E2E_BASE_URL}/signin?redirect=%2Fblog`;
  const res = await page.request.post(`/auth/v1/signup?redirect_to=${encodeURIComponent(landing)}`, {
    headers: testClient(),
    data: { email, password: PASSWORD },
  });
  expect(res.ok(), `sign-up: ${res.status()}`).toBe(true);
  const link = await mailedLink(email, 'auth-confirm-signup');
  // Followed once elsewhere (another device, a mail scanner): opening it again fails.
  expect((await page.request.get(link, { maxRedirects: 0 })).status()).toBe(303);

  await page.goto(link);
  await expect(page.getByRole('alert').filter({ hasText: 'This link no longer works' })).toContainText('a newer email replaced it');
  // The island says so first and then takes the error off the address: wait for both.
  await expect.poll(() => new URL(page.url()).hash).toBe('');
  const again = page.getByRole('form', { name: 'Send a new link' });
  await again.getByLabel('Email').fill(email);
  await again.getByRole('button', { name: 'Send a new link' }).click();
  await expect(again.getByRole('status')).toContainText('a new sign-in link is on its way');
  await again.getByRole('button', { name: 'Send a new link' }).click();
  await expect(again.getByRole('alert')).toContainText(
    /^We sent you a sign-in link a moment ago\. You can ask for another in (5\d|60) seconds\.$/,
  );

  // The new mail's code, typed here: a wrong one is said plainly, the right one signs in and returns.
  const { code } = await mailed(email, 'auth-magic-link');
  await page.getByText('Have a code?').click();
  const byCode = page.getByRole('form', { name: 'Enter your code' });
  await byCode.getByLabel('Email').fill(email);
  await byCode.getByLabel('6-digit code').fill(code === '000000' ? '111111' : '000000');
  await byCode.getByRole('button', { name: 'Continue with code' }).click();
  await expect(byCode.getByRole('alert')).toContainText('That code is wrong or has expired');
  expect(await seriousViolations(page), 'sign-in page with a failed link and the code form').toEqual([]);
  await byCode.getByLabel('6-digit code').fill(code);
  await byCode.getByRole('button', { name: 'Continue with code' }).click();
  await page.waitForURL((url) => url.pathname === '/blog');
  await expect(toastTitled(page, 'Signed in')).toBeVisible();

  // Signed out: a reset keeps the target, is not held back by the sign-in link's wait, and its code works too.
  await page.evaluate(() => localStorage.clear());
  await page.goto('/signin?redirect=%2Fblog');
  await page.getByRole('link', { name: 'Forgot your password?' }).click();
  await page.waitForURL((url) => url.pathname === '/forgot-password' && url.searchParams.get('redirect') === '/blog');
  await page.getByRole('form', { name: 'Reset password' }).getByLabel('Email').fill(email);
  await page.getByRole('button', { name: 'Send reset link' }).click();
  await expect(toastTitled(page, 'Check your email')).toBeVisible();
  const recovery = await mailed(email, 'auth-recovery');
  await byCode.getByLabel('6-digit code').fill(recovery.code);
  await byCode.getByRole('button', { name: 'Continue with code' }).click();
  await page.waitForURL((url) => url.pathname === '/reset-password' && url.searchParams.get('redirect') === '/blog');
  await page.getByLabel('New password', { exact: true }).fill('a newer browser pass');
  await page.getByRole('button', { name: 'Set new password' }).click();
  await page.waitForURL((url) => url.pathname === '/blog');
  await expect(toastTitled(page, 'Password updated')).toBeVisible();
});

test('strangers’ wrong passwords never lock the member out: the page offers a mailed code, which signs in, and the password then works here', async ({
  page,
}) => {
  // An account confirmed on another network: this browser's address is new to it.
  const email = unique('held');
  expect((await page.request.post('/auth/v1/signup', { headers: testClient(), data: { email, password: PASSWORD } })).ok()).toBe(true);
  expect((await page.request.get(await mailedLink(email), { headers: testClient(), maxRedirects: 0 })).status()).toBe(303);
  // Strangers on many networks use up the tries the account gives new networks (the server's default).
  const stranger = (guess: string) =>
    page.request.post('/auth/v1/token?grant_type=password', { headers: testClient(), data: { email, password: guess } });
  const { perAccount } = loadConfig({}).auth.passwordTries;
  for (let i = 0; i < perAccount; i++) expect((await stranger(`guess ${i}`)).status()).toBe(400);
  expect((await stranger(PASSWORD)).status()).toBe(429);

  // The right password here is not refused outright: the page says why and offers a mailed link and code.
  await page.goto('/signin');
  await form(page).getByLabel('Email').fill(email);
  await form(page).getByLabel('Password').fill(PASSWORD);
  await form(page).getByRole('button', { name: 'Sign In' }).click();
  const held = page.getByRole('region', { name: 'Sign in with your email instead' });
  await expect(held.getByRole('alert')).toContainText('needs a link or code sent to your email');
  await held.getByRole('button', { name: 'Send me a sign-in link' }).click();
  await expect(held.getByRole('status')).toContainText(`If an account exists for ${email}, we sent it a sign-in link.`);
  expect(await seriousViolations(page), 'sign-in page offering a mailed code').toEqual([]);
  await held.getByLabel('6-digit code').fill((await mailed(email, 'auth-magic-link')).code);
  await held.getByRole('button', { name: 'Continue with code' }).click();
  await page.waitForURL((url) => url.pathname === '/');
  await expect(toastTitled(page, 'Signed in')).toBeVisible();

  // Signed out: strangers are still held, but the password works again from this network.
  await page.evaluate(() => localStorage.clear());
  expect((await stranger(PASSWORD)).status()).toBe(429);
  await page.goto('/signin');
  await form(page).getByLabel('Email').fill(email);
  await form(page).getByLabel('Password').fill(PASSWORD);
  await form(page).getByRole('button', { name: 'Sign In' }).click();
  await page.waitForURL((url) => url.pathname === '/');
});
