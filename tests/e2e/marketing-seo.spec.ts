/**
 * SEO in the built site: the sitemap lists every public page (checked against the build output and
 * the public API), every page has a unique title and description, canonical and social tags,
 * robots.txt points to the sitemap, and the RSS feed is valid XML with public metadata only.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { apiList } from './support.ts';
import { SERVICES } from './marketing-support.ts';

const SEGMENTS = { blogs: '/blog', tools: '/tools', courses: '/courses', market: '/market', events: '/events' } as const;

async function sitemapPaths(request: import('@playwright/test').APIRequestContext): Promise<string[]> {
  const res = await request.get('/sitemap.xml');
  expect(res.status()).toBe(200);
  expect(res.headers()['content-type']).toMatch(/xml/);
  const xml = await res.text();
  expect(xml).toMatch(/^<\?xml version="1.0" encoding="UTF-8"\?>\s*<urlset xmlns="http:\/\/www\.sitemaps\.org\/schemas\/sitemap\/0\.9">/);
  return [...xml.matchAll(/<loc>([^<]+)<\/loc>/g)].map((m) => new URL(m[1]!).pathname);
}

/** Prebuilt pages that are meant to be found: every HTML file of the build except noindex pages. */
function builtIndexablePages(): string[] {
  const client = path.join(process.env.TEST_DIST_DIR!, 'client');
  return readdirSync(client, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile() && e.name.endsWith('.html'))
    .map((e) => path.join(e.parentPath, e.name))
    .filter((file) => !readFileSync(file, 'utf8').includes('<meta name="robots" content="noindex"'))
    .map(
      (file) =>
        '/' +
        path
          .relative(client, file)
          .replace(/(^|\/)index\.html$/, '')
          .replace(/\.html$/, ''),
    )
    .map((p) => (p.length > 1 ? p.replace(/\/$/, '') : p));
}

test('the sitemap lists every public page, service and content item', async ({ request }) => {
  const paths = await sitemapPaths(request);
  expect(new Set(paths).size).toBe(paths.length);
  const expected = [
    '/',
    '/services',
    '/about',
    '/faq',
    '/pricing',
    '/gift',
    '/contact',
    '/privacy-policy',
    '/terms-of-service',
    '/newsletter',
    '/search',
    ...Object.values(SEGMENTS),
  ];
  const { issues } = (await (await request.get('/api/newsletter/issues')).json()) as { issues: { slug: string }[] };
  expected.push(...issues.map((i) => `/newsletter/${i.slug}`));
  expected.push(...SERVICES.map((s) => `/services/${s.id}`));
  for (const [segment, base] of Object.entries(SEGMENTS))
    expected.push(...(await apiList(request, segment)).map((i) => `${base}/${i.slug}`));
  // The community's public part: the categories anyone reads and their threads (never a gated one's).
  expected.push('/community');
  const { items: categories } = (await (await request.get('/api/community/categories')).json()) as {
    items: { slug: string; anyoneReads: boolean }[];
  };
  for (const { slug } of categories.filter((c) => c.anyoneReads)) {
    expected.push(`/community/${slug}`);
    let cursor = '';
    do {
      const res = await request.get(`/api/community/threads?category=${slug}&limit=100${cursor && `&cursor=${cursor}`}`);
      const page = (await res.json()) as { items: { id: string }[]; nextCursor: string | null };
      expected.push(...page.items.map((t) => `/community/threads/${t.id}`));
      cursor = page.nextCursor ?? '';
    } while (cursor);
  }
  expect(paths.sort()).toEqual([...new Set(expected)].sort());
  const missing = builtIndexablePages().filter((p) => !paths.includes(p));
  expect(
    missing,
    'prebuilt pages missing from the sitemap: add them to STATIC_ROUTES in src/pages/sitemap.xml.ts, or mark them noindex',
  ).toEqual([]);
});

