/**
 * The site's RSS documents: the skeleton and helpers every feed shares (the newsletter archive's feed
 * uses them too), and the blog's document, shared by the public feed (`/rss.xml`, metadata only) and
 * each member's private feed, which adds the full body of the articles that member may read. Pure module.
 */
import { escapeXml, rfc822 } from '../../components/marketing/xml.ts';
import { itemPath, type PublicBlog } from '#shared/content/registry.ts';
import { SITE } from '#shared/site.ts';

export interface FeedOptions {
  posts: readonly PublicBlog[];
  siteUrl: string | URL;
  /** Path or URL of the feed itself (atom:link rel=self). */
  self: string;
  title?: string;
  /** Full bodies (sanitised HTML) by slug, for a member's private feed. */
  bodies?: ReadonlyMap<string, string>;
}

/** Wraps HTML in CDATA; a `]]>` inside is split so it cannot end the section early. */
export const cdata = (html: string) => `<![CDATA[${html.replaceAll(']]>', ']]]]><![CDATA[>')}]]>`;

/** An RSS date: a YYYY-MM-DD day at midnight UTC (no time zone moves it), or an instant (ISO 8601). */
export const rssDate = (value: string) => (/^\d{4}-\d{2}-\d{2}$/.test(value) ? rfc822(value) : new Date(value).toUTCString());

const NAMESPACES = { dc: 'http://purl.org/dc/elements/1.1/', content: 'http://purl.org/rss/1.0/modules/content/' } as const;

/** What every feed of the site has around its items (RSS 2.0, its own address as atom:link rel=self). */
export interface RssChannel {
  title: string;
  /** The page the feed follows, and the feed itself: paths or URLs on the site. */
  link: string;
  self: string;
  description: string;
  /** The namespaces the items use beyond atom's. */
  modules: readonly (keyof typeof NAMESPACES)[];
  /** The items, each already written (`    <item>…</item>`). */
  items: readonly string[];
}

/** An RSS document: the channel's head, then its items. */
export function rssDocument({ title, link, self, description, modules, items }: RssChannel, siteUrl: string | URL): string {
  const abs = (path: string) => escapeXml(new URL(path, siteUrl).href);
  const xmlns = modules.map((m) => ` xmlns:${m}="${NAMESPACES[m]}"`).join('');
  return `<?xml version="1.0" encoding="UTF-8"?>
<rss version="2.0" xmlns:atom="http://www.w3.org/2005/Atom"${xmlns}>
  <channel>
    <title>${escapeXml(title)}</title>
    <link>${abs(link)}</link>
    <description>${escapeXml(description)}</description>
    <language>en-us</language>
    <atom:link href="${abs(self)}" rel="self" type="application/rss+xml"/>
${items.join('\n')}
  </channel>
</rss>
`;
}

export function blogFeedXml({ posts, siteUrl, self, title = `${SITE.name} Blog`, bodies }: FeedOptions): string {
  const abs = (path: string) => escapeXml(new URL(path, siteUrl).href);
  const items = posts.map((p) => {
    const body = bodies?.get(p.slug);
    return [
      '    <item>',
      `      <title>${escapeXml(p.title)}</title>`,
      `      <link>${abs(itemPath('blog', p.slug))}</link>`,
      `      <guid isPermaLink="true">${abs(itemPath('blog', p.slug))}</guid>`,
      `      <description>${escapeXml(p.description)}</description>`,
      ...(body ? [`      <content:encoded>${cdata(body)}</content:encoded>`] : []),
      `      <pubDate>${rssDate(p.publishedDate)}</pubDate>`,
      `      <dc:creator>${escapeXml(p.author)}</dc:creator>`,
      ...p.tags.map((t) => `      <category>${escapeXml(t)}</category>`),
      '    </item>',
    ].join('\n');
  });
  const description = `Practical articles on SEO, AI automation, content strategy and growth marketing from the ${SITE.name} consultants.`;
  return rssDocument({ title, link: '/blog', self, description, modules: bodies ? ['dc', 'content'] : ['dc'], items }, siteUrl);
}
