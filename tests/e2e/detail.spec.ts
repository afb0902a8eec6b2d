/**
 * Detail pages and the not-found page in Chromium: public metadata, author default and avatar,
 * dates, media gallery fallbacks, the gate card, and database items added after the build.
 */
import { expect, test } from '@playwright/test';
import { format } from 'date-fns/format';
import { parseISO } from 'date-fns/parseISO';
import type { PublicItem } from '#shared/content/registry.ts';
import { BUILT_DB_ARTICLE } from '../support/site.ts';
import { apiList } from './support.ts';

type Blog = Extract<PublicItem, { type: 'blog' }>;

test('a blog article shows its metadata, the team author default, the avatar and the gate card', async ({ page, request }) => {
  const blogs = await apiList<Blog>(request, 'blogs');
  const article =
    blogs.find((b) => b.author === 'Beacon Growth Team' && b.accessLevel === 'premium') ??
    blogs.find((b) => b.author === 'Beacon Growth Team')!;
  const res = await page.goto(`/blog/${article.slug}`);
  expect(res?.status()).toBe(200);
  await expect(page).toHaveTitle(`${article.title} | Beacon Growth`);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(article.title);
  await expect(page.getByText('Beacon Growth Team', { exact: true })).toBeVisible();
  await expect(page.getByTestId('author-avatar')).toHaveText('BG');
  await expect(page.getByText(format(parseISO(article.publishedDate), 'MMMM d, yyyy'))).toBeVisible();
  for (const tag of article.tags) await expect(page.getByRole('list', { name: 'Tags' }).getByText(tag, { exact: true })).toBeVisible();
  const gate = page.getByTestId('gate-card');
  const title = { premium: 'Premium Content', subscriber: 'Subscriber Content', free: 'Free with an account' }[article.accessLevel];
  await expect(gate.getByRole('heading', { name: title })).toBeVisible();
  if (article.accessLevel === 'free')
    await expect(gate.getByRole('link', { name: 'Sign up' })).toHaveAttribute('href', /^\/signup\?redirect=/);
  else await expect(gate.getByRole('link', { name: 'Upgrade Now' })).toHaveAttribute('href', '/pricing');
});

test('a gated page carries its gate card once in its HTML (an article of each level, a tool, a market item, an event, a members-only category)', async ({
  request,
}) => {
  const blogs = await apiList<Blog>(request, 'blogs');
  const paths = (['free', 'subscriber', 'premium'] as const).map((level) => `/blog/${blogs.find((b) => b.accessLevel === level)!.slug}`);
  for (const segment of ['tools', 'market', 'events'] as const) paths.push(`/${segment}/${(await apiList(request, segment))[0]!.slug}`);
  paths.push('/community/premium-lounge');
  for (const path of paths) {
    const html = await (await request.get(path)).text();
    expect(html.split('data-testid="gate-card"').length - 1, path).toBe(1);
  }
});

test.describe('without JavaScript', () => {
  test.use({ javaScriptEnabled: false });

  test('an article of each level shows its one gate card', async ({ page, request }) => {
    const blogs = await apiList<Blog>(request, 'blogs');
    for (const level of ['free', 'subscriber', 'premium'] as const) {
      await page.goto(`/blog/${blogs.find((b) => b.accessLevel === level)!.slug}`);
      await expect(page.getByTestId('gate-card')).toHaveCount(1);
      await expect(page.getByTestId('gate-card')).toBeVisible();
    }
  });
});

test('the media gallery shows images at 16:9 and replaces a broken image with the placeholder', async ({ page }) => {
  await page.goto(`/blog/${BUILT_DB_ARTICLE.slug}`);
  const img = page.getByTestId('media-image').locator('img');
  await expect(img).toHaveAttribute('src', '/images/placeholder.svg');
  const box = await page.getByTestId('media-image').locator('div').first().boundingBox();
  expect(box!.width / box!.height).toBeCloseTo(16 / 9, 1);
});

test('sample media of every type renders in a gallery', async ({ page, request }) => {
  const segments = ['blogs', 'tools', 'courses', 'market'];
  const paths = { blogs: '/blog', tools: '/tools', courses: '/courses', market: '/market' } as Record<string, string>;
  for (const mediaType of ['image', 'video', 'pdf'] as const) {
    let found: { segment: string; item: PublicItem } | undefined;
    for (const segment of segments) {
      const item = (await apiList(request, segment)).find((i) => i.media.some((m) => m.type === mediaType));
      if (item) found = { segment, item };
      if (found) break;
    }
    expect(found, `an item with ${mediaType} media`).toBeDefined();
    await page.goto(`${paths[found!.segment]}/${found!.item.slug}`);
    await expect(page.getByTestId(`media-${mediaType}`).first()).toBeVisible();
  }
});

test('unknown pages show the not-found page with status 404 and a way home', async ({ page }) => {
  for (const path of ['/this-does-not-exist', '/blog/no-such-article', '/courses/no-such-course']) {
    const res = await page.goto(path);
    expect(res?.status(), path).toBe(404);
    await expect(page.getByText('404', { exact: true })).toBeVisible();
    await expect(page.getByRole('heading', { name: 'Page Not Found' })).toBeVisible();
  }
  await page.getByRole('link', { name: 'Back to Home' }).click();
  await expect(page).toHaveURL(/\/$/);
});
