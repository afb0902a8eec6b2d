/** GET /feeds/{token}/rss.xml: a member's private feed (see service.ts). Unknown or revoked links are 404. */
import { Hono } from 'hono';
import { AppError } from '../platform/errors.ts';
import type { AppEnv } from '../platform/http/context.ts';
import { linkToken } from '../platform/http/request.ts';
import type { FeedService } from './service.ts';

export function createFeedRoutes(feeds: FeedService) {
  return new Hono<AppEnv>().get('/:token/rss.xml', async (c) => {
    const token = linkToken.safeParse(c.req.param('token'));
    const xml = token.success ? await feeds.render(token.data) : undefined;
    if (!xml) throw new AppError('not_found', 'This feed link is not valid. Copy the current one from your account page.');
    return c.body(xml, 200, {
      'Content-Type': 'application/rss+xml; charset=utf-8',
      'Cache-Control': 'private, no-store',
      'X-Robots-Tag': 'noindex',
      'Referrer-Policy': 'no-referrer',
    });
  });
}
