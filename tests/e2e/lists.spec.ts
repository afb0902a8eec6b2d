/**
 * The four list pages in Chromium: skeletons while loading, error and empty states with the spec's
 * texts, search and filters (kept in the URL), tag chips and the "+N more" badge.
 */
import { expect, test, type Page } from '@playwright/test';
import type { PublicItem } from '#shared/content/registry.ts';
import { apiList } from './support.ts';

const LISTS = [
  {
    path: '/blog',
    segment: 'blogs',
    loadError: 'Failed to load blog articles.',
    emptyAll: 'No blog articles found.',
    emptyFiltered: 'No articles match your search criteria.',
    tagGroup: 'Tag',
  },
  {
    path: '/courses',
    segment: 'courses',
    loadError: 'Failed to load courses.',
    emptyAll: 'No courses found.',
    emptyFiltered: 'No courses match your search criteria.',
    tagGroup: 'Category',
  },
  {
    path: '/tools',
    segment: 'tools',
    loadError: 'Failed to load tools.',
    emptyAll: 'No tools found.',
    emptyFiltered: undefined,
    tagGroup: undefined,
  },
  {
    path: '/market',
    segment: 'market',
    loadError: 'Failed to load marketplace items.',
    emptyAll: 'No marketplace items found.',
    emptyFiltered: 'No items match your search criteria.',
    tagGroup: 'Category',
  },
] as const;

const cards = (page: Page) => page.getByTestId('content-card');
const cardTitled = (page: Page, title: string) => cards(page).filter({ has: page.getByRole('heading', { name: title, exact: true }) });

for (const list of LISTS) {
  test.describe(`${list.path} list`, () => {
    test('shows six skeleton cards while loading, then the items', async ({ page, request }) => {
      const items = await apiList(request, list.segment);
      let release!: () => void;
      const gate = new Promise<void>((r) => (release = r));
      await page.route(`**/api/public/${list.segment}`, async (route) => {
        await gate;
        await route.continue();
      });
      await page.goto(list.path);
      await expect(page.getByTestId('skeleton-card')).toHaveCount(6);
      release();
      await expect(cards(page)).toHaveCount(items.length);
      await expect(page.getByTestId('skeleton-card')).toHaveCount(0);
    });

    test('shows the error message when the API fails, and Try Again reloads the page', async ({ page }) => {
      let fail = true;
      await page.route(`**/api/public/${list.segment}`, (route) => (fail ? route.fulfill({ status: 500, body: '{}' }) : route.continue()));
      await page.goto(list.path);
      await expect(page.getByRole('alert').filter({ hasText: list.loadError })).toBeVisible();
      fail = false;
      await Promise.all([page.waitForEvent('load'), page.getByRole('button', { name: 'Try Again' }).click()]);
      await expect(cards(page).first()).toBeVisible();
      await expect(page.getByText(list.loadError)).toHaveCount(0);
    });

    test('shows the empty message when there are no items', async ({ page }) => {
      await page.route(`**/api/public/${list.segment}`, (route) => route.fulfill({ json: [] }));
      await page.goto(list.path);
      await expect(page.getByText(list.emptyAll)).toBeVisible();
      await expect(page.getByRole('button', { name: 'Clear Filters' })).toHaveCount(0);
    });

    test('shows at most three tags per card and a "+N more" badge for the rest', async ({ page, request }) => {
      const items = await apiList(request, list.segment);
      const many = items.find((i) => i.tags.length > 3);
      expect(many, 'sample content has an item with more than 3 tags').toBeDefined();
      await page.goto(list.path);
      const card = cardTitled(page, many!.title);
      await expect(card.getByText(`+${many!.tags.length - 3} more`)).toBeVisible();
      for (const tag of many!.tags.slice(0, 3)) await expect(card.getByText(tag, { exact: true })).toBeVisible();
      await expect(card.getByText(many!.tags[3]!, { exact: true })).toHaveCount(0);
    });
  });
}

