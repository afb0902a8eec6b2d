/**
 * The API for `npm run dev`: the same services and Hono app as production, mounted into Astro's dev
 * server by src/integrations/dev-api.ts, so pages, islands and the API share one origin in
 * development too.
 */
import { getRequestListener } from '@hono/node-server';
import { createApp } from './app.ts';
import { nodeFetch } from './platform/http/respond.ts';
import { loadConfig, pageImageSources } from './config.ts';
import { pagePolicy } from '#server/page-csp.ts';
import { createLogger } from './platform/logger.ts';
import { createServices } from './compose.ts';
import { createPageLocals } from './platform/site/locals.ts';

export async function createDevApi() {
  const config = loadConfig({ NODE_ENV: 'development', ...process.env });
  const logger = createLogger(config.logLevel);
  const services = await createServices(config, logger);
  const app = createApp({ config, logger, services });
  await services.start();
  return {
    listener: getRequestListener(nodeFetch(app)),
    /** Astro.locals for one page request, as the production server builds them. */
    locals: createPageLocals(services, { siteUrl: config.siteUrl, pageCsp: pagePolicy(pageImageSources(config)) }),
    close: () => services.close(),
  };
}
