/**
 * The API for `npm run dev`: the same services and Hono app as production, mounted into Astro's dev
 * server by src/integrations/dev-api.ts, so pages, islands and the API share one origin in
 * development too.
 */
import { getRequestListener } from '@hono/node-server';
import { createApp, nodeFetch } from './app.ts';
import { loadConfig } from './config.ts';
import { createConfiguredWorker } from './email/setup.ts';
import { createLogger } from './lib/logger.ts';
import { createServices } from './services.ts';

export async function createDevApi() {
  const config = loadConfig({ NODE_ENV: 'development', ...process.env });
  const logger = createLogger(config.logLevel);
  const services = await createServices(config, logger);
  const app = createApp({ config, logger, services });
  const mail = createConfiguredWorker(config, services.database, logger);
  if (config.email.worker) await mail.worker.start();
  return {
    listener: getRequestListener(nodeFetch(app)),
    reader: services.contentCache.reader,
    close: async () => {
      await mail.stop();
      await services.close();
    },
  };
}
