/**
 * /api/community, mounted once (functions/api.ts): the forum itself (routes.ts: categories, threads,
 * posts, likes, search, comments; public lists offered to the answer lane), a member's report of a
 * post (moderation/routes.ts) and reply mails' settings (notifications/routes.ts). The Moderation
 * tab's staff routes are under the admin mount (/api/admin/community).
 */
import { Hono } from 'hono';
import type { AnswerLane } from '../platform/http/answer-lane.ts';
import type { AppEnv } from '../platform/http/context.ts';
import type { Guards } from '../users/index.ts';
import { createReportRoutes } from './moderation/routes.ts';
import type { ModerationService } from './moderation/service.ts';
import { createCommunityNotificationRoutes } from './notifications/routes.ts';
import type { NotificationService } from './notifications/service.ts';
import { createCommunityRoutes } from './routes.ts';
import type { CommunityService } from './service.ts';

export { createModerationRoutes as createCommunityAdminApi } from './moderation/routes.ts';

export interface CommunityApiDeps {
  community: CommunityService;
  moderation: ModerationService;
  notifications: NotificationService;
  guards: Guards;
  lane: AnswerLane;
}

export function createCommunityApi({ community, moderation, notifications, guards, lane }: CommunityApiDeps) {
  return new Hono<AppEnv>()
    .route('/', createCommunityRoutes({ community, guards, lane }))
    .route('/', createReportRoutes({ moderation, guards }))
    .route('/', createCommunityNotificationRoutes({ notifications, guards }));
}
