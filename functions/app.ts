/**
 * The Hono application: middleware, the API sub-apps and (when given) the site handler for pages.
 * Built from its dependencies so tests can mount it on any database without a network port.
 */
import { Hono, type Handler } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import type { Config } from './config.ts';
import type { PublicContentCache } from './content/cache.ts';
import { createPublicContentRoutes } from './content/routes.ts';
import type { Database } from './db/client.ts';
import { AppError, createErrorHandler, errorBody } from './errors.ts';
import { createHealthRoutes } from './health/routes.ts';
import type { Logger } from './lib/logger.ts';
import { requestLogger, urlLengthLimit, withHeaders } from './lib/middleware.ts';
import { securityHeaders } from './lib/security-headers.ts';

export interface AppDeps {
  config: Pick<Config, 'siteUrl' | 'maxBodyBytes'>;
  logger: Logger;
  database: Pick<Database, 'ping' | 'kind'>;
  contentCache: PublicContentCache;
  /** Serves pages and files; absent in API-only tests. */
  site?: Handler;
}

export function createApp({ config, logger, database, contentCache, site }: AppDeps) {
  const headers = securityHeaders({ https: config.siteUrl.startsWith('https://') });
  const app = new Hono();

  app.use(requestLogger(logger));
  app.use(urlLengthLimit());
  app.use(withHeaders(headers));
  app.use(
    '/api/*',
    bodyLimit({
      maxSize: config.maxBodyBytes,
      onError: () => {
        throw new AppError('payload_too_large', `The request body is larger than ${config.maxBodyBytes} bytes.`);
      },
    }),
  );

  app.route('/', createHealthRoutes(database, logger));
  app.route('/api/public', createPublicContentRoutes(contentCache));
  app.all('/api/*', () => {
    throw new AppError('not_found', 'No such API endpoint.');
  });
  if (site) app.all('*', site);

  app.notFound((c) => c.json(errorBody('not_found', 'Not found'), 404));
  app.onError(createErrorHandler(logger));
  return app;
}

export type App = ReturnType<typeof createApp>;
