/**
 * The newsletter archive's RSS document (`/newsletter/rss.xml`): each sent issue's metadata and its
 * public part only (above the author's preview line), never the gated rest. Pure module; the
 * skeleton and helpers are the blog feed's (rss.ts).
 */
import { escapeXml } from '../../components/marketing/xml.ts';
import type { ArchivedIssuePage } from '#shared/newsletter.ts';
import { SITE } from '#shared/site.ts';
import { cdata, rssDate, rssDocument } from './rss.ts';

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
      `      <pubDate>${rssDate(issue.sentAt)}</pubDate>`,
      `      <category>${escapeXml(issue.accessLevel)}</category>`,
      '    </item>',
    ].join('\n'),
  );
  const channel = {
    title: `${SITE.name} Newsletter`,
    link: '/newsletter',
    self: '/newsletter/rss.xml',
    description: `One practical growth idea a month from the ${SITE.name} consultants.`,
    modules: ['content'] as const,
    items,
  };
  return rssDocument(channel, siteUrl);
}
