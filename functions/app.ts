/**
 * The Hono application: middleware, the API sub-apps and (when given) the site handler for pages.
 * Built from its services so tests can mount it on any database without a network port.
 */
import { Hono } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { createAuthRoutes } from './auth/routes.ts';
import { createAiRoutes } from './ai/routes.ts';
import { bodyImageOrigins, pageImageSources, type Config, type ImageHostSettings } from './config.ts';
import { createContactRoutes } from './contact/routes.ts';
import { createGatedContentRoutes } from './gated/routes.ts';
import { createPublicContentRoutes } from './content/routes.ts';
import { createContentWriteRoutes } from './create/routes.ts';
import { createFeedRoutes } from './feeds/routes.ts';
import { createEmailEventRoutes } from './email/routes.ts';
import { createEmailAdminRoutes } from './email/admin-routes.ts';
import { createAdminRoutes } from './admin/routes.ts';
import { createMemberRoutes, IMPORT_PATH } from './members/routes.ts';
import { createApiKeyRoutes } from './members/keys/routes.ts';
import { createAnalyticsRoutes } from './analytics/routes.ts';
import { createCompRoutes, createMyGrantRoutes } from './payments/grants/routes.ts';
import { createGiftRoutes, createMyGiftRoutes } from './payments/gifts/routes.ts';
import { createOfferAdminRoutes, createPublicOfferRoutes } from './payments/offers/routes.ts';
import { createWebhookRoutes } from './outbound/routes.ts';
import { createPaymentRoutes } from './payments/routes.ts';
import { createTestBillingRoutes } from './payments/embedded/routes.ts';
import { AppError, createErrorHandler, errorResponse } from './platform/errors.ts';
import { createFileRoutes } from './files/routes.ts';
import { createHealthRoutes } from './platform/health/routes.ts';
import { idempotentWrites } from './platform/idempotency/index.ts';
import { createLeadRoutes } from './leads/routes.ts';
import { createAccessLog, type AccessLog } from './platform/http/access-log.ts';
import type { AnswerHeaders, AppContext, AppEnv, AppMiddleware } from './platform/http/context.ts';
import { createAnswerLane } from './platform/http/answer-lane.ts';
import type { Logger } from './platform/logger.ts';
import { createMethodIndex } from './platform/http/methods.ts';
import { refuseCrossSiteWrites, requestContext } from './platform/http/middleware.ts';
import { requestHeader } from './platform/http/http.ts';
import { answerHeaders } from './platform/http/respond.ts';
import { NO_STORE, sharedCacheControl } from './platform/http/cache-control.ts';
import { apiSecurityHeaders, pageSecurityHeaders } from './platform/http/security-headers.ts';
import { createNewsletterRoutes } from './newsletter/routes.ts';
import { createNewsletterArchiveRoutes } from './newsletter/archive/routes.ts';
import { createNewsletterAdminRoutes } from './newsletter/issues/routes.ts';
import { createIssuePreviewRoutes } from './newsletter/issues/preview-routes.ts';
import { createGuards } from './users/guards.ts';
import { createProgressRoutes } from './progress/routes.ts';
import { createCalendarRoutes, createEventAdminRoutes, createEventRoutes, createMyEventRoutes } from './events/routes.ts';
import { createUserRoutes } from './users/routes.ts';
import { createSearchIndexRoutes } from './search/index.ts';
import { createSearchRoutes } from './search/routes.ts';
import { createCommunityRoutes } from './community/routes.ts';
import { createCommunityNotificationRoutes } from './community/notifications/routes.ts';
import { createModerationRoutes, createReportRoutes } from './community/moderation/routes.ts';
import { createSupportRoutes, streamsOwnBody, SUPPORT_PATH } from './support/routes.ts';
import { MEDIA_PATH } from './platform/storage/index.ts';
import { createMediaRoutes, createUploadRoutes, UPLOAD_PATH } from './uploads/routes.ts';
import type { Services } from './compose.ts';

export interface AppDeps {
  config: Pick<Config, 'siteUrl' | 'maxBodyBytes' | 'trustProxy' | 'preview' | 'cdnStalenessSeconds'> & {
    email: Pick<Config['email'], 'webhookSecret'>;
    auth: Pick<Config['auth'], 'hosted'>;
  } & ImageHostSettings;
  logger: Logger;
  services: Services;
  /** Serves pages and files; absent in API-only tests. */
  site?: (c: AppContext) => Promise<Response>;
  /** Where access lines go (stdout by default). */
  accessLog?: AccessLog;
}

/** Every method but GET and HEAD (HEAD runs the GET routes): what may carry a body. */
const WRITE_METHODS = ['POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'];
/** The writes a client may send with an Idempotency-Key (OPTIONS changes nothing). */
const KEYED_METHODS = ['POST', 'PUT', 'PATCH', 'DELETE'];

