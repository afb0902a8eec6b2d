/**
 * The newsletter archive's RSS document (`/newsletter/rss.xml`): each sent issue's metadata and its
 * public part only (above the author's preview line), never the gated rest. Pure module.
 */
import { escapeXml } from '../../components/marketing/xml.ts';
import type { ArchivedIssuePage } from '#shared/newsletter.ts';
import { SITE } from '#shared/site.ts';

/** Wraps HTML in CDATA; a `]]>` inside is split so it cannot end the section early. */
const cdata = (html: string) => `<![CDATA[${html.replaceAll(']]>', ']]]]><![CDATA[>')}]]>`;

export function newsletterFeedXml({ issues, siteUrl }: { issues: readonly ArchivedIssuePage[]; siteUrl: string | URL }): string {
  const abs = (path: string) => escapeXml(new URL(path, siteUrl).href);
  const items = issues.map((issue) =>
    [
      '    <item>',
      `      <title>${escapeXml(issue.subject)}</title>`,
      `      <link>${abs(`/newsletter/${issue.slug}`)}</link>`,
      `      <guid isPermaLink="true">${abs(`/newsletter/${issue.slug}`)}</guid>`,
      `      <description>${escapeXml(issue.previewText)}</description>`,
      ...(issue.publicHtml ? [`      <content:encoded>${cdata(issue.publicHtml)}</content:encoded>`] : []),
      `      <pubDate>${new Date(issue.sentAt).toUTCString()}</pubDate>`,
      `      <category>${escapeXml(issue.accessLevel)}</category>`,
      '    </item>',
    ].join('\n'),
  );
  return `<?xml version="1.0" encoding="UTF-8"?>
<rss version="2.0" xmlns:atom="http://www.w3.org/2005/Atom" xmlns:content="http://purl.org/rss/1.0/modules/content/">
  <channel>
    <title>${escapeXml(`${SITE.name} Newsletter`)}</title>
    <link>${abs('/newsletter')}</link>
    <description>One practical growth idea a month from the ${escapeXml(SITE.name)} consultants.</description>
    <language>en-us</language>
    <atom:link href="${abs('/newsletter/rss.xml')}" rel="self" type="application/rss+xml"/>
${items.join('\n')}
  </channel>
</rss>
`;
}
