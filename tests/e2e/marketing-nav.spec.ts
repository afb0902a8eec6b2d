/**
 * The shared top navigation and footer in Chromium: desktop dropdown, the mobile slide-down menu
 * (its closing rules and timings), the opaque bar after scrolling, keyboard use and footer links.
 */
import { expect, test, type Page } from '@playwright/test';
import { SERVICES } from './marketing-support.ts';

const SECTION_LINKS = [
  ['Tools', '/tools'],
  ['Courses', '/courses'],
  ['Market', '/market'],
  ['Blog', '/blog'],
  ['Events', '/events'],
  ['Pricing', '/pricing'],
] as const;

const mainNav = (page: Page) => page.getByRole('navigation', { name: 'Main' });

test.describe('desktop navigation', () => {
  test('has the logo, six services in the dropdown, the section links and Contact', async ({ page }) => {
    await page.goto('/about');
    const nav = mainNav(page);
    await expect(nav.getByRole('link', { name: 'BG Consulting' })).toHaveAttribute('href', '/');
    for (const [name, href] of SECTION_LINKS) {
      await expect(nav.getByRole('link', { name, exact: true })).toHaveAttribute('href', href);
      await expect(nav.getByRole('link', { name, exact: true })).toBeVisible();
    }
    await expect(nav.getByRole('link', { name: 'Contact', exact: true })).toHaveAttribute('href', '/contact');

    const services = nav.getByRole('button', { name: 'Services' });
    await expect(services).toHaveAttribute('aria-expanded', 'false');
    await services.click();
    await expect(services).toHaveAttribute('aria-expanded', 'true');
    const menu = page.locator('#services-menu');
    await expect(menu.getByRole('link')).toHaveCount(6);
    for (const s of SERVICES) await expect(menu.getByRole('link', { name: s.title })).toHaveAttribute('href', `/services/${s.id}`);

    await menu.getByRole('link', { name: 'Chatbot Development' }).click();
    await expect(page).toHaveURL(/\/services\/chatbot-development$/);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Chatbot Development');
  });

  test('the dropdown closes on an outside click and on Escape, which returns focus', async ({ page }) => {
    await page.goto('/about');
    const services = mainNav(page).getByRole('button', { name: 'Services' });
    await services.click();
    await page.mouse.click(1200, 500);
    await expect(services).toHaveAttribute('aria-expanded', 'false');
    await expect(page.locator('#services-menu')).toBeHidden();

    await services.click();
    await page.locator('#services-menu').getByRole('link').first().focus();
    await page.keyboard.press('Escape');
    await expect(services).toHaveAttribute('aria-expanded', 'false');
    await expect(services).toBeFocused();
  });

  test('marks the current section with aria-current', async ({ page }) => {
    await page.goto('/pricing');
    await expect(mainNav(page).getByRole('link', { name: 'Pricing', exact: true })).toHaveAttribute('aria-current', 'page');
    await expect(mainNav(page).getByRole('link', { name: 'Blog', exact: true })).not.toHaveAttribute('aria-current', 'page');
  });

  test('the bar turns opaque once the page is scrolled past 20px', async ({ page }) => {
    await page.goto('/privacy-policy');
    const header = page.locator('#site-header');
    const background = () => header.evaluate((el) => getComputedStyle(el).backgroundColor);
    await expect(header).toHaveAttribute('data-scrolled', 'false');
    expect(await background()).toBe('rgba(255, 255, 255, 0.75)');
    await page.evaluate(() => window.scrollTo({ top: 15, behavior: 'instant' }));
    await page.waitForTimeout(100);
    await expect(header).toHaveAttribute('data-scrolled', 'false');
    await page.evaluate(() => window.scrollTo({ top: 25, behavior: 'instant' }));
    await expect(header).toHaveAttribute('data-scrolled', 'true');
    await expect.poll(background).toBe('rgb(255, 255, 255)');
    await page.evaluate(() => window.scrollTo({ top: 0, behavior: 'instant' }));
    await expect(header).toHaveAttribute('data-scrolled', 'false');
  });
});

