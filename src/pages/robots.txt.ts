/** robots.txt: everything public may be crawled; the API and member areas are not pages to index. */
import type { APIRoute } from 'astro';
import { siteOrigin } from '../lib/server/context.ts';

// Rendered per request: its sitemap line names the run-time SITE_URL.
export const prerender = false;

export const GET: APIRoute = ({ site, locals }) => {
  const body = [
    'User-agent: *',
    'Allow: /',
    'Disallow: /api/',
    'Disallow: /account',
    'Disallow: /admin',
    'Disallow: /create',
    'Disallow: /payment/',
    'Disallow: /billing/',
    '',
    `Sitemap: ${new URL('/sitemap.xml', siteOrigin({ locals, site })).href}`,
    '',
  ].join('\n');
  return new Response(body, { headers: { 'Content-Type': 'text/plain; charset=utf-8' } });
};
