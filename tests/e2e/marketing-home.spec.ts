/**
 * The home page in Chromium: the loading splash (progress, timings, reduced motion), the hero's
 * two buttons, the six service cards, the three teasers and the Organization JSON-LD.
 */
import { expect, test, type Page } from '@playwright/test';
import type { PublicItemOf } from '#shared/content/registry.ts';
import { gotoReady, jsonLd, SERVICES } from './marketing-support.ts';

type SplashEvent = { value: number; state: string | null; t: number };

/** Records every change of the splash's progress and state, from before the page's scripts run. */
async function recordSplash(page: Page) {
  await page.addInitScript(() => {
    const log: { value: number; state: string | null; t: number }[] = [];
    Object.assign(window, { __splash: log });
    new MutationObserver((records) => {
      for (const r of records) {
        const el = r.target as Element;
        if (el.id !== 'splash') continue;
        log.push({ value: Number(el.getAttribute('aria-valuenow')), state: el.getAttribute('data-state'), t: performance.now() });
      }
    }).observe(document, { subtree: true, attributes: true, attributeFilter: ['aria-valuenow', 'data-state'] });
  });
  return () => page.evaluate(() => (window as unknown as { __splash: SplashEvent[] }).__splash);
}

/** Stops the page's clock, so the test moves time forward itself (exact timings, no flakiness). */
async function pauseClock(page: Page) {
  await page.clock.install({ time: new Date('2026-03-02T09:00:00Z') });
  await page.clock.pauseAt(new Date('2026-03-02T09:00:01Z'));
}

test.describe('loading splash', () => {
  test('shows 0% over the rendered page, rises 5% every 20 ms, hides 300 ms after 100%', async ({ page }) => {
    await pauseClock(page);
    await page.goto('/');
    const splash = page.getByRole('progressbar', { name: 'Loading Beacon Growth' });
    await expect(splash).toBeVisible();
    await expect(splash).toContainText('0%');
    // The page is rendered underneath from the start (the splash never delays it).
    await expect(page.getByRole('heading', { level: 1 })).toBeAttached();
    for (let percent = 5; percent <= 100; percent += 5) {
      await page.clock.runFor(20);
      await expect(splash).toHaveAttribute('aria-valuenow', String(percent));
      await expect(splash).toContainText(`${percent}%`);
    }
    await page.clock.runFor(299);
    await expect(splash).not.toHaveAttribute('data-state', 'hiding');
    await page.clock.runFor(1);
    await expect(splash).toHaveAttribute('data-state', 'hiding');
    await page.clock.runFor(200);
    await expect(splash).toHaveCount(0);
  });

  test('in real time, rises in steps of 5% to 100% and then leaves by itself', async ({ page }) => {
    const events = await recordSplash(page);
    await page.goto('/');
    await expect(page.locator('#splash')).toHaveCount(0, { timeout: 5000 });
    const ticks = (await events()).filter((e) => e.state === null);
    const values = ticks.map((e) => e.value);
    // A tick the browser runs late may skip a step, never go back.
    expect(values.at(-1)).toBe(100);
    for (const [i, v] of values.entries()) {
      expect(v % 5).toBe(0);
      if (i > 0) expect(v).toBeGreaterThan(values[i - 1]!);
    }
  });

  test('is skipped when the visitor prefers reduced motion', async ({ page }) => {
    await page.emulateMedia({ reducedMotion: 'reduce' });
    const events = await recordSplash(page);
    await page.goto('/');
    await expect(page.locator('#splash')).toHaveCount(0);
    expect(await events()).toEqual([]);
    await expect(page.getByRole('link', { name: 'Explore Services' })).toBeVisible();
  });
});

