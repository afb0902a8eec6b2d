/**
 * Accessibility in Chromium: axe finds no serious or critical violation on the marketing pages, the
 * content lists, one detail page of each type and the community's pages (also with the menus open
 * and at phone width), and a keyboard-only walk through the navigation works.
 */
import { expect, test, type Page } from '@playwright/test';
import { seriousViolations } from './axe.ts';
import { apiList } from './support.ts';
import { SERVICES } from './marketing-support.ts';

const MARKETING = [
  '/',
  '/services',
  `/services/${SERVICES[1]!.id}`,
  '/services/no-such-service',
  '/about',
  '/faq',
  '/pricing',
  '/contact',
  '/privacy-policy',
  '/terms-of-service',
  '/no-such-page',
];
const LISTS = ['/blog', '/courses', '/tools', '/market', '/events'];

async function settle(page: Page, path: string): Promise<void> {
  await page.goto(path);
  await page.locator('#splash').waitFor({ state: 'detached' });
  if (LISTS.includes(path)) await page.getByTestId('content-card').first().waitFor();
}

async function expectNoSeriousViolations(page: Page, label: string): Promise<void> {
  const serious = await seriousViolations(page);
  expect(serious, `${label}\n${serious.join('\n')}`).toEqual([]);
}

for (const path of [...MARKETING, ...LISTS]) {
  test(`axe: ${path}`, async ({ page }) => {
    await settle(page, path);
    await expectNoSeriousViolations(page, path);
  });
}

// One test a page, so each stays well within the time limit on a busy machine and they spread over the workers.
for (const [label, ready] of [
  ['/community', 'community-categories'],
  ['/community/general', 'thread-row'],
  ['a thread', 'community-post'],
  ['/community/premium-lounge', 'gate-card'],
] as const) {
  test(`axe: ${label} as a visitor sees it`, async ({ page, request }) => {
    let path: string = label;
    if (label === 'a thread') {
      const { items } = (await (await request.get('/api/community/threads?category=general')).json()) as { items: { id: string }[] };
      path = `/community/threads/${items[0]!.id}`;
    }
    await page.goto(path);
    await page.getByTestId(ready).first().waitFor();
    await expectNoSeriousViolations(page, path);
  });
}

for (const [segment, base] of [
  ['blogs', '/blog'],
  ['courses', '/courses'],
  ['tools', '/tools'],
  ['market', '/market'],
  ['events', '/events'],
] as const) {
  test(`axe: a detail page of ${base}`, async ({ page, request }) => {
    const [item] = await apiList(request, segment);
    await settle(page, `${base}/${item!.slug}`);
    await expectNoSeriousViolations(page, `${base}/${item!.slug}`);
  });
}

test('axe: open Services dropdown and a pricing choice', async ({ page }) => {
  await settle(page, '/pricing');
  await page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name: 'Services' }).click();
  await expectNoSeriousViolations(page, 'dropdown open');
  await page.keyboard.press('Escape');
  await page.getByRole('article', { name: 'Premium' }).getByRole('button', { name: 'Subscribe' }).click();
  await expectNoSeriousViolations(page, 'subscription panel open');
});

test.describe('at 375px', () => {
  test.use({ viewport: { width: 375, height: 740 } });

  for (const path of ['/', '/contact']) {
    test(`axe: ${path} with the menu open`, async ({ page }) => {
      await settle(page, path);
      await page.getByRole('button', { name: 'Menu' }).click();
      await page.locator('#mobile-menu').getByRole('button', { name: 'Services' }).click();
      await expectNoSeriousViolations(page, `${path} (menu open)`);
    });
  }

  test('keyboard only: open the menu, expand Services, follow a link; Escape returns focus', async ({ page }) => {
    await settle(page, '/about');
    await page.keyboard.press('Tab'); // skip link
    await expect(page.getByRole('link', { name: 'Skip to content' })).toBeFocused();
    await page.keyboard.press('Tab');
    await expect(page.getByRole('link', { name: 'BG Consulting' }).first()).toBeFocused();
    await page.keyboard.press('Tab');
    await expect(page.getByRole('link', { name: 'Search' })).toBeFocused();
    await page.keyboard.press('Tab');
    const menu = page.getByRole('button', { name: 'Menu' });
    await expect(menu).toBeFocused();
    await page.keyboard.press('Enter');
    await expect(menu).toHaveAttribute('aria-expanded', 'true');
    await page.keyboard.press('Tab');
    const services = page.locator('#mobile-menu').getByRole('button', { name: 'Services' });
    await expect(services).toBeFocused();
    await page.keyboard.press('Space');
    await expect(services).toHaveAttribute('aria-expanded', 'true');
    await page.keyboard.press('Tab');
    await expect(page.locator('#mobile-menu').getByRole('link', { name: SERVICES[0]!.title })).toBeFocused();
    await page.keyboard.press('Escape');
    await expect(menu).toBeFocused();
    await expect(menu).toHaveAttribute('aria-expanded', 'false');
    await page.keyboard.press('Enter');
    await page.keyboard.press('Tab');
    await page.keyboard.press('Tab');
    await page.keyboard.press('Tab');
    await expect(page.locator('#mobile-menu').getByRole('link', { name: SERVICES[1]!.title })).toBeFocused();
    await page.keyboard.press('Enter');
    await expect(page).toHaveURL(new RegExp(`/services/${SERVICES[1]!.id}$`));
  });
});

test('keyboard only: the desktop Services dropdown', async ({ page }) => {
  await settle(page, '/about');
  await page.keyboard.press('Tab');
  await page.keyboard.press('Tab');
  await page.keyboard.press('Tab');
  const button = page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name: 'Services' });
  await expect(button).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(button).toHaveAttribute('aria-expanded', 'true');
  await page.keyboard.press('Escape');
  await expect(button).toHaveAttribute('aria-expanded', 'false');
  await expect(button).toBeFocused();
  await page.keyboard.press('ArrowDown');
  const links = page.locator('#services-menu').getByRole('link');
  await expect(links.first()).toBeFocused();
  await page.keyboard.press('ArrowDown');
  await expect(links.nth(1)).toBeFocused();
  await page.keyboard.press('End');
  await expect(links.last()).toBeFocused();
  await page.keyboard.press('ArrowDown');
  await expect(links.first()).toBeFocused();
  await page.keyboard.press('ArrowUp');
  await expect(links.last()).toBeFocused();
  await page.keyboard.press('Escape');
  await expect(button).toBeFocused();
  await expect(page.locator('#services-menu')).toBeHidden();
  // Tabbing out of the open menu closes it.
  await page.keyboard.press('ArrowDown');
  for (let i = 0; i < 6; i++) await page.keyboard.press('Tab');
  await expect(page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Tools', exact: true })).toBeFocused();
  await expect(button).toHaveAttribute('aria-expanded', 'false');
});
