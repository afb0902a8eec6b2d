/**
 * The site search as members use it (issue 36): a premium member finds a lesson by words only its
 * gated body holds and opens it; a free member searching the same words gets no result but is told
 * how many more results Premium opens; a visitor's search never asks the server.
 */
import { expect, test, type Page } from '@playwright/test';
import { DEMO_PASSWORD } from '../../functions/users/demo.ts';
import { seriousViolations } from './axe.ts';

/**
 * Only in the body of a premium course's lesson ("Error handling and human-in-the-loop review"), and
 * no public word starts with it (Pagefind matches the start of words: "backoff" finds "back-office").
 */
const GATED_WORDS = 'malformed';
const LESSON_URL = '/courses/ai-automation-playbook?lesson=error-handling-and-human-review';

async function signIn(page: Page, who: string): Promise<void> {
  await page.goto('/signin?redirect=%2Fsearch');
  const form = page.locator('main form[aria-label="Sign in"]');
  await form.getByLabel('Email').fill(`${who}@demo.beacongrowth.co`);
  await form.getByLabel('Password').fill(DEMO_PASSWORD);
  await form.getByRole('button', { name: 'Sign In' }).click();
  await page.waitForURL((url) => url.pathname === '/search');
}

test('a premium member finds a lesson by words only in its gated body, and opens it', async ({ page }) => {
  await signIn(page, 'premium');
  await page.getByRole('searchbox', { name: 'Search the site' }).fill(GATED_WORDS);
  await page.getByRole('button', { name: 'Search' }).click();
  const courses = page.getByRole('region', { name: 'Courses' });
  const lesson = courses.getByRole('link', { name: /The AI Automation Playbook: Error handling/ });
  await expect(lesson).toHaveAttribute('href', LESSON_URL);
  await expect(courses.locator('mark').first()).toHaveText(/malformed/i);
  await expect(page.getByTestId('search-beyond')).toHaveCount(0);
  expect(await seriousViolations(page)).toEqual([]);
  await lesson.click();
  await expect(page.getByRole('heading', { name: 'Error handling and human-in-the-loop review' }).first()).toBeVisible();
  await expect(page.getByText('Design for failure from the start.')).toBeVisible();
});

test('a free member gets no gated result, only how many more Premium opens; a visitor asks no server', async ({ page }) => {
  const serverSearches: string[] = [];
  page.on('request', (r) => r.url().includes('/api/search') && serverSearches.push(r.url()));
  await page.goto(`/search?q=${encodeURIComponent(GATED_WORDS)}`);
  await expect(page.getByRole('status')).toHaveText(`No results for “${GATED_WORDS}”.`);
  expect(serverSearches).toEqual([]);

  await signIn(page, 'free');
  await page.goto(`/search?q=${encodeURIComponent(GATED_WORDS)}`);
  await expect(page.getByTestId('search-beyond')).toHaveText(/^1 more result in Premium\./);
  await expect(page.locator(`a[href="${LESSON_URL}"]`)).toHaveCount(0);
  expect(serverSearches.length).toBeGreaterThan(0);
});

test("a member's search says when the part their plan opens could not be loaded, and Try Again brings it", async ({ page }) => {
  await signIn(page, 'premium');
  let fail = true;
  await page.route('**/api/search?**', (route) => (fail ? route.fulfill({ status: 503, body: '{}' }) : route.continue()));
  await page.goto(`/search?q=${encodeURIComponent(GATED_WORDS)}`);
  await expect(page.getByRole('alert')).toContainText('Results from what your plan opens could not be loaded.');
  fail = false;
  await page.getByRole('button', { name: 'Try Again' }).click();
  await expect(page.locator(`a[href="${LESSON_URL}"]`)).toBeVisible();
  await expect(page.getByRole('alert')).toHaveCount(0);
});
