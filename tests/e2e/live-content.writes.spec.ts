/**
 * Browser tests that write to the site database. They run after the read-only suites (a separate
 * Playwright project), so list counts elsewhere never race with these writes.
 */
import { expect, test } from '@playwright/test';
import { makeBlogInput } from '../support/fixtures.ts';
import { siteContent } from './support.ts';

test('a video the browser cannot play shows the fallback text', async ({ page }) => {
  const { service, close } = await siteContent();
  try {
    const item = await service.create(
      'blog',
      makeBlogInput({ media: [{ url: '/media/missing-clip.mp4', type: 'video', alt: 'Missing clip' }] }),
    );
    await page.goto(`/blog/${item.slug}`);
    await expect(page.getByText("This video can't be played in your browser.")).toBeVisible();
    await expect(page.getByRole('link', { name: 'Download the video' })).toHaveAttribute('href', '/media/missing-clip.mp4');
  } finally {
    await close();
  }
});

test('a database item created after the build is live in its list and at its URL', async ({ page, request }) => {
  const { service, close } = await siteContent();
  try {
    const item = await service.create('blog', makeBlogInput({ title: 'Fresh From The Creator Tools', tags: ['Fresh'] }));
    const res = await page.goto(`/blog/${item.slug}`);
    expect(res?.status()).toBe(200);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Fresh From The Creator Tools');
    // Other instances' caches drop on NOTIFY, which arrives within milliseconds of the commit.
    await expect.poll(async () => (await request.get('/api/public/blogs')).text()).toContain(item.slug);
    await page.goto('/blog?tag=Fresh');
    await expect(page.getByTestId('content-card')).toHaveCount(1);
    await expect(page.getByRole('heading', { name: 'Fresh From The Creator Tools' })).toBeVisible();
    expect(await (await request.get('/rss.xml')).text()).toContain('Fresh From The Creator Tools');
    expect(await (await request.get('/sitemap.xml')).text()).toContain(`/blog/${item.slug}</loc>`);
  } finally {
    await close();
  }
});
