/**
 * RSS feed of the blog. Public metadata only (title, description, link, date, author, tags): it is
 * built from the public projection of each article, which has no body, so gated text cannot leak.
 */
import type { APIRoute } from 'astro';
import { escapeXml, rfc822 } from '../components/marketing/xml.ts';
import { serverContext } from '../lib/server/context.ts';
import { itemPath } from '../lib/content/registry.ts';
import { SITE } from '../lib/site.ts';

/** Rendered per request from the server's cached content, so new articles appear at once. */
export const prerender = false;

export const GET: APIRoute = async ({ site, locals }) => {
  const posts = await (await serverContext(locals)).content.list('blog');
  const abs = (path: string) => escapeXml(new URL(path, site).href);
  const items = posts.map((p) =>
    [
      '    <item>',
      `      <title>${escapeXml(p.title)}</title>`,
      `      <link>${abs(itemPath('blog', p.slug))}</link>`,
      `      <guid isPermaLink="true">${abs(itemPath('blog', p.slug))}</guid>`,
      `      <description>${escapeXml(p.description)}</description>`,
      `      <pubDate>${rfc822(p.publishedDate)}</pubDate>`,
      `      <dc:creator>${escapeXml(p.author)}</dc:creator>`,
      ...p.tags.map((t) => `      <category>${escapeXml(t)}</category>`),
      '    </item>',
    ].join('\n'),
  );
  const xml = `<?xml version="1.0" encoding="UTF-8"?>
<rss version="2.0" xmlns:atom="http://www.w3.org/2005/Atom" xmlns:dc="http://purl.org/dc/elements/1.1/">
  <channel>
    <title>${escapeXml(`${SITE.name} Blog`)}</title>
    <link>${abs('/blog')}</link>
    <description>Practical articles on SEO, AI automation, content strategy and growth marketing from the ${escapeXml(SITE.name)} consultants.</description>
    <language>en-us</language>
    <atom:link href="${abs('/rss.xml')}" rel="self" type="application/rss+xml"/>
${items.join('\n')}
  </channel>
</rss>
`;
  return new Response(xml, { headers: { 'Content-Type': 'application/rss+xml; charset=utf-8', 'Cache-Control': 'public, max-age=300' } });
};