test.describe('at 1024px', () => {
  test.use({ viewport: { width: 1024, height: 768 } });

  test('the bar holds every section link, Events and Community included, without overflowing, signed out or in', async ({ page }) => {
    const nav = mainNav(page);
    const fits = async () => {
      for (const [name] of SECTION_LINKS) await expect(nav.getByRole('link', { name, exact: true })).toBeVisible();
      await expect(nav.getByRole('link', { name: 'Community', exact: true })).toBeVisible();
      const { scroll, client } = await nav.evaluate((el) => ({ scroll: el.scrollWidth, client: el.clientWidth }));
      expect(scroll).toBeLessThanOrEqual(client);
    };
    await page.goto('/about');
    await fits();
    // A stored session as the auth client keeps it: the header shows Account and Sign Out (the page asks nothing with it).
    await page.evaluate(() =>
      localStorage.setItem('sb-127-auth-token', JSON.stringify({ access_token: 'a.b.c', expires_at: 4102444800, user: { id: 'someone' } })),
    );
    await page.reload();
    await expect(nav.getByRole('button', { name: 'Sign Out' })).toBeVisible();
    await fits();
  });
});

test.describe('mobile navigation at 375px', () => {
  test.use({ viewport: { width: 375, height: 740 } });

  const menuButton = (page: Page) => page.getByRole('button', { name: 'Menu' });
  const panel = (page: Page) => page.locator('#mobile-menu');

  test('collapses to a menu with an expandable Services entry and a /services link', async ({ page }) => {
    await page.goto('/about');
    await expect(mainNav(page).getByRole('link', { name: 'Tools', exact: true })).toBeHidden();
    await expect(panel(page)).toBeHidden();
    await menuButton(page).click();
    await expect(menuButton(page)).toHaveAttribute('aria-expanded', 'true');
    await expect(panel(page)).toBeVisible();
    await expect(panel(page).getByRole('link', { name: 'All Services' })).toHaveAttribute('href', '/services');
    for (const [name, href] of SECTION_LINKS) {
      await expect(panel(page).getByRole('link', { name, exact: true })).toHaveAttribute('href', href);
      await expect(panel(page).getByRole('link', { name, exact: true })).toBeVisible();
    }
    await expect(panel(page).getByRole('link', { name: 'Contact', exact: true })).toHaveAttribute('href', '/contact');

    const services = panel(page).getByRole('button', { name: 'Services' });
    await expect(panel(page).getByRole('link', { name: 'SEO Optimization' })).toBeHidden();
    await services.click();
    await expect(services).toHaveAttribute('aria-expanded', 'true');
    for (const s of SERVICES) await expect(panel(page).getByRole('link', { name: s.title })).toHaveAttribute('href', `/services/${s.id}`);
    await services.click();
    await expect(panel(page).getByRole('link', { name: 'SEO Optimization' })).toBeHidden();
  });

  test('closes 150 ms after a link is chosen, and closing takes 300 ms', async ({ page }) => {
    // A paused page clock makes the timings exact: the test moves time forward itself.
    await page.clock.install({ time: new Date('2026-03-02T09:00:00Z') });
    await page.clock.pauseAt(new Date('2026-03-02T09:00:01Z'));
    await page.goto('/about');
    await menuButton(page).click();
    await expect(panel(page)).toHaveAttribute('data-state', 'open');
    // Cancel the link's navigation so the menu's timing plays out on this page.
    await page.evaluate(() => document.addEventListener('click', (e) => e.preventDefault(), { capture: true }));
    await panel(page).getByRole('link', { name: 'Tools', exact: true }).click();
    await page.clock.runFor(149);
    await expect(panel(page)).toHaveAttribute('data-state', 'open');
    await page.clock.runFor(1);
    await expect(panel(page)).toHaveAttribute('data-state', 'closing');
    await expect(menuButton(page)).toHaveAttribute('aria-expanded', 'false');
    await page.clock.runFor(299);
    await expect(panel(page)).toHaveAttribute('data-state', 'closing');
    await expect(panel(page)).toBeVisible();
    await page.clock.runFor(1);
    await expect(panel(page)).toHaveAttribute('data-state', 'closed');
    await expect(panel(page)).toBeHidden();
  });

  test('closes on an outside click', async ({ page }) => {
    // The 300 ms closing state is checked on a paused clock: under load, real time could pass it.
    await page.clock.install({ time: new Date('2026-03-02T09:00:00Z') });
    await page.clock.pauseAt(new Date('2026-03-02T09:00:01Z'));
    await page.goto('/about');
    await menuButton(page).click();
    await expect(panel(page)).toBeVisible();
    await page.mouse.click(8, 730);
    await expect(panel(page)).toHaveAttribute('data-state', 'closing');
    await expect(menuButton(page)).toHaveAttribute('aria-expanded', 'false');
    await page.clock.runFor(300);
    await expect(panel(page)).toHaveAttribute('data-state', 'closed');
    await expect(panel(page)).toBeHidden();
  });

  test('Escape closes it and returns focus to the menu button', async ({ page }) => {
    await page.goto('/about');
    await menuButton(page).click();
    await page.keyboard.press('Tab');
    await expect(panel(page).getByRole('button', { name: 'Services' })).toBeFocused();
    await page.keyboard.press('Escape');
    await expect(menuButton(page)).toBeFocused();
    await expect(menuButton(page)).toHaveAttribute('aria-expanded', 'false');
    await expect(panel(page)).toBeHidden();
  });

  test('is closed after a route change', async ({ page }) => {
    await page.goto('/about');
    await menuButton(page).click();
    await panel(page).getByRole('link', { name: 'Blog', exact: true }).click();
    await expect(page).toHaveURL(/\/blog$/);
    await expect(menuButton(page)).toHaveAttribute('aria-expanded', 'false');
    await expect(panel(page)).toBeHidden();
    await page.goBack();
    await expect(page).toHaveURL(/\/about$/);
    await expect(panel(page)).toBeHidden();
  });
});

