/**
 * RSS feed of the newsletter's web archive: each sent issue's metadata and public part, never the
 * gated rest (members read it on the issue's page).
 */
import type { APIRoute } from 'astro';
import { serverContext, siteOrigin } from '../../lib/server/context.ts';
import { newsletterFeedXml } from '../../lib/server/newsletter-feed.ts';

/** Rendered per request, so an issue is in the feed as soon as it goes out. */
export const prerender = false;

const FEED_SIZE = 30;

export const GET: APIRoute = async ({ site, locals }) => {
  const issues = (await (await serverContext(locals)).newsletter?.latest(FEED_SIZE)) ?? [];
  const xml = newsletterFeedXml({ issues, siteUrl: siteOrigin({ locals, site }) });
  // The server's shared-cache policy for pages applies (a CDN keeps it within the staleness bound).
  return new Response(xml, { headers: { 'Content-Type': 'application/rss+xml; charset=utf-8' } });
};
