/**
 * Course progress (`/api/content/courses/{slug}/progress`): what a member completed in a course they
 * may open and where to resume. Reading needs a verified token; recording a lesson needs a session
 * that is still signed in. The course is looked up through the gated content, so a member below the
 * course's level gets the same 403 as for its lessons.
 */
import { Hono } from 'hono';
import { z } from 'zod';
import { CONTENT_TYPE_INFO } from '#shared/content/registry.ts';
import { SlugSchema } from '#shared/content/schema.ts';
import type { GatedContent } from '../gated/service.ts';
import type { AppEnv } from '../../platform/http/context.ts';
import { slugParam } from '../../platform/http/request.ts';
import { jsonBodyWhenAsked } from '../../platform/http/validators.ts';
import type { Guards } from '../../users/index.ts';
import { requireViewer } from '../../users/index.ts';
import type { ProgressService } from './service.ts';

const ProgressBody = z.object({ lessonId: SlugSchema, completed: z.boolean().optional() }).strict();

export function createProgressRoutes(deps: { gated: GatedContent; progress: ProgressService; guards: Guards }) {
  const { gated, progress, guards } = deps;
  const { live } = guards;
  return (
    new Hono<AppEnv>()
      .use(guards.identify)
      .get('/courses/:slug/progress', guards.member, async (c) => {
        const who = requireViewer(c);
        return c.json(await progress.forCourse(who, await gated.courseFor(who, slugParam(c, 'slug', CONTENT_TYPE_INFO.course.itemLabel))));
      })
      // A write: only from a session that is still signed in. The body is read once the course is
      // open to the member, so one below its level hears 403 whatever the body holds.
      .put('/courses/:slug/progress', live, jsonBodyWhenAsked(ProgressBody), async (c) => {
        const who = requireViewer(c);
        const course = await gated.courseFor(who, slugParam(c, 'slug', CONTENT_TYPE_INFO.course.itemLabel));
        const { lessonId, completed } = await c.req.valid('json')();
        return c.json(await progress.record(who, course, lessonId, completed));
      })
  );
}

/** The course progress API as the browser's typed client (hono/client) sees it. */
export type ProgressRoutes = ReturnType<typeof createProgressRoutes>;
