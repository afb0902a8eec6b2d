/**
 * The API's URL map: every prefix mounted once, by the domain that owns it (the path names the folder),
 * and one admin mount whose parts live in the domains they administer. A domain's `api.ts` builds the
 * router for its prefix from its route files; this file only says where each goes. Order matters only
 * where a later router's middleware would cover an earlier one's paths (said where it does).
 */
import { Hono } from 'hono';
import { createAdminRoutes } from './admin/routes.ts';
import { createAiRoutes } from './ai/routes.ts';
import { createAnalyticsRoutes } from './analytics/routes.ts';
import { createAuthRoutes } from './auth/routes.ts';
import { createCommunityAdminApi, createCommunityApi } from './community/api.ts';
import { bodyImageOrigins, type Config, type ImageHostSettings } from './config.ts';
import type { Services } from './compose.ts';
import { createContactRoutes } from './contact/routes.ts';
import { createContentApi, createPublicContentApi } from './content/api.ts';
import { createEmailApi } from './email/api.ts';
import { createCalendarRoutes, createEventAdminApi, createEventsApi } from './events/api.ts';
import { createFeedRoutes } from './feeds/routes.ts';
import { createFileRoutes } from './files/routes.ts';
import { createLeadRoutes } from './leads/routes.ts';
import { createMembersAdminApi } from './members/api.ts';
import { createNewsletterAdminApi, createNewsletterApi } from './newsletter/api.ts';
import { createWebhookRoutes } from './outbound/routes.ts';
import { createPaymentsAdminApi, createPaymentsApi } from './payments/api.ts';
import type { AnswerLane } from './platform/http/answer-lane.ts';
import type { AppEnv } from './platform/http/context.ts';
import { createHealthRoutes } from './platform/health/routes.ts';
import type { Logger } from './platform/logger.ts';
import { MEDIA_PATH } from './platform/storage/index.ts';
import { createSearchIndexRoutes } from './search/index.ts';
import { createSearchRoutes } from './search/routes.ts';
import { createSupportRoutes, SUPPORT_PATH } from './support/routes.ts';
import { createMediaRoutes, createUploadRoutes } from './uploads/routes.ts';
import type { Guards } from './users/guards.ts';
import { createUserRoutes } from './users/routes.ts';

export interface ApiDeps {
  config: Pick<Config, 'trustProxy' | 'siteUrl'> & {
    email: Pick<Config['email'], 'webhookSecret'>;
    auth: Pick<Config['auth'], 'hosted'>;
  } & ImageHostSettings;
  logger: Logger;
  services: Services;
  guards: Guards;
  lane: AnswerLane;
}

/** Mounts every route on the app: /api/*, the spec's /openai and /auth/v1, and the few paths beside the pages. */
export function mountRoutes(app: Hono<AppEnv>, deps: ApiDeps) {
  const { config, logger, services: s, guards, lane } = deps;
  const { limiter } = s;
  const { trustProxy } = config;
  app.route('/', createHealthRoutes(s.database, logger));
  // The embedded auth service, unless a hosted Supabase project is configured.
  if (!config.auth.hosted) app.route('/auth/v1', createAuthRoutes({ auth: s.auth, keys: s.authKeys, trustProxy }));
  app.route('/api/public', createPublicContentApi(s.contentCache, lane));
  app.route('/api/content', createContentApi({ gated: s.gated, progress: s.progress, content: s.content, guards, lane }));
  app.route('/api/users', createUserRoutes({ users: s.users, guards, progress: s.progress, feeds: s.feeds }));
  app.route('/api/payments', createPaymentsApi({ billing: s.billing, inbox: s.inbox, guards, ...embedded(s) }));
  app.route('/api/email', createEmailApi({ outbox: s.outbox, inbox: s.inbox, guards, ...secret(config.email.webhookSecret) }));
  const { newsletterIssues: issues, newsletterArchive: archive } = s;
  const imageSources = bodyImageOrigins(config);
  app.route(
    '/api/newsletter',
    createNewsletterApi({ newsletter: s.newsletter, limiter, trustProxy, archive, issues, imageSources, guards }),
  );
  app.route('/api/contact', createContactRoutes({ contact: s.contact, limiter, trustProxy }));
  app.route('/api/leads', createLeadRoutes({ leads: s.leads, limiter, trustProxy }));
  app.route('/api/files', createFileRoutes(s.downloads));
  app.route('/api/events', createEventsApi({ events: s.events, guards }));
  app.route('/api/search', createSearchRoutes({ search: s.search, guards }));
  const { communityModeration: moderation, communityNotifications: notifications } = s;
  app.route('/api/community', createCommunityApi({ community: s.community, moderation, notifications, guards, lane }));
  app.route(
    SUPPORT_PATH,
    createSupportRoutes({ support: s.support, attachments: s.supportAttachments, direct: supportUploads(s), limiter, guards }),
  );
  app.route('/api/admin', createAdminApi(s, guards));
  app.route('/openai', createAiRoutes({ drafter: s.drafter, limiter, guards }));
  app.route('/feeds', createFeedRoutes(s.feeds));
  // Beside the pages, before the site handler: the public search index's files (the build's copy is in
  // dist/client too), an event's calendar file (/events/{slug} is a page), uploads and media.
  app.route('/', createSearchIndexRoutes(s.publicIndex));
  app.route('/', createCalendarRoutes({ events: s.events }));
  app.route('/', createUploadRoutes({ uploads: s.uploads, directUploads: s.directUploads, guards }));
  app.route('/', createMediaRoutes(s.uploads, MEDIA_PATH));
}

/**
 * /api/admin: each part in the domain it administers, /api/admin/{folder}/…, with its own guards
 * (editors reach the newsletter's, the events' and the community's; the rest is admins'). The
 * dashboard's own routes (overview, users, content, audit) come last: their admins-only guard covers
 * every path under the mount, so the parts open to editors must answer first.
 */
function createAdminApi(s: Services, guards: Guards) {
  const { communityModeration: moderation, communityCategories: categories } = s;
  const { members, imports, apiKeys } = s.members;
  return new Hono<AppEnv>()
    .route('/newsletter', createNewsletterAdminApi({ issues: s.newsletterIssues, guards }))
    .route('/events', createEventAdminApi({ registrants: s.eventRegistrants, guards }))
    .route('/community', createCommunityAdminApi({ moderation, categories, guards }))
    .route('/payments', createPaymentsAdminApi({ billing: s.billing, guards }))
    .route('/members', createMembersAdminApi({ members, imports, apiKeys, guards }))
    .route('/outbound', createWebhookRoutes({ webhooks: s.webhooks, guards }))
    .route('/analytics', createAnalyticsRoutes({ analytics: s.analytics, guards }))
    .route('/', createAdminRoutes({ admin: s.admin, content: s.content, users: s.users, guards }));
}

const embedded = (s: Services) => (s.embeddedBilling ? { embedded: s.embeddedBilling } : {});
const secret = (webhookSecret: string | undefined) => (webhookSecret === undefined ? {} : { secret: webhookSecret });

/** Support's direct uploads of an attachment, through the uploads service's one-time keys. */
function supportUploads(s: Services) {
  return {
    offer: (userId: string, contentType: string, size: number) => s.directUploads.register(userId, { area: 'support', contentType, size }),
    claim: (userId: string, key: string) => s.directUploads.claim(userId, key, 'support'),
  };
}