test.describe('footer', () => {
  test('links to the spec pages and the social profiles, and shows the current year', async ({ page }) => {
    await page.clock.setFixedTime(new Date('2031-01-02T12:00:00'));
    await page.goto('/faq');
    const footer = page.getByRole('contentinfo');
    const nav = footer.getByRole('navigation', { name: 'Footer' });
    const expected = [
      ['Services', '/services'],
      ['Blog', '/blog'],
      ['Contact', '/contact'],
      ['Tools', '/tools'],
      ['Courses', '/courses'],
      ['Privacy Policy', '/privacy-policy'],
      ['Terms of Service', '/terms-of-service'],
    ];
    for (const [name, href] of expected) await expect(nav.getByRole('link', { name, exact: true })).toHaveAttribute('href', href!);
    const social = footer.getByRole('list', { name: 'Beacon Growth on social media' }).getByRole('link');
    await expect(social).toHaveCount(4);
    for (const link of await social.all())
      await expect(link).toHaveAttribute('href', /^https:\/\/(www\.)?(linkedin|x|facebook|instagram)\.com\//);
    await expect(footer.getByRole('link', { name: /LinkedIn/ })).toHaveAttribute('href', 'https://www.linkedin.com/company/beacon-growth');
    await expect(footer.getByRole('form', { name: 'Newsletter' })).toBeVisible();
    // The page was built earlier; the script corrects the year.
    await expect(footer).toContainText('© 2031 Beacon Growth. All rights reserved.');
  });

  test('every footer link leads to a page that exists', async ({ page, request }) => {
    await page.goto('/');
    const hrefs = await page
      .getByRole('navigation', { name: 'Footer' })
      .getByRole('link')
      .evaluateAll((els) => els.map((e) => e.getAttribute('href')!));
    for (const href of hrefs) expect((await request.get(href)).status(), href).toBe(200);
  });
});
