/**
 * The staff newsletter API under /api/admin/newsletter (the admin dashboard's Newsletter tab): issues
 * (create, list, read, change, delete), how many each audience would reach, the copy as each level
 * gets it, a test copy to oneself, send now, schedule, cancel, and a published article as a starting
 * draft. Editors and admins only (401 signed out, 403 for members); every write also needs a session
 * still signed in, and so does the preview, which mints the frame's signed link (as the feed link
 * does). Reads hold no one's personal data (issues are staff's own writing, their accounts and the
 * audiences' reach are counts), so a signature suffices.
 * Mounted before /api/admin, whose guards are admins only: these answer first.
 */
import { Hono } from 'hono';
import { SlugSchema } from '#shared/content/schema.ts';
import { AppError } from '../../platform/errors.ts';
import type { AppContext, AppEnv } from '../../platform/http/context.ts';
import { requestHeader } from '../../platform/http/http.ts';
import { pathId } from '../../platform/http/request.ts';
import { jsonBody, pathIds, queryOf } from '../../platform/http/validators.ts';
import type { Guards } from '../../users/index.ts';
import { requireViewer } from '../../users/index.ts';
import type { IssueService } from './service.ts';
import { AudienceQuery, IssueInputSchema, PreviewQuery, ScheduleSchema, TestSendSchema } from './schema.ts';

const NO_ISSUE = 'No newsletter issue with that id.';

/** The test send's body is optional: none at all (no type, no bytes) means the caller's own level. */
const testBody = jsonBody(TestSendSchema, {
  unless: (c: AppContext) => {
    const length = requestHeader(c, 'content-length');
    return requestHeader(c, 'content-type') === undefined && (length === undefined || length === '0');
  },
});

export function createNewsletterAdminRoutes({ issues, guards }: { issues: IssueService; guards: Guards }) {
  const { live } = guards;
  const id = (c: AppContext) => pathId(c, 'id', NO_ISSUE);
  /** The issue's id, checked before a body or query is read. */
  const issueId = pathIds({ id: NO_ISSUE });
  return new Hono<AppEnv>()
    .use(guards.identify, guards.staff('manage newsletters'))
    .post('/issues', live, jsonBody(IssueInputSchema), async (c) => c.json(await issues.create(requireViewer(c), c.req.valid('json')), 201))
    .get('/issues', async (c) => c.json({ issues: await issues.list() }))
    .get('/audiences', queryOf(AudienceQuery), async (c) => c.json(await issues.reach(c.req.valid('query').selected)))
    .get('/issues/:id', async (c) => c.json({ issue: await issues.get(id(c)) }))
    .put('/issues/:id', live, issueId, jsonBody(IssueInputSchema), async (c) =>
      c.json({ issue: await issues.update(c.req.valid('param').id, c.req.valid('json')) }),
    )
    .delete('/issues/:id', live, async (c) => {
      await issues.remove(id(c));
      return c.body(null, 204);
    })
    .get('/issues/:id/preview', live, issueId, queryOf(PreviewQuery), async (c) =>
      c.json(await issues.preview(c.req.valid('param').id, c.req.valid('query').level)),
    )
    .post('/issues/:id/test', live, issueId, testBody, async (c) =>
      c.json(await issues.test(requireViewer(c), c.req.valid('param').id, c.req.valid('json')?.level), 202),
    )
    .post('/issues/:id/send', live, async (c) => c.json({ issue: await issues.send(id(c)) }, 202))
    .post('/issues/:id/schedule', live, issueId, jsonBody(ScheduleSchema), async (c) =>
      c.json({ issue: await issues.schedule(c.req.valid('param').id, c.req.valid('json')) }),
    )
    .post('/issues/:id/cancel', live, async (c) => c.json({ issue: await issues.cancel(id(c)) }))
    .get('/articles/:slug', async (c) => {
      const slug = SlugSchema.safeParse(c.req.param('slug'));
      if (!slug.success) throw new AppError('not_found', 'Article not found');
      return c.json(await issues.articleDraft(slug.data));
    });
}

/** The staff newsletter API as the browser's typed client (hono/client) sees it. */
export type NewsletterAdminRoutes = ReturnType<typeof createNewsletterAdminRoutes>;
