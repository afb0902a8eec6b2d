/**
 * /api/newsletter, mounted once (functions/api.ts): sign-up, confirm and unsubscribe (routes.ts), the
 * archive's gated bodies (archive/routes.ts) and the editor's preview frame, by its signed link and
 * outside the staff guards since a frame sends no bearer token (issues/preview-routes.ts). The editors'
 * routes are under the admin mount (/api/admin/newsletter).
 */
import { Hono } from 'hono';
import type { AppEnv } from '../platform/http/context.ts';
import type { Guards } from '../users/index.ts';
import { createNewsletterArchiveRoutes } from './archive/routes.ts';
import type { NewsletterArchive } from './archive/service.ts';
import { createIssuePreviewRoutes, type IssuePreviewRoutesDeps } from './issues/preview-routes.ts';
import { createNewsletterRoutes, type NewsletterRouteDeps } from './routes.ts';

export { createNewsletterAdminRoutes as createNewsletterAdminApi } from './issues/routes.ts';

export interface NewsletterApiDeps extends NewsletterRouteDeps, IssuePreviewRoutesDeps {
  archive: NewsletterArchive;
  guards: Guards;
}

export function createNewsletterApi({ newsletter, limiter, trustProxy, archive, issues, imageSources, guards }: NewsletterApiDeps) {
  return new Hono<AppEnv>()
    .route('/', createNewsletterRoutes({ newsletter, limiter, trustProxy }))
    .route('/', createNewsletterArchiveRoutes({ archive, guards }))
    .route('/', createIssuePreviewRoutes({ issues, imageSources }));
}
