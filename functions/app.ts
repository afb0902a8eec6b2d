/**
 * The Hono application: middleware, the API sub-apps and (when given) the site handler for pages.
 * Built from its services so tests can mount it on any database without a network port.
 */
import { Hono } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { mountRoutes } from './api.ts';
import { pageImageSources, type Config, type ImageHostSettings } from './config.ts';
import { IMPORT_PATH } from './members/routes.ts';
import { AppError, createErrorHandler, errorResponse } from './platform/errors.ts';
import { idempotentWrites } from './platform/idempotency/index.ts';
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
import { createGuards } from './users/guards.ts';
import { streamsOwnBody } from './support/routes.ts';
import { UPLOAD_PATH } from './uploads/routes.ts';
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
  const { users, verifyAccessToken: verify, sessionIsLive } = services;
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

  mountRoutes(app, { config, logger, services, guards, lane: answerLane });

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
