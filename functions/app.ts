/**
 * The Hono application: middleware, the API sub-apps and (when given) the site handler for pages.
 * Built from its services so tests can mount it on any database without a network port.
 */
import type { Http2Bindings, HttpBindings } from '@hono/node-server';
import { RESPONSE_ALREADY_SENT } from '@hono/node-server/utils/response';
import { Hono, type Handler } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import type { Config } from './config.ts';
import { createContactRoutes } from './contact/routes.ts';
import { createPublicContentRoutes } from './content/routes.ts';
import { createEmailEventRoutes } from './email/routes.ts';
import { AppError, createErrorHandler, errorBody } from './errors.ts';
import { createFileRoutes } from './files/routes.ts';
import { createHealthRoutes } from './health/routes.ts';
import { createLeadRoutes } from './leads/routes.ts';
import { createAccessLog } from './lib/access-log.ts';
import type { Logger } from './lib/logger.ts';
import { requestLogger, urlLengthLimit, withHeaders } from './lib/middleware.ts';
import { apiSecurityHeaders } from './lib/security-headers.ts';
import { createNewsletterRoutes } from './newsletter/routes.ts';
import type { Services } from './services.ts';

export interface AppDeps {
  config: Pick<Config, 'siteUrl' | 'maxBodyBytes' | 'trustProxy'> & { email: Pick<Config['email'], 'webhookSecret'> };
  logger: Logger;
  services: Services;
  /** Serves pages and files; absent in API-only tests. */
  site?: Handler;
}

export function createApp({ config, logger, services, site }: AppDeps) {
  const headers = apiSecurityHeaders({ https: config.siteUrl.startsWith('https://') });
  const { trustProxy } = config;
  const { limiter } = services;
  const app = new Hono();

  app.use(requestLogger(createAccessLog(process.stdout, logger.isLevelEnabled('info'))));
  app.use(urlLengthLimit());
  app.use(withHeaders(headers));
  const limitBody = bodyLimit({
    maxSize: config.maxBodyBytes,
    onError: () => {
      throw new AppError('payload_too_large', `The request body is larger than ${config.maxBodyBytes} bytes.`);
    },
  });
  // Only requests that may carry a body pay for the check (it materialises the request body stream).
  app.use('/api/*', (c, next) => (c.req.method === 'GET' || c.req.method === 'HEAD' ? next() : limitBody(c, next)));

  app.route('/', createHealthRoutes(services.database, logger));
  app.route('/api/public', createPublicContentRoutes(services.contentCache));
  app.route('/api/newsletter', createNewsletterRoutes({ newsletter: services.newsletter, limiter, trustProxy }));
  app.route('/api/contact', createContactRoutes({ contact: services.contact, limiter, trustProxy }));
  app.route('/api/leads', createLeadRoutes({ leads: services.leads, limiter, trustProxy }));
  app.route('/api/files', createFileRoutes(services.downloads));
  app.route('/api/email', createEmailEventRoutes({ outbox: services.outbox, secret: config.email.webhookSecret }));
  app.all('/api/*', () => {
    throw new AppError('not_found', 'No such API endpoint.');
  });
  if (site) app.all('*', site);

  app.notFound((c) => c.json(errorBody('not_found', 'Not found'), 404));
  app.onError(createErrorHandler(logger));
  return app;
}

export type App = ReturnType<typeof createApp>;

/**
 * The app's fetch for @hono/node-server. Some handlers write the Node response themselves (cached
 * API answers, pages and files) and return RESPONSE_ALREADY_SENT; Hono answers HEAD by wrapping the
 * GET response in a new Response, which would lose that marker and make the adapter write a second
 * time. What has been written is therefore reported as already sent, whatever Hono returned.
 */
export function nodeFetch(app: App) {
  return async (request: Request, env: HttpBindings | Http2Bindings): Promise<Response> => {
    const response = await app.fetch(request, env);
    return env.outgoing.headersSent ? RESPONSE_ALREADY_SENT : response;
  };
}
