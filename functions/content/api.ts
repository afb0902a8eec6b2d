/**
 * The content domain's prefixes, each mounted once (functions/api.ts): /api/public, the spec's public
 * lists and items (routes.ts, answered from memory and offered to the answer lane), and /api/content,
 * what is read or written past the gate: bodies, lessons and downloads (gated/routes.ts, a member's
 * article offered to the answer lane), course progress (progress/routes.ts) and the creators' writes
 * (create/routes.ts).
 */
import { Hono } from 'hono';
import type { AnswerLane } from '../platform/http/answer-lane.ts';
import type { AppEnv } from '../platform/http/context.ts';
import type { Guards } from '../users/index.ts';
import { createContentWriteRoutes } from './create/routes.ts';
import { createGatedContentRoutes } from './gated/routes.ts';
import type { GatedContent } from './gated/service.ts';
import { createProgressRoutes } from './progress/routes.ts';
import type { ProgressService } from './progress/service.ts';
import type { ContentService } from './service.ts';

export { createPublicContentRoutes as createPublicContentApi } from './routes.ts';

export interface ContentApiDeps {
  gated: GatedContent;
  progress: ProgressService;
  content: ContentService;
  guards: Guards;
  lane: AnswerLane;
}

/** /api/content: the gated reads, a course's progress, the creators' writes. */
export function createContentApi({ gated, progress, content, guards, lane }: ContentApiDeps) {
  return new Hono<AppEnv>()
    .route('/', createGatedContentRoutes({ gated, guards, lane }))
    .route('/', createProgressRoutes({ gated, progress, guards }))
    .route('/', createContentWriteRoutes({ content, guards }));
}