for (const list of LISTS.filter((l) => l.emptyFiltered)) {
  test.describe(`${list.path} search`, () => {
    test('matches title or description case-insensitively and survives a reload', async ({ page, request }) => {
      const items = await apiList(request, list.segment);
      const target = items[items.length - 1]!;
      const word = target.title.split(/\s+/).find((w) => w.length > 5) ?? target.title;
      const expected = items.filter((i) => `${i.title} ${i.description}`.toLowerCase().includes(word.toLowerCase()));
      await page.goto(list.path);
      await page.getByRole('searchbox').fill(word.toUpperCase());
      await expect(cards(page)).toHaveCount(expected.length);
      await expect(cardTitled(page, target.title)).toBeVisible();
      await expect(page).toHaveURL(new RegExp(`[?&]q=${encodeURIComponent(word.toUpperCase())}`));
      await page.reload();
      await expect(page.getByRole('searchbox')).toHaveValue(word.toUpperCase());
      await expect(cards(page)).toHaveCount(expected.length);
    });

    test('shows the empty message with Clear Filters, which restores the list', async ({ page, request }) => {
      const items = await apiList(request, list.segment);
      await page.goto(`${list.path}?q=zzqxnomatch`);
      await expect(page.getByText(list.emptyFiltered!)).toBeVisible();
      await page.getByRole('button', { name: 'Clear Filters' }).click();
      await expect(cards(page)).toHaveCount(items.length);
      await expect(page.getByRole('searchbox')).toHaveValue('');
      expect(new URL(page.url()).search).toBe('');
    });

    test('filters by a tag chip, and choosing the active chip clears it', async ({ page, request }) => {
      const items = await apiList(request, list.segment);
      const counts = new Map<string, number>();
      for (const i of items) for (const t of new Set(i.tags)) counts.set(t, (counts.get(t) ?? 0) + 1);
      const [tag] = [...counts.entries()].find(([, n]) => n > 1 && n < items.length) ?? [];
      expect(tag, 'a tag shared by some but not all items').toBeDefined();
      const expected = items.filter((i) => i.tags.includes(tag!)).length;
      await page.goto(list.path);
      const group = page.getByRole('group', { name: list.tagGroup });
      await group.getByRole('button', { name: tag, exact: true }).click();
      await expect(cards(page)).toHaveCount(expected);
      await expect(group.getByRole('button', { name: tag, exact: true })).toHaveAttribute('aria-pressed', 'true');
      await group.getByRole('button', { name: tag, exact: true }).click();
      await expect(cards(page)).toHaveCount(items.length);
    });

    test('a tag on a card filters the list, and clicking the active tag clears it', async ({ page, request }) => {
      const items = await apiList(request, list.segment);
      const item = items.find((i) => i.tags.length > 0)!;
      const tag = item.tags[0]!;
      const expected = items.filter((i) => i.tags.includes(tag)).length;
      await page.goto(list.path);
      const chip = cardTitled(page, item.title).getByRole('button', { name: tag, exact: true });
      await chip.click();
      await expect(cards(page)).toHaveCount(expected);
      await expect(page).toHaveURL(/[?&](tag|category)=/);
      await cardTitled(page, item.title).getByRole('button', { name: tag, exact: true }).click();
      await expect(cards(page)).toHaveCount(items.length);
    });
  });
}

test('courses filter by skill level, combined with search (AND)', async ({ page, request }) => {
  const courses = await apiList<Extract<PublicItem, { type: 'course' }>>(request, 'courses');
  const level = courses[0]!.skillLevel;
  const label = level[0]!.toUpperCase() + level.slice(1);
  await page.goto('/courses');
  await page.getByRole('group', { name: 'Skill level' }).getByRole('button', { name: label }).click();
  await expect(cards(page)).toHaveCount(courses.filter((c) => c.skillLevel === level).length);
  await expect(page).toHaveURL(new RegExp(`level=${level}`));
  await page.getByRole('searchbox').fill('zzqxnomatch');
  await expect(page.getByText('No courses match your search criteria.')).toBeVisible();
});

test('market filters by price: Free is missing or 0, Paid is above 0', async ({ page, request }) => {
  const items = await apiList<Extract<PublicItem, { type: 'market' }>>(request, 'market');
  const free = items.filter((i) => !i.price).length;
  expect(free).toBeGreaterThan(0);
  expect(items.length - free).toBeGreaterThan(0);
  await page.goto('/market');
  const price = page.getByRole('group', { name: 'Price' });
  await price.getByRole('button', { name: 'Free', exact: true }).click();
  await expect(cards(page)).toHaveCount(free);
  await price.getByRole('button', { name: 'Paid', exact: true }).click();
  await expect(cards(page)).toHaveCount(items.length - free);
  await page.reload();
  await expect(page.getByRole('group', { name: 'Price' }).getByRole('button', { name: 'Paid', exact: true })).toHaveAttribute(
    'aria-pressed',
    'true',
  );
  await expect(cards(page)).toHaveCount(items.length - free);
});

test('the tools list has no filters and links each card to its detail page', async ({ page, request }) => {
  const tools = await apiList(request, 'tools');
  await page.goto('/tools');
  await expect(cards(page)).toHaveCount(tools.length);
  await expect(page.getByRole('searchbox')).toHaveCount(0);
  await cards(page).first().getByRole('link').click();
  await expect(page).toHaveURL(new RegExp(`/tools/${tools[0]!.slug}$`));
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(tools[0]!.title);
});

test('a long list shows 24 cards at a time with Show more, starting again when filters change', async ({ page, request }) => {
  const blogs = await apiList(request, 'blogs');
  const many = Array.from({ length: 60 }, (_, i) => ({
    ...blogs[i % blogs.length]!,
    id: `generated-${i}`,
    slug: `generated-${i}`,
    title: `Generated article ${i}`,
  }));
  await page.route('**/api/public/blogs', (route) => route.fulfill({ json: many }));
  await page.goto('/blog');
  await expect(cards(page)).toHaveCount(24);
  await expect(page.getByText('Showing 24 of 60')).toBeVisible();
  await page.getByRole('button', { name: 'Show more' }).click();
  await expect(cards(page)).toHaveCount(48);
  await page.getByRole('button', { name: 'Show more' }).click();
  await expect(cards(page)).toHaveCount(60);
  await expect(page.getByRole('button', { name: 'Show more' })).toHaveCount(0);
  await page.getByRole('searchbox').fill('Generated article');
  await expect(cards(page)).toHaveCount(24);
});
