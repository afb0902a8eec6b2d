/**
 * Astro integration for `astro dev`: starts the product API in the dev server's process and routes
 * /api, /healthz and /readyz to it. Page requests get the same per-request locals as in production
 * (Astro's dev server reads them from the request under Symbol.for('astro.locals')).
 */
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { AstroIntegration } from 'astro';

const API_PATHS = /^\/(api|healthz|readyz)(\/|\?|$)/;
const ASTRO_LOCALS = Symbol.for('astro.locals');

export default function devApi(): AstroIntegration {
  return {
    name: 'dev-api',
    hooks: {
      'astro:server:setup': async ({ server, logger }) => {
        const url = pathToFileURL(path.resolve('functions/dev.ts')).href;
        const { createDevApi } = (await import(/* @vite-ignore */ url)) as typeof import('../../functions/dev.ts');
        const api = await createDevApi();
        server.middlewares.use((req, res, next) => {
          if (req.url && API_PATHS.test(req.url)) return void api.listener(req, res);
          Reflect.set(req, ASTRO_LOCALS, api.locals());
          next();
        });
        server.httpServer?.once('close', () => void api.close());
        logger.info('product API mounted at /api');
      },
    },
  };
}
