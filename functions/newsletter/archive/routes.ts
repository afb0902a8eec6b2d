/**
 * The newsletter archive's API under /api/newsletter: the sent issues (public metadata, newest first)
 * and an issue's whole body behind the one access rule, as an article's body is (no token 401,
 * unknown issue 404, level too low 403 with `requiredLevel`; every answer private).
 */
import { slugParam } from '../../platform/http/request.ts';
import { Hono } from 'hono';
import type { AppEnv } from '../../platform/http/context.ts';
import type { Guards } from '../../users/index.ts';
import { requireViewer } from '../../users/index.ts';
import type { NewsletterArchive } from './service.ts';

export function createNewsletterArchiveRoutes({ archive, guards }: { archive: NewsletterArchive; guards: Guards }) {
  return (
    new Hono<AppEnv>()
      .get('/issues', async (c) => c.json({ issues: await archive.reader.list() }))
      // Who is asking comes first: a visitor gets 401 for any issue, known or not.
      .get('/issues/:slug/body', guards.identify, async (c) => {
        const viewer = requireViewer(c);
        return c.json(await archive.body(viewer, slugParam(c, 'slug', 'Issue')));
      })
  );
}

/** The archive API as the browser's typed client (hono/client) sees it. */
export type NewsletterArchiveRoutes = ReturnType<typeof createNewsletterArchiveRoutes>;