test.describe('hero', () => {
  test('Explore Services scrolls to the services section on the home page', async ({ page }) => {
    await gotoReady(page, '/');
    const section = page.locator('#services');
    const top = () => section.evaluate((el) => Math.round(el.getBoundingClientRect().top));
    expect(await top()).toBeGreaterThan(300);
    await page.getByRole('link', { name: 'Explore Services' }).click();
    // Smooth scrolling ends with the section just under the sticky bar (64px).
    await expect.poll(top).toBeLessThanOrEqual(70);
    expect(await top()).toBeGreaterThanOrEqual(60);
    await expect(section.getByRole('heading', { level: 2 })).toBeFocused();
    expect(new URL(page.url()).pathname).toBe('/');
  });

  test('Explore Services goes to /services when the page has no services section', async ({ page }) => {
    await gotoReady(page, '/');
    await page.evaluate(() => document.getElementById('services')?.remove());
    await page.getByRole('link', { name: 'Explore Services' }).click();
    await expect(page).toHaveURL(/\/services$/);
    await expect(page.getByRole('heading', { level: 1, name: 'Our Services' })).toBeVisible();
  });

  test('Get in Touch leads to the contact page', async ({ page }) => {
    await gotoReady(page, '/');
    await page.getByRole('link', { name: 'Get in Touch' }).first().click();
    await expect(page).toHaveURL(/\/contact$/);
  });
});

test('shows six service cards linking to their pages', async ({ page }) => {
  await gotoReady(page, '/');
  const cards = page.locator('#services').getByRole('listitem');
  await expect(cards).toHaveCount(6);
  for (const s of SERVICES) {
    const card = cards.filter({ hasText: s.title });
    await expect(card.getByRole('link', { name: s.title })).toHaveAttribute('href', `/services/${s.id}`);
    await expect(card).toContainText(s.shortDescription);
  }
});

test('the teasers link to real posts, tools and courses', async ({ page, request }) => {
  await gotoReady(page, '/');
  const posts = page.getByRole('region', { name: 'Latest Blog Posts' });
  await expect(posts.getByRole('listitem')).toHaveCount(3);
  await expect(posts.getByRole('link', { name: 'View All Posts' })).toHaveAttribute('href', '/blog');
  const tools = page.getByRole('region', { name: 'Free Tools' });
  await expect(tools.getByRole('link', { name: /^Download Free/ })).toHaveCount(3);
  const courses = page.getByRole('region', { name: 'Premium Courses' });
  await expect(courses.getByTestId('course-price')).toHaveText(['$149', '$199', '$129']);

  const links = [
    ...(await posts.getByRole('listitem').getByRole('link').all()),
    ...(await tools.getByRole('link', { name: /^Download Free/ }).all()),
    ...(await courses.getByRole('listitem').getByRole('link').all()),
  ];
  const patterns = [/^\/blog\/[a-z0-9-]+$/, /^\/tools\/[a-z0-9-]+$/, /^\/courses\/[a-z0-9-]+$/];
  for (const [i, link] of links.entries()) {
    const href = (await link.getAttribute('href'))!;
    expect(href).toMatch(patterns[Math.floor(i / 3)]!);
    expect((await request.get(href)).status(), href).toBe(200);
  }
});

test('the latest posts are the three newest articles', async ({ page, request }) => {
  const blogs = (await (await request.get('/api/public/blogs')).json()) as PublicItemOf<'blog'>[];
  const newest = [...blogs].sort((a, b) => b.publishedDate.localeCompare(a.publishedDate)).slice(0, 3);
  await gotoReady(page, '/');
  const hrefs = await page
    .getByRole('region', { name: 'Latest Blog Posts' })
    .getByRole('listitem')
    .getByRole('link')
    .evaluateAll((els) => els.map((e) => e.getAttribute('href')));
  expect(hrefs).toEqual(newest.map((b) => `/blog/${b.slug}`));
});

test('describes the organisation in JSON-LD', async ({ page }) => {
  await page.goto('/');
  const org = (await jsonLd(page)).find((o) => o['@type'] === 'Organization');
  expect(org).toMatchObject({
    '@context': 'https://schema.org',
    name: 'Beacon Growth',
    email: 'hello@beacongrowth.co',
    foundingDate: '2018',
  });
  expect(org!.sameAs).toContain('https://www.linkedin.com/company/beacon-growth');
});
