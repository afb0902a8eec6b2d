/**
 * The blog's RSS document, shared by the public feed (`/rss.xml`, metadata only) and each member's
 * private feed, which adds the full body of the articles that member may read. Pure module.
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
const cdata = (html: string) => `<![CDATA[${html.replaceAll(']]>', ']]]]><![CDATA[>')}]]>`;

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
      `      <pubDate>${rfc822(p.publishedDate)}</pubDate>`,
      `      <dc:creator>${escapeXml(p.author)}</dc:creator>`,
      ...p.tags.map((t) => `      <category>${escapeXml(t)}</category>`),
      '    </item>',
    ].join('\n');
  });
  return `<?xml version="1.0" encoding="UTF-8"?>
<rss version="2.0" xmlns:atom="http://www.w3.org/2005/Atom" xmlns:dc="http://purl.org/dc/elements/1.1/"${bodies ? ' xmlns:content="http://purl.org/rss/1.0/modules/content/"' : ''}>
  <channel>
    <title>${escapeXml(title)}</title>
    <link>${abs('/blog')}</link>
    <description>Practical articles on SEO, AI automation, content strategy and growth marketing from the ${escapeXml(SITE.name)} consultants.</description>
    <language>en-us</language>
    <atom:link href="${abs(self)}" rel="self" type="application/rss+xml"/>
${items.join('\n')}
  </channel>
</rss>
`;
}
