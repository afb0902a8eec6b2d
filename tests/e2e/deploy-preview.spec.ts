/**
 * A reviewer on a deploy preview (PREVIEW_OF): the banner names the branch, /preview lists what
 * changed, and "view as" switches the level the site is seen at (a premium article's body for
 * Premium, the gate for a Visitor). Its own server in preview mode on the test build (PGlite).
 */
import { expect, test } from '@playwright/test';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { loadConfig } from '../../functions/config.ts';
import { startServer, type RunningServer } from '../../functions/main.ts';
import { quietLogger } from '../support/fixtures.ts';

const ARTICLE = '/blog/ecommerce-launch-first-90-days'; // a premium article

// Its tests in one worker, one after the other: one preview server (a new PGlite cluster, several
// seconds) rather than one per worker. The file's name sorts it early, so that start overlaps other
// files' tests instead of holding up the writing journeys, which wait for every read-only test.
test.describe.configure({ mode: 'default' });

let server: RunningServer;
let dataDir: string;
test.beforeAll(async () => {
  // A new cluster's initdb and migrations beside three workers of journeys: more than a test's 30 s
  // when the machine is busy (a start whose hook ran out failed both tests of the file once).
  test.setTimeout(90_000);
  dataDir = await mkdtemp(path.join(tmpdir(), 'beacon-preview-'));
  server = await startServer(
    loadConfig({
      PORT: '0',
      DATA_DIR: dataDir,
      DIST_DIR: process.env.TEST_DIST_DIR,
      LOG_LEVEL: 'silent',
      AUTH_BCRYPT_COST: '4',
      PREVIEW_OF: 'feature/reviewed',
      PREVIEW_COMMIT: 'abcdef0123456789',
      PREVIEW_CHANGES_FILE: path.join(dataDir, 'none.json'),
    }),
    quietLogger(),
  );
});
test.afterAll(async () => {
  await server?.close();
  await rm(dataDir, { recursive: true, force: true });
});

test("the header follows 'view as' at once: Account and Sign Out for a demo account, Sign In for a visitor", async ({ page }) => {
  await page.goto(`${server.url}/preview`);
  const nav = page.getByRole('navigation', { name: 'Main' });
  await expect(page.locator('[data-viewing-as]')).toHaveText('Visitor');
  await expect(nav.getByRole('link', { name: 'Sign In' })).toBeVisible();

  await page.getByRole('button', { name: 'Subscriber' }).click();
  await expect(page.locator('[data-viewing-as]')).toHaveText('Subscriber');
  await expect(nav.getByRole('link', { name: 'Account' })).toHaveAttribute('href', '/account');
  await expect(nav.getByRole('button', { name: 'Sign Out' })).toBeVisible();
  await expect(nav.getByRole('link', { name: 'Sign In' })).toHaveCount(0);

  await page.getByRole('button', { name: 'Visitor' }).click();
  await expect(page.locator('[data-viewing-as]')).toHaveText('Visitor');
  await expect(nav.getByRole('link', { name: 'Sign In' })).toBeVisible();
  await expect(nav.getByRole('button', { name: 'Sign Out' })).toBeHidden();

  // The header's Sign Out ends the session "view as" started, not the one the page began with.
  await page.getByRole('button', { name: 'Premium' }).click();
  await expect(page.locator('[data-viewing-as]')).toHaveText('Premium');
  await nav.getByRole('button', { name: 'Sign Out' }).click();
  await page.waitForURL((url) => url.pathname === '/');
  await expect(nav.getByRole('link', { name: 'Sign In' })).toBeVisible();
  expect(await page.evaluate(() => Object.keys(localStorage).some((k) => /^sb-.+-auth-token$/.test(k)))).toBe(false);
});

test('a reviewer sees the preview banner and views a premium article as Premium, then as a Visitor', async ({ page }) => {
  await page.goto(`${server.url}/preview`);
  await expect(page.getByRole('note')).toContainText('Deploy preview of feature/reviewed at abcdef0');
  await expect(page.getByText('No content changes against the base branch')).toBeVisible();
  await expect(page.locator('[data-viewing-as]')).toHaveText('Visitor');

  await page.getByRole('button', { name: 'Premium' }).click();
  await expect(page.locator('[data-viewing-as]')).toHaveText('Premium');
  await page.goto(`${server.url}${ARTICLE}`);
  // The demo member's sign-in and the body's first render, on a server started for this file alone (a busy machine took 7 s once).
  await expect(page.getByTestId('article-body')).toBeVisible({ timeout: 15_000 });
  await expect(page.getByTestId('gate-card')).toHaveCount(0);

  await page.goto(`${server.url}/preview`);
  await page.getByRole('button', { name: 'Visitor' }).click();
  await expect(page.locator('[data-viewing-as]')).toHaveText('Visitor');
  await page.goto(`${server.url}${ARTICLE}`);
  await expect(page.getByTestId('gate-card')).toBeVisible();
  await expect(page.getByTestId('article-body')).toHaveCount(0);
});
