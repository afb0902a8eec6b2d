/**
 * Moderation's routes. `POST /api/community/posts/{id}/report` (mounted beside the community API):
 * a signed-in member, from a live session, reports a post they can read (404 for any other, as for
 * an id that does not exist), once per post (a repeat answers 200 and adds nothing).
 * `/api/admin/community` (the admin dashboard's Moderation tab): editors and admins (401 signed out,
 * 403 for members), every route from a live session since the queue and the log name members; the
 * categories are admins' (403 for editors). Guards run before any input is read. Mounted before
 * /api/admin, whose guards are admins only: these answer first.
 */
import { Hono } from 'hono';
import { SlugSchema } from '#shared/content/schema.ts';
import { AppError } from '../../platform/errors.ts';
import type { AppContext, AppEnv } from '../../platform/http/context.ts';
import { jsonBody, pathIds, pathParams, queryOf } from '../../platform/http/validators.ts';
import type { Guards } from '../../users/index.ts';
import { requireViewer } from '../../users/index.ts';
import type { CategoryAdmin } from './categories.ts';
import {
  CategoryInputSchema,
  CategoryUpdateSchema,
  LogQuery,
  PostActionSchema,
  ReportSchema,
  SuspensionSchema,
  ThreadActionSchema,
} from './schema.ts';
import type { ModerationService } from './service.ts';

const NO_CATEGORY = 'No category with that slug.';

/** `POST /posts/{id}/report`, mounted at /api/community. */
export function createReportRoutes({ moderation, guards }: { moderation: ModerationService; guards: Guards }) {
  return new Hono<AppEnv>().post(
    '/posts/:id/report',
    guards.identify,
    guards.member,
    guards.live,
    pathIds({ id: 'No such post.' }),
    jsonBody(ReportSchema),
    async (c) => {
      const { created } = await moderation.report(requireViewer(c), c.req.valid('param').id, c.req.valid('json'));
      return created ? c.json({ reported: true as const }, 201) : c.json({ reported: true as const }, 200);
    },
  );
}

/** The report route as the browser's typed client sees it. */
export type ReportRoutes = ReturnType<typeof createReportRoutes>;

function slugOf(c: AppContext): string {
  const slug = SlugSchema.safeParse(c.req.param('slug'));
  if (!slug.success) throw new AppError('not_found', NO_CATEGORY);
  return slug.data;
}

/** The category's slug, checked before its body is read. */
const categorySlug = pathParams((c) => ({ slug: slugOf(c) }));

/** The staff moderation API, mounted at /api/admin/community. */
export function createModerationRoutes({
  moderation,
  categories,
  guards,
}: {
  moderation: ModerationService;
  categories: CategoryAdmin;
  guards: Guards;
}) {
  const { admin } = guards;
  return new Hono<AppEnv>()
    .use(guards.identify, guards.staff('moderate the community'), guards.live)
    .get('/queue', async (c) => c.json(await moderation.queue()))
    .post('/posts/:id', pathIds({ id: 'No such post.' }), jsonBody(PostActionSchema), async (c) =>
      c.json(await moderation.actOnPost(requireViewer(c), c.req.valid('param').id, c.req.valid('json'))),
    )
    .post('/threads/:id', pathIds({ id: 'No such thread.' }), jsonBody(ThreadActionSchema), async (c) =>
      c.json(await moderation.actOnThread(requireViewer(c), c.req.valid('param').id, c.req.valid('json'))),
    )
    .post('/members/:userId/suspension', pathIds({ userId: 'No such member.' }), jsonBody(SuspensionSchema), async (c) =>
      c.json(await moderation.suspension(requireViewer(c), c.req.valid('param').userId, c.req.valid('json'))),
    )
    .get('/log', queryOf(LogQuery), async (c) => c.json(await moderation.log(c.req.valid('query').cursor)))
    .get('/categories', admin, async (c) => c.json(await categories.list()))
    .post('/categories', admin, jsonBody(CategoryInputSchema), async (c) =>
      c.json(await categories.create(requireViewer(c), c.req.valid('json')), 201),
    )
    .put('/categories/:slug', admin, categorySlug, jsonBody(CategoryUpdateSchema), async (c) =>
      c.json(await categories.update(requireViewer(c), c.req.valid('param').slug, c.req.valid('json'))),
    )
    .delete('/categories/:slug', admin, async (c) => {
      await categories.remove(requireViewer(c), slugOf(c));
      return c.body(null, 204);
    });
}

/** The staff moderation API as the browser's typed client sees it. */
export type ModerationRoutes = ReturnType<typeof createModerationRoutes>;
