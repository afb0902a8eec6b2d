/**
 * The gated content API: article bodies, lessons and downloads, each behind the
 * one access rule after the caller's token is verified. 401 without a token, 403 with the required
 * level when the caller's is too low, 404 for unknown items. Every answer is per viewer
 * (`Cache-Control: private`, `Vary: Authorization`, set by `identify`) and never enters the public cache.
 * Paths are spelt out per type (no `/:segment` next to `/courses`), which keeps Hono on its fast
 * RegExpRouter: one ambiguous pattern makes it fall back to the trie router for every route.
 * Answer lane: GET /blogs/{slug}/body offers its answer (`deps.lane?.offer`), so the Node listener may
 * answer the same URL for the next members from memory, after the same checks (answer-lane.ts).
 */
import { Hono } from 'hono';
import { z } from 'zod';
import { CONTENT_TYPE_INFO } from '#shared/content/registry.ts';
import { AppError } from '../../platform/errors.ts';
import type { AnswerLane } from '../../platform/http/answer-lane.ts';
import type { AppContext, AppEnv } from '../../platform/http/context.ts';
import { slugParam } from '../../platform/http/request.ts';
import { sendPrivateJson } from '../../platform/http/respond.ts';
import type { Guards } from '../../users/index.ts';
import { requireViewer } from '../../users/index.ts';
import type { Viewer } from '../../users/index.ts';
import type { GatedContent } from './service.ts';

const Index = z.coerce.number().int().min(0).max(99);

export function createGatedContentRoutes(deps: { gated: GatedContent; guards: Guards; lane?: AnswerLane }) {
  const { gated, guards } = deps;
  // Who is asking comes first: a visitor gets 401 for any item, known or not.
  const viewer = (c: AppContext) => requireViewer(c);
  const renderAndSend = async (c: AppContext, who: Viewer) =>
    sendPrivateJson(c, await gated.articleBody(who, slugParam(c, 'slug', CONTENT_TYPE_INFO.blog.itemLabel)));
  return new Hono<AppEnv>()
    .use(guards.identify)
    .get('/courses/:slug/lessons/:lessonId', async (c) => {
      const who = viewer(c);
      return c.json(await gated.lesson(who, slugParam(c, 'slug', CONTENT_TYPE_INFO.course.itemLabel), slugParam(c, 'lessonId', 'Lesson')));
    })
    .get('/courses/:slug/lessons/:lessonId/downloads/:index', async (c) => {
      const who = viewer(c);
      const index = Index.safeParse(c.req.param('index'));
      if (!index.success) throw new AppError('not_found', 'This lesson has no such file.');
      return c.json(
        await gated.lessonDownload(
          who,
          slugParam(c, 'slug', CONTENT_TYPE_INFO.course.itemLabel),
          slugParam(c, 'lessonId', 'Lesson'),
          index.data,
        ),
      );
    })
    .get('/blogs/:slug/body', (c) => {
      const who = viewer(c);
      // An article already rendered is answered without waiting (its key was a valid slug when loaded),
      // and the lane may answer this target the same way for the next members (answer-lane.ts).
      const slug = c.req.param('slug');
      const loaded = gated.loadedArticleBody(who, slug);
      if (!loaded) return renderAndSend(c, who);
      deps.lane?.offer(c, (headers) => {
        const known = guards.knownViewer(headers.authorization);
        return known && gated.loadedArticleBody(known, slug);
      });
      return sendPrivateJson(c, loaded);
    })
    .get('/tools/:slug/download', async (c) => {
      const who = viewer(c);
      return c.json(await gated.itemDownload(who, 'tool', slugParam(c, 'slug', CONTENT_TYPE_INFO.tool.itemLabel)));
    })
    .get('/market/:slug/download', async (c) => {
      const who = viewer(c);
      return c.json(await gated.itemDownload(who, 'market', slugParam(c, 'slug', CONTENT_TYPE_INFO.market.itemLabel)));
    });
}

/** The gated content API as the browser's typed client (hono/client) sees it. */
export type GatedContentRoutes = ReturnType<typeof createGatedContentRoutes>;
