/**
 * The app as a Netlify Function (the Functions API: a default export taking a web Request, and
 * `config.path`): every route the Hono app answers, while the CDN serves the prebuilt pages. This
 * folder holds function entries only (netlify.toml's `[functions] directory`), so no module of the
 * server's own `functions/` folder becomes a function by accident.
 */
import type { Config, Context } from '@netlify/functions';
import { createFunctionHandler } from '../../functions/serverless.ts';

const handle = createFunctionHandler();

// `waitUntil`: the outbox is drained after a write while the platform keeps the instance.
export default (request: Request, context: Context) =>
  handle(request, { ip: context.ip || undefined, waitUntil: (promise) => context.waitUntil(promise) });

/** The app's own prefixes (functions/app.ts); the one place that lists them for Netlify. */
export const config: Config = {
  path: ['/api/*', '/auth/v1/*', '/openai/*', '/feeds/*', '/uploads/*', '/events/*.ics', '/healthz', '/readyz'],
};