export function createApp({ config, logger, services, site, accessLog }: AppDeps) {
  const https = config.siteUrl.startsWith('https://');
  const { trustProxy } = config;
  const { limiter } = services;
  const app = new Hono<AppEnv>();

  // A deploy preview is never indexed, whatever answers (pages, API, files).
  const noindex = Boolean(config.preview);
  // An API answer that names no policy of its own is stored by no cache: the public content answers
  // carry the shared policy, per-caller ones `private` (markPrivate), files and media their own.
  const apiHeaders: AnswerHeaders = Object.freeze({ ...apiSecurityHeaders({ https, noindex }), 'Cache-Control': NO_STORE });
  const log = accessLog ?? createAccessLog(process.stdout, logger.isLevelEnabled('info'));
  app.use(requestContext({ accessLog: log, logger, trustProxy, headers: apiHeaders }));
  // Loaded public answers, written by the Node listener before the app runs (answer-lane.ts).
  const answerLane = createAnswerLane({ accessLog: log, trustProxy, headers: apiHeaders });
  services.contentCache.onClear(answerLane.clear);
  const refuseCrossSite = refuseCrossSiteWrites(config.siteUrl);
  const limitBody = bodyLimit({
    maxSize: config.maxBodyBytes,
    onError: () => {
      throw new AppError('payload_too_large', `The request body is larger than ${config.maxBodyBytes} bytes.`);
    },
  });
  // Writes only (reads never pass through here): cross-site ones are refused, then the body size is
  // checked (which materialises the request body stream). Uploads, and support messages with an
  // attachment, stream under their own limit instead.
  const streamsOwn = (c: AppContext) =>
    c.req.path === UPLOAD_PATH || c.req.path === IMPORT_PATH || streamsOwnBody(c.req.path, c.req.header('content-type'));
  const checkApiWrite: AppMiddleware = (c, next) =>
    refuseCrossSite(c, async () => void (streamsOwn(c) ? await next() : await limitBody(c, next)));
  // The spec's AI call lives outside /api (point 7): the same checks for its writes.
  const checkAiWrite: AppMiddleware = (c, next) => refuseCrossSite(c, async () => void (await limitBody(c, next)));
  app.on(WRITE_METHODS, '/api/*', checkApiWrite);
  app.on(WRITE_METHODS, '/openai/*', checkAiWrite);
  const { users, verifyAccessToken: verify, progress, sessionIsLive } = services;
  // Who is asking and what they may do, built once for every route group.
  const guards = createGuards({ verify, users, sessionIsLive, keyViewer: services.members.keyViewer });
  // Then, for writes sent with an Idempotency-Key, the key (after the checks above, so a refused or
  // oversized request claims nothing). Its scope is the verified member: `identify` runs here once and
  // the route's own finds the viewer set; a token that does not verify is the route's to refuse.
  const idempotent = idempotentWrites({
    ledger: services.idempotency,
    streamsOwnBody: streamsOwn,
    callerOf: async (c) => {
      if (requestHeader(c, 'authorization') === undefined) return undefined;
      try {
        await guards.identify(c, async () => undefined);
      } catch (err) {
        if (err instanceof AppError && err.code === 'unauthorized') return undefined;
        throw err;
      }
      return c.get('viewer')?.id;
    },
  });
  app.on(KEYED_METHODS, ['/api/*', '/openai/*'], idempotent);
  /** The routes that answer (no middleware, no checks): what a path answers to, and what the route tables cover. */
  const checks = new Set<unknown>([checkApiWrite, checkAiWrite, idempotent]);
  const endpoints = () => app.routes.filter((route) => route.method !== 'ALL' && !checks.has(route.handler));

  app.route('/', createHealthRoutes(services.database, logger));
  // The embedded auth service, unless a hosted Supabase project is configured.
  if (!config.auth.hosted) app.route('/auth/v1', createAuthRoutes({ auth: services.auth, keys: services.authKeys, trustProxy }));
  // A sign-up offer's public terms, /api/public/offers/{code} (before the content API, which has the same pattern).
  app.route('/api/public', createPublicOfferRoutes({ offers: services.billing.offers }));
  app.route('/api/public', createPublicContentRoutes(services.contentCache, answerLane));
  app.route('/api/newsletter', createNewsletterRoutes({ newsletter: services.newsletter, limiter, trustProxy }));
  app.route('/api/contact', createContactRoutes({ contact: services.contact, limiter, trustProxy }));
  app.route('/api/leads', createLeadRoutes({ leads: services.leads, limiter, trustProxy }));
  app.route('/api/files', createFileRoutes(services.downloads));
  app.route('/api/content', createGatedContentRoutes({ gated: services.gated, guards, lane: answerLane }));
  app.route('/api/content', createProgressRoutes({ gated: services.gated, progress, guards }));
  app.route('/api/content', createContentWriteRoutes({ content: services.content, guards }));
  app.route('/api/users', createUserRoutes({ users, guards, progress, feeds: services.feeds }));
  app.route('/feeds', createFeedRoutes(services.feeds));
  app.route('/api/email', createEmailEventRoutes({ outbox: services.outbox, inbox: services.inbox, secret: config.email.webhookSecret }));
  app.route('/api/email', createEmailAdminRoutes({ outbox: services.outbox, guards }));
  app.route('/api/newsletter', createNewsletterArchiveRoutes({ archive: services.newsletterArchive, guards }));
  // The editor's preview frame: by its signed link, outside the staff guards (a frame sends no bearer token).
  app.route('/api/newsletter', createIssuePreviewRoutes({ issues: services.newsletterIssues, imageSources: bodyImageOrigins(config) }));
  // Editors too (the admin API's own guards below are admins only): mounted first, so these answer first.
  app.route('/api/admin/newsletter', createNewsletterAdminRoutes({ issues: services.newsletterIssues, guards }));
  // Editors too, like the newsletter's: before the admin API, whose guards let admins only through.
  app.route('/api/admin/events', createEventAdminRoutes({ registrants: services.eventRegistrants, guards }));
  // Editors too (categories are admins'): before the admin API, like the two above.
  const { communityModeration: moderation, communityCategories: categories } = services;
  app.route('/api/admin/community', createModerationRoutes({ moderation, categories, guards }));
  // Comps and a member's grants (the grants ledger, payments'): admins only, like the admin API below.
  app.route('/api/admin/users', createCompRoutes({ access: services.billing.access, guards }));
  app.route('/api/admin/offers', createOfferAdminRoutes({ offers: services.billing.offers, guards }));
  // The members' business tools (filters, labels, segments, the CSV file) and API keys: admins only, some routes open to keys.
  const { members, imports, apiKeys } = services.members;
  app.route('/api/admin', createMemberRoutes({ members, imports, guards }));
  app.route('/api/admin/api-keys', createApiKeyRoutes({ keys: apiKeys, guards }));
  // Outbound webhooks: endpoints, the delivery log, replay (admins only).
  app.route('/api/admin/webhooks', createWebhookRoutes({ webhooks: services.webhooks, guards }));
  app.route('/api/admin/analytics', createAnalyticsRoutes({ analytics: services.analytics, guards }));
  app.route('/api/admin', createAdminRoutes({ admin: services.admin, content: services.content, users, guards }));
  app.route('/api/events', createEventRoutes({ events: services.events, guards }));
  app.route('/api/search', createSearchRoutes({ search: services.search, guards }));
  app.route('/api/community', createCommunityRoutes({ community: services.community, guards, lane: answerLane }));
  app.route('/api/community', createReportRoutes({ moderation, guards }));
  app.route('/api/community', createCommunityNotificationRoutes({ notifications: services.communityNotifications, guards }));
  app.route(
    SUPPORT_PATH,
    createSupportRoutes({
      support: services.support,
      attachments: services.supportAttachments,
      direct: {
        offer: (userId, contentType, size) => services.directUploads.register(userId, { area: 'support', contentType, size }),
        claim: (userId, key) => services.directUploads.claim(userId, key, 'support'),
      },
      limiter,
      guards,
    }),
  );
  app.route('/api/users/me/events', createMyEventRoutes({ events: services.events, guards }));
  app.route('/api/users/me/grants', createMyGrantRoutes({ access: services.billing.access, guards }));
  app.route('/api/users/me/gifts', createMyGiftRoutes({ billing: services.billing, guards }));
  app.route('/api/gifts', createGiftRoutes({ billing: services.billing, guards }));
  // The public search index's files, before the site's pages (the build's copy is in dist/client too).
  app.route('/', createSearchIndexRoutes(services.publicIndex));
  // An event's calendar file, before the site's pages (/events/{slug} is a page).
  app.route('/', createCalendarRoutes({ events: services.events }));
  app.route('/', createUploadRoutes({ uploads: services.uploads, directUploads: services.directUploads, guards }));
  app.route('/', createMediaRoutes(services.uploads, MEDIA_PATH));
  app.route('/api/payments', createPaymentRoutes({ billing: services.billing, inbox: services.inbox, guards }));
  app.route('/openai', createAiRoutes({ drafter: services.drafter, limiter, guards }));
  if (services.embeddedBilling) app.route('/api/billing/test', createTestBillingRoutes(services.embeddedBilling));

  // No route matched: 405 with the Allow list when the path exists under other methods, else 404.
  let methodsFor: ((path: string) => string[]) | undefined;
  const noRoute = (c: AppContext) => {
    methodsFor ??= createMethodIndex(endpoints());
    const allowed = methodsFor(c.req.path);
    if (allowed.length === 0) return errorResponse(c, 'not_found', 'No such API endpoint.');
    return errorResponse(c, 'method_not_allowed', `Use ${allowed.join(', ')} for this endpoint.`, {
      headers: { Allow: allowed.join(', ') },
    });
  };
  app.all('/api/*', noRoute);
  app.all('/openai/*', noRoute);
  // Pages are the same for every visitor (islands fetch what is per member): a CDN may keep them
  // within the staleness bound; the site handler makes error pages no-store.
  const pageHeaders = {
    ...pageSecurityHeaders({ https, noindex, imageSources: pageImageSources(config) }),
    'Cache-Control': sharedCacheControl(config.cdnStalenessSeconds),
  };
  if (site) app.all('*', answerHeaders(pageHeaders), site);
  app.notFound(noRoute);
  app.onError(createErrorHandler(logger));
  return Object.assign(app, { answerLane, endpoints });
}

export type App = ReturnType<typeof createApp>;
