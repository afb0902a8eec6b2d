/**
 * The site search as a visitor uses it (issue 36): the header's field opened with `/`, results grouped
 * by kind with the matched words marked, the arrow keys from the field to the results, the kind
 * filter and the query in the address, the empty and failed states, axe clean. A visitor's search
 * reads the static index only: no request reaches the server's search.
 */
import { expect, test, type Page } from '@playwright/test';
import { seriousViolations } from './axe.ts';

async function openHome(page: Page): Promise<void> {
  await page.goto('/about');
  await page.locator('#splash').waitFor({ state: 'detached' });
}

test('a visitor opens the search with "/", finds an article and a service page, and opens the service', async ({ page }) => {
  const serverSearches: string[] = [];
  page.on('request', (r) => r.url().includes('/api/search') && serverSearches.push(r.url()));
  await openHome(page);
  await page.keyboard.press('/');
  const field = page.getByRole('searchbox', { name: 'Search the site' });
  await expect(field).toBeFocused();
  await field.fill('local seo');
  await field.press('Enter');
  await expect(page).toHaveURL(/\/search\?q=local\+seo$/);

  const articles = page.getByRole('region', { name: 'Articles' });
  await expect(articles.getByRole('link', { name: /Local SEO in 2026/ })).toBeVisible();
  const services = page.getByRole('region', { name: 'Services' });
  await expect(services.getByRole('link', { name: 'SEO Optimization' })).toBeVisible();
  await expect(page.locator('[data-testid=search-result] mark').first()).toHaveText(/^(local|seo)/i);
  await expect(page.getByRole('status')).toHaveText(/\d+ results? for “local seo”/);

  await services.getByRole('link', { name: 'SEO Optimization' }).click();
  await expect(page).toHaveURL(/\/services\/seo-optimization$/);
  expect(serverSearches).toEqual([]);
});

test('the arrow keys move from the field through the results, and Enter opens one', async ({ page }) => {
  await page.goto('/search?q=checklist');
  const first = page.locator('a[data-result]').first();
  await expect(first).toBeVisible();
  const field = page.getByRole('searchbox', { name: 'Search the site' });
  await field.focus();
  await page.keyboard.press('ArrowDown');
  await expect(first).toBeFocused();
  await page.keyboard.press('ArrowDown');
  await expect(page.locator('a[data-result]').nth(1)).toBeFocused();
  await page.keyboard.press('ArrowUp');
  await page.keyboard.press('ArrowUp');
  await expect(field).toBeFocused();
  await page.keyboard.press('ArrowDown');
  const href = await first.getAttribute('href');
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(new RegExp(`${href!.replace(/[?#].*$/, '')}`));
});

test('the kind filter narrows the results and lives in the address; the back button restores the search', async ({ page }) => {
  await page.goto('/search?q=seo');
  await expect(page.locator('[data-testid=search-result]').first()).toBeVisible();
  await page.getByLabel('Kind').selectOption('service');
  await expect(page).toHaveURL(/\/search\?q=seo&type=service$/);
  const groups = page.getByRole('region', { name: 'Search results' }).getByRole('heading', { level: 2 });
  await expect(groups).toHaveText(['Services']);
  await page.goBack();
  await expect(page).toHaveURL(/\/search\?q=seo$/);
  await expect(groups.nth(1)).toBeVisible();
});

test('shows the empty state, and the failed state with a retry that works', async ({ page }) => {
  await page.goto('/search?q=zzqxv');
  await expect(page.getByRole('status')).toHaveText('No results for “zzqxv”.');

  let fail = true;
  await page.route('**/pagefind/pagefind.js', (route) => (fail ? route.fulfill({ status: 503, body: 'down' }) : route.continue()));
  await page.goto('/search?q=checklist');
  await expect(page.getByRole('alert')).toContainText('Search failed. Please try again.');
  fail = false;
  await page.getByRole('button', { name: 'Try Again' }).click();
  await expect(page.locator('[data-testid=search-result]').first()).toBeVisible();
});

test('axe: /search with results, and the header search open', async ({ page }) => {
  await page.goto('/search?q=content strategy');
  await expect(page.locator('[data-testid=search-result]').first()).toBeVisible();
  expect(await seriousViolations(page)).toEqual([]);
  await openHome(page);
  await page.getByRole('link', { name: 'Search' }).click();
  await expect(page.getByRole('searchbox', { name: 'Search the site' })).toBeFocused();
  expect(await seriousViolations(page)).toEqual([]);
  await page.keyboard.press('Escape');
  await expect(page.getByRole('link', { name: 'Search' })).toBeFocused();
  await expect(page.locator('#header-search')).toBeHidden();
});

test("a visitor's search loads under 100 KB over the network, script and WebAssembly included", async ({ browser }) => {
  const figures: string[] = [];
  for (const q of ['local seo', 'pricing teardown', 'checklist', 'email automation for small teams']) {
    // A new visitor each time: nothing in the browser's cache.
    const context = await browser.newContext();
    const page = await context.newPage();
    const sizes: Promise<{ name: string; bytes: number }>[] = [];
    page.on('requestfinished', (r) => {
      if (r.url().includes('/pagefind/'))
        sizes.push(r.sizes().then((s) => ({ name: r.url().split('/pagefind/')[1]!, bytes: s.responseBodySize })));
    });
    await page.goto(`/search?q=${encodeURIComponent(q)}`);
    await expect(page.getByRole('status')).toHaveText(/results? for|No results/);
    await page.waitForLoadState('networkidle');
    const loaded = await Promise.all(sizes);
    await context.close();
    const total = loaded.reduce((sum, f) => sum + f.bytes, 0);
    figures.push(`${q}: ${(total / 1024).toFixed(1)} KB in ${loaded.length} files`);
    expect(loaded.length, q).toBeGreaterThanOrEqual(4);
    expect(total, `${q}: ${loaded.map((f) => `${f.name} ${f.bytes}`).join(', ')}`).toBeLessThan(100 * 1024);
  }
  console.log(figures.join('\n'));
});
