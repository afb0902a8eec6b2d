/**
 * `GET /api/search?q=&type=&limit=` (issue 36, a stable route): the gated text the caller may read,
 * best first, and `beyondLevel` (how many matches their level does not open, and the level that
 * opens them all). A token is optional; every answer is private (`identify`), the visitor's too: it
 * carries nothing but a count, and a visitor's search is the static index's, which costs no call.
 * `drafts=1`: editors and admins from a live session only (401 without a token or signed out, 403
 * for members), unpublished database items included and marked `status: 'unpublished'`.
 */
import { Hono } from 'hono';
import type { AppEnv, AppMiddleware } from '../platform/http/context.ts';
import { queryOf } from '../platform/http/validators.ts';
import type { Guards } from '../users/index.ts';
import { SearchQuerySchema } from './schema.ts';
import type { SearchService } from './service.ts';

export function createSearchRoutes({ search, guards }: { search: SearchService; guards: Guards }) {
  const staff = guards.staff('search drafts');
  // Who may ask for drafts comes before what they asked (a visitor hears 401 whatever the query
  // holds): a session still signed in, like the edit form's reads of unpublished items, and staff.
  const draftsGuard: AppMiddleware = async (c, next) => {
    if (c.req.query('drafts') === '1') {
      await guards.live(c, async () => undefined);
      await staff(c, async () => undefined);
    }
    await next();
  };
  return new Hono<AppEnv>().get('/', guards.identify, draftsGuard, queryOf(SearchQuerySchema), async (c) =>
    c.json(await search.search(c.get('viewer') ?? null, c.req.valid('query')), 200),
  );
}

/** The search API as the browser's typed client (hono/client) sees it. */
export type SearchRoutes = ReturnType<typeof createSearchRoutes>;
