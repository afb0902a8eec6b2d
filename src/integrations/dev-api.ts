/**
 * Astro integration for `astro dev`: starts the product API in the dev server's process and routes
 * /api, /healthz and /readyz to it. On-demand pages read content through the same services.
 */
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { AstroIntegration } from 'astro';
import { DEV_READER_KEY } from '../lib/content/server-reader.ts';

const API_PATHS = /^\/(api|healthz|readyz)(\/|\?|$)/;

export default function devApi(): AstroIntegration {
  return {
    name: 'dev-api',
    hooks: {
      'astro:server:setup': async ({ server, logger }) => {
        const url = pathToFileURL(path.resolve('functions/dev.ts')).href;
        const { createDevApi } = (await import(/* @vite-ignore */ url)) as typeof import('../../functions/dev.ts');
        const api = await createDevApi();
        (globalThis as Record<symbol, unknown>)[DEV_READER_KEY] = api.reader;
        server.middlewares.use((req, res, next) => (req.url && API_PATHS.test(req.url) ? void api.listener(req, res) : next()));
        server.httpServer?.once('close', () => void api.close());
        logger.info('product API mounted at /api');
      },
    },
  };
}
