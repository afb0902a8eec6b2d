/**
 * The lead dialog on /tools (writes leads, so it runs with the writing tests): the form, the Thank
 * You state with Download Now, skipping the form for a stored email, and the 'Error' toast.
 */
import { expect, test, type Page } from '@playwright/test';
import type { PublicItem } from '#shared/content/registry.ts';
import { apiList } from './support.ts';

async function freeTool(page: Page) {
  const tools = await apiList<Extract<PublicItem, { type: 'tool' }>>(page.request, 'tools');
  return tools.find((t) => t.accessLevel === 'free')!;
}

const card = (page: Page, title: string) =>
  page.getByTestId('content-card').filter({ has: page.getByRole('heading', { name: title, exact: true }) });

test('the form leads to Thank You and a working Download Now; the email is stored', async ({ page }) => {
  const tool = await freeTool(page);
  await page.goto('/tools');
  await card(page, tool.title).getByRole('button', { name: 'Download Free' }).click();
  const dialog = page.getByRole('dialog');
  await expect(dialog.getByRole('heading', { name: `Download ${tool.title}` })).toBeVisible();
  await dialog.getByLabel('Name').fill('Grace Hopper');
  await dialog.getByLabel('Email').fill('grace.e2e@example.com');
  await dialog.getByLabel(/Phone/).fill('+1 410 555 0100');
  await dialog.getByRole('button', { name: 'Get the download' }).click();
  await expect(dialog.getByRole('heading', { name: 'Thank You!' })).toBeVisible();
  await expect(dialog).toContainText('grace.e2e@example.com');
  const link = dialog.getByRole('link', { name: 'Download Now' });
  const href = await link.getAttribute('href');
  expect(href).toMatch(/\/api\/files\/download\?token=/);
  const file = await page.request.get(new URL(href!).pathname + new URL(href!).search);
  expect(file.status()).toBe(200);
  expect(file.headers()['content-disposition']).toMatch(/^attachment/);
  expect(await page.evaluate(() => localStorage.getItem('beacon.userEmail'))).toBe('grace.e2e@example.com');
});

test('a stored email skips the form and goes straight to Thank You', async ({ page }) => {
  const tool = await freeTool(page);
  // Known to the server from an earlier download.
  await page.request.post('/api/leads', { data: { name: 'Returning', email: 'returning.e2e@example.com', toolId: tool.slug } });
  await page.addInitScript(() => localStorage.setItem('beacon.userEmail', 'returning.e2e@example.com'));
  await page.goto('/tools');
  await card(page, tool.title).getByRole('button', { name: 'Download Free' }).click();
  const dialog = page.getByRole('dialog');
  await expect(dialog.getByRole('heading', { name: 'Thank You!' })).toBeVisible();
  await expect(dialog.getByLabel('Name')).toHaveCount(0);
  await expect(dialog.getByRole('link', { name: 'Download Now' })).toHaveAttribute('href', /\/api\/files\/download\?token=/);
});

test('a failure shows the Error toast and keeps what was typed', async ({ page }) => {
  const tool = await freeTool(page);
  await page.route('**/api/leads', (route) => route.fulfill({ status: 500, json: { error: { code: 'internal', message: 'down' } } }));
  await page.goto('/tools');
  await card(page, tool.title).getByRole('button', { name: 'Download Free' }).click();
  const dialog = page.getByRole('dialog');
  await dialog.getByLabel('Name').fill('Ada');
  await dialog.getByLabel('Email').fill('ada.e2e@example.com');
  await dialog.getByRole('button', { name: 'Get the download' }).click();
  const toast = page.locator('[data-toast="destructive"]').filter({ hasText: 'Something went wrong. Please try again.' });
  await expect(toast).toBeVisible();
  await expect(toast).toContainText('Error');
  await expect(dialog.getByLabel('Email')).toHaveValue('ada.e2e@example.com');
  await expect(dialog.getByRole('heading', { name: 'Thank You!' })).toHaveCount(0);
});

test('members-only tools have no Download Free button; Escape closes the dialog', async ({ page }) => {
  const tools = await apiList<Extract<PublicItem, { type: 'tool' }>>(page.request, 'tools');
  const gated = tools.find((t) => t.accessLevel !== 'free')!;
  await page.goto('/tools');
  await expect(card(page, gated.title).getByRole('button', { name: 'Download Free' })).toHaveCount(0);
  await expect(card(page, gated.title).getByText('Members only')).toBeVisible();
  const free = tools.find((t) => t.accessLevel === 'free')!;
  await card(page, free.title).getByRole('button', { name: 'Download Free' }).click();
  await expect(page.getByRole('dialog')).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(page.getByRole('dialog')).toHaveCount(0);
});