test('every page in the sitemap answers 200 with a unique title, description and canonical URL', async ({ request }) => {
  const titles = new Map<string, string>();
  const descriptions = new Map<string, string>();
  for (const p of await sitemapPaths(request)) {
    const res = await request.get(p);
    expect(res.status(), p).toBe(200);
    const html = await res.text();
    const title = /<title>([^<]*)<\/title>/.exec(html)?.[1] ?? '';
    const description = /<meta name="description" content="([^"]*)"/.exec(html)?.[1] ?? '';
    const canonical = /<link rel="canonical" href="([^"]*)"/.exec(html)?.[1] ?? '';
    expect(title, p).not.toBe('');
    expect(description.length, `${p} description`).toBeGreaterThan(40);
    expect(new URL(canonical).pathname, p).toBe(p);
    for (const tag of ['og:title', 'og:description', 'og:url', 'og:image', 'og:type'])
      expect(html, `${p} ${tag}`).toContain(`property="${tag}"`);
    for (const tag of ['twitter:card', 'twitter:title', 'twitter:description', 'twitter:image'])
      expect(html, `${p} ${tag}`).toContain(`name="${tag}"`);
    expect(titles.get(title), `title of ${p} is also used by`).toBeUndefined();
    expect(descriptions.get(description), `description of ${p} is also used by`).toBeUndefined();
    titles.set(title, p);
    descriptions.set(description, p);
  }
});

test('robots.txt allows crawling and points to the sitemap', async ({ request }) => {
  const res = await request.get('/robots.txt');
  expect(res.status()).toBe(200);
  const text = await res.text();
  expect(text).toContain('User-agent: *');
  expect(text).toContain('Disallow: /api/');
  expect(text).toMatch(/^Sitemap: https?:\/\/[^\s]+\/sitemap\.xml$/m);
});

test('the RSS feed is valid XML listing every article with public metadata only', async ({ page, request }) => {
  const res = await request.get('/rss.xml');
  expect(res.status()).toBe(200);
  const xml = await res.text();
  await page.goto('/about');
  const feed = await page.evaluate((source) => {
    const doc = new DOMParser().parseFromString(source, 'application/xml');
    if (doc.querySelector('parsererror')) return { error: doc.querySelector('parsererror')!.textContent };
    return {
      root: doc.documentElement.nodeName,
      version: doc.documentElement.getAttribute('version'),
      title: doc.querySelector('channel > title')?.textContent,
      items: [...doc.querySelectorAll('item')].map((item) => ({
        children: [...item.children].map((c) => c.nodeName),
        title: item.querySelector('title')?.textContent,
        link: item.querySelector('link')?.textContent,
        description: item.querySelector('description')?.textContent,
        pubDate: item.querySelector('pubDate')?.textContent,
      })),
    };
  }, xml);
  expect(feed).not.toHaveProperty('error');
  expect(feed).toMatchObject({ root: 'rss', version: '2.0', title: 'Beacon Growth Blog' });
  const blogs = await apiList<Extract<import('#shared/content/registry.ts').PublicItem, { type: 'blog' }>>(request, 'blogs');
  expect(feed.items).toHaveLength(blogs.length);
  const allowed = new Set(['title', 'link', 'guid', 'description', 'pubDate', 'dc:creator', 'category']);
  for (const item of feed.items!) {
    for (const child of item.children) expect(allowed.has(child), `unexpected <${child}> in an RSS item`).toBe(true);
    const blog = blogs.find((b) => item.link!.endsWith(`/blog/${b.slug}`));
    expect(blog, item.link!).toBeDefined();
    expect(item.title).toBe(blog!.title);
    expect(item.description).toBe(blog!.description);
    expect(new Date(item.pubDate!).toISOString().slice(0, 10)).toBe(blog!.publishedDate);
  }
});

test('pages advertise the feed, the favicon and the default social image', async ({ page, request }) => {
  await page.goto('/about');
  await expect(page.locator('link[rel="alternate"][type="application/rss+xml"]')).toHaveAttribute('href', '/rss.xml');
  await expect(page.locator('link[rel="icon"]')).toHaveAttribute('href', '/favicon.svg');
  const image = (await page.locator('meta[property="og:image"]').getAttribute('content'))!;
  expect(new URL(image).pathname).toBe('/images/social-card.png');
  expect((await request.get('/images/social-card.png')).headers()['content-type']).toBe('image/png');
  expect((await request.get('/favicon.svg')).status()).toBe(200);
});
