/**
 * sitemap.xml: every public page. Content detail pages come from the content reader (MDX and
 * database items, live), so items created after the build are listed at once; newsletter issues
 * from the archive reader, as soon as they go out; the community's public categories and threads
 * from its page reader (what a visitor may read, never a gated category's threads).
 * A new public page must be added to STATIC_ROUTES (the browser test checks the built site).
 */
import type { APIRoute } from 'astro';
import { getServices } from '../components/marketing/service-collection.ts';
import { escapeXml } from '../components/marketing/xml.ts';
import { serverContext, siteOrigin } from '../lib/server/context.ts';
import { CONTENT_TYPES, itemPath } from '#shared/content/registry.ts';
import { servicePath } from '#shared/offerings.ts';

export const STATIC_ROUTES = [
  '/',
  '/services',
  '/about',
  '/faq',
  '/pricing',
  '/gift',
  '/contact',
  '/blog',
  '/courses',
  '/tools',
  '/market',
  '/newsletter',
  '/events',
  '/community',
  '/search',
  '/privacy-policy',
  '/terms-of-service',
];

interface Entry {
  path: string;
  lastmod?: string;
}

async function contentEntries(locals: App.Locals): Promise<Entry[]> {
  const reader = (await serverContext(locals)).content;
  const lists = await Promise.all(CONTENT_TYPES.map((type) => reader.list(type)));
  return lists.flat().map((item) => ({
    path: itemPath(item.type, item.slug),
    lastmod: item.type === 'blog' ? item.publishedDate : item.type === 'tool' ? item.updatedAt : undefined,
  }));
}

/** Every issue that went out: its page is public (its body gated like an article's). */
async function issueEntries(locals: App.Locals): Promise<Entry[]> {
  const issues = (await (await serverContext(locals)).newsletter?.list()) ?? [];
  return issues.map((issue) => ({ path: `/newsletter/${issue.slug}`, lastmod: issue.sentAt.slice(0, 10) }));
}

/** The community's public part: the categories anyone reads and their visible threads (nothing gated). */
async function communityEntries(locals: App.Locals): Promise<Entry[]> {
  const community = (await serverContext(locals)).community;
  if (!community) return [];
  const open = (await community.categories()).filter((c) => c.anyoneReads);
  const threads = await community.publicThreads();
  return [
    ...open.map((c) => ({ path: `/community/${c.slug}` })),
    ...threads.map((t) => ({ path: `/community/threads/${t.id}`, lastmod: t.lastPostAt.slice(0, 10) })),
  ];
}

/** Rendered per request from the server's cached content, so items created after the build are listed. */
export const prerender = false;

export const GET: APIRoute = async ({ site, locals }) => {
  const services = (await getServices()).map((s) => ({ path: servicePath(s.id) }));
  const entries: Entry[] = [
    ...STATIC_ROUTES.map((path) => ({ path })),
    ...services,
    ...(await contentEntries(locals)),
    ...(await issueEntries(locals)),
    ...(await communityEntries(locals)),
  ];
  const origin = siteOrigin({ locals, site });
  const urls = entries
    .map((e) => `  <url><loc>${escapeXml(new URL(e.path, origin).href)}</loc>${e.lastmod ? `<lastmod>${e.lastmod}</lastmod>` : ''}</url>`)
    .join('\n');
  const xml = `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${urls}\n</urlset>\n`;
  // The server's shared-cache policy for pages applies (a CDN keeps it within the staleness bound).
  return new Response(xml, { headers: { 'Content-Type': 'application/xml; charset=utf-8' } });
};
