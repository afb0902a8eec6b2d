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
import { pathId, readBody, readQuery } from '../../platform/http/request.ts';
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
  return new Hono<AppEnv>().post('/posts/:id/report', guards.identify, guards.member, guards.live, async (c) => {
    const postId = pathId(c, 'id', 'No such post.');
    const input = await readBody(c, ReportSchema);
    const { created } = await moderation.report(requireViewer(c), postId, input);
    return created ? c.json({ reported: true as const }, 201) : c.json({ reported: true as const }, 200);
  });
}

/** The report route as the browser's typed client sees it. */
export type ReportRoutes = ReturnType<typeof createReportRoutes>;

function slugOf(c: AppContext): string {
  const slug = SlugSchema.safeParse(c.req.param('slug'));
  if (!slug.success) throw new AppError('not_found', NO_CATEGORY);
  return slug.data;
}

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
    .post('/posts/:id', async (c) => {
      const postId = pathId(c, 'id', 'No such post.');
      return c.json(await moderation.actOnPost(requireViewer(c), postId, await readBody(c, PostActionSchema)));
    })
    .post('/threads/:id', async (c) => {
      const threadId = pathId(c, 'id', 'No such thread.');
      return c.json(await moderation.actOnThread(requireViewer(c), threadId, await readBody(c, ThreadActionSchema)));
    })
    .post('/members/:userId/suspension', async (c) => {
      const userId = pathId(c, 'userId', 'No such member.');
      return c.json(await moderation.suspension(requireViewer(c), userId, await readBody(c, SuspensionSchema)));
    })
    .get('/log', async (c) => c.json(await moderation.log(readQuery(c, LogQuery).cursor)))
    .get('/categories', admin, async (c) => c.json(await categories.list()))
    .post('/categories', admin, async (c) => c.json(await categories.create(requireViewer(c), await readBody(c, CategoryInputSchema)), 201))
    .put('/categories/:slug', admin, async (c) => {
      const slug = slugOf(c);
      return c.json(await categories.update(requireViewer(c), slug, await readBody(c, CategoryUpdateSchema)));
    })
    .delete('/categories/:slug', admin, async (c) => {
      await categories.remove(requireViewer(c), slugOf(c));
      return c.body(null, 204);
    });
}

/** The staff moderation API as the browser's typed client sees it. */
export type ModerationRoutes = ReturnType<typeof createModerationRoutes>;
