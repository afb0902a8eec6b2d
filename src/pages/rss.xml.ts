/**
 * RSS feed of the blog. Public metadata only (title, description, link, date, author, tags): it is
 * built from the public projection of each article, which has no body, so gated text cannot leak.
 * Members' private feeds with full bodies are served by the API (functions/feeds/).
 */
import type { APIRoute } from 'astro';
import { serverContext, siteOrigin } from '../lib/server/context.ts';
import { blogFeedXml } from '../lib/server/rss.ts';

/** Rendered per request from the server's cached content, so new articles appear at once. */
export const prerender = false;

export const GET: APIRoute = async ({ site, locals }) => {
  const posts = await (await serverContext(locals)).content.list('blog');
  const xml = blogFeedXml({ posts, siteUrl: siteOrigin({ locals, site }), self: '/rss.xml' });
  // The server's shared-cache policy for pages applies (a CDN keeps it within the staleness bound).
  return new Response(xml, { headers: { 'Content-Type': 'application/rss+xml; charset=utf-8' } });
};
