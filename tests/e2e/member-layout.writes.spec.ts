/**
 * The member pages keep their shape while they fill in (issue 32's layout shifts), measured on fixed
 * viewports (writes members and a thread, so it runs with the writing tests). What the page shows
 * before its island runs (its static placeholder, seen here with JavaScript off) is as tall as what
 * the island then draws, within a pixel: /account/support; /account for a new member (a long address)
 * and for the premium demo member (the Lighthouse bench's), both with the e2e server's payments in
 * test mode, so with the test-mode notice; and a thread its author follows, whose page the server
 * renders for visitors before the island adds the member's mute switch, post buttons and reply form.
 */
import { expect, test, type Browser, type Page } from '@playwright/test';
import { DEMO_PASSWORD } from '../../functions/users/demo.ts';
import { signedInMember, testClient } from './members.ts';

const PHONE = { width: 412, height: 823 };
const DESKTOP = { width: 1280, height: 800 };

/** The height of the island's content on this page (its placeholder before it runs, what it drew after). */
const islandHeight = (page: Page, island = page.locator('astro-island').first()) =>
  island.evaluate((el) => el.firstElementChild!.getBoundingClientRect().height);

/** The page's placeholder as a browser without JavaScript shows it. */
async function placeholderHeight(browser: Browser, path: string, viewport: typeof PHONE): Promise<number> {
  const context = await browser.newContext({ baseURL: process.env.E2E_BASE_URL, javaScriptEnabled: false, viewport });
  try {
    const page = await context.newPage();
    await page.goto(path);
    return await islandHeight(page);
  } finally {
    await context.close();
  }
}

/** The member's access token, as the auth client stored it. */
const tokenOf = (page: Page) =>
  page.evaluate(() => {
    const key = Object.keys(localStorage).find((k) => /^sb-.+-auth-token$/.test(k))!;
    return (JSON.parse(localStorage.getItem(key)!) as { access_token: string }).access_token;
  });

for (const viewport of [PHONE, DESKTOP]) {
  test(`/account/support draws itself in its placeholder's room at ${viewport.width}px`, async ({ page, browser }) => {
    await page.setViewportSize(viewport);
    await signedInMember(page, 'support-room');
    await page.goto('/account/support');
    await expect(page.getByRole('textbox', { name: 'Subject' })).toBeEnabled();
    await expect(page.getByText('You have not asked us anything yet.')).toBeVisible();
    expect(Math.abs((await islandHeight(page)) - (await placeholderHeight(browser, '/account/support', viewport)))).toBeLessThanOrEqual(1);
  });

  test(`a new thread's page keeps its height when its author's view arrives at ${viewport.width}px`, async ({ page, browser }) => {
    await page.setViewportSize(viewport);
    await signedInMember(page, 'thread-room');
    const res = await page.request.post('/api/community/threads', {
      headers: { authorization: `Bearer ${await tokenOf(page)}` },
      data: { category: 'general', title: `Refreshing old posts ${Date.now()}`, body: 'Which old posts would you update first, and why?' },
    });
    expect(res.status(), await res.text()).toBe(201);
    const path = `/community/threads/${((await res.json()) as { id: string }).id}`;
    const before = await placeholderHeight(browser, path, viewport);
    await page.goto(path);
    await expect(page.getByRole('button', { name: 'Mute this thread' })).toBeVisible();
    await expect(page.getByTestId('community-post').getByRole('button', { name: 'Edit' })).toBeVisible();
    await expect(page.getByRole('textbox', { name: 'Your reply' })).toBeVisible();
    expect(Math.abs((await islandHeight(page)) - before)).toBeLessThanOrEqual(1);
  });
}

/** The height of each of the island's top-level parts, for a failure's message (which part moved). */
const partHeights = (page: Page) =>
  page
    .locator('astro-island')
    .first()
    .evaluate((el) =>
      [...el.firstElementChild!.querySelectorAll(':scope > *, :scope > .grid > *')].map((c) =>
        Math.round(c.getBoundingClientRect().height),
      ),
    );

/** The cards of a drawn account page once every one has loaded (a free member, or the demo premium member: no plan either way). */
async function accountDrawn(page: Page) {
  await expect(page.getByRole('tab', { name: 'Subscription' })).toBeVisible();
  await expect(page.getByTestId('test-mode-notice')).toBeVisible();
  await expect(page.getByText('No Active Subscription')).toBeVisible();
  await expect(page.getByText('You have not started a course yet.')).toBeVisible();
  await expect(page.getByText('You have not registered for an upcoming event.')).toBeVisible();
}

for (const viewport of [PHONE, DESKTOP]) {
  // A new member's address is long enough to wrap on a phone; payments run in test mode on the e2e server.
  test(`/account draws a new member's page in its placeholder's room at ${viewport.width}px`, async ({ page, browser }) => {
    await page.setViewportSize(viewport);
    await signedInMember(page, 'account-room-with-a-long-address');
    const before = await placeholderHeight(browser, '/account', viewport);
    await page.goto('/account');
    await accountDrawn(page);
    expect(Math.abs((await islandHeight(page)) - before), `parts now: ${(await partHeights(page)).join(', ')}`).toBeLessThanOrEqual(1);
  });

  // The bench's member: premium, no plan (the demo accounts have none), test mode. Their placeholder is
  // what the page shows before the island's code runs: its inline script has read the stored guess.
  test(`/account draws the premium demo member's page in its placeholder's room at ${viewport.width}px`, async ({ page }) => {
    await page.setViewportSize(viewport);
    await page.setExtraHTTPHeaders(testClient());
    await page.goto('/signin');
    const form = page.locator('main form[aria-label="Sign in"]');
    await form.getByLabel('Email').fill('premium@demo.beacongrowth.co');
    await form.getByLabel('Password').fill(DEMO_PASSWORD);
    await form.getByRole('button', { name: 'Sign In' }).click();
    await page.waitForURL((at) => at.pathname === '/');

    await page.route(/\/_astro\/.*\.js$/, (route) => route.abort());
    await page.goto('/account');
    const before = await islandHeight(page);
    const parts = await partHeights(page);
    await page.unroute(/\/_astro\/.*\.js$/);
    await page.goto('/account');
    await accountDrawn(page);
    await expect(page.getByText('All premium content')).toBeVisible();
    const now = await partHeights(page);
    expect(Math.abs((await islandHeight(page)) - before), `parts before: ${parts.join(', ')}; now: ${now.join(', ')}`).toBeLessThanOrEqual(
      1,
    );
  });
}
