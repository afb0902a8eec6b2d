/**
 * The app's API as a Netlify Function (the Functions API: a default export taking a web Request, and
 * `config.path`): every route of the Hono app under its own prefixes. The pages no published file
 * answers come through the same handler by the pages entry (pages.ts). This folder holds function
 * entries only, so no module of the server's own `functions/` folder becomes a function by accident;
 * `npm run build:netlify` builds each into the functions directory Netlify deploys (dist/functions).
 */
import type { Config, Context } from '@netlify/functions';
import { createFunctionHandler, netlifyEnvironment } from '../../functions/serverless.ts';

const handle = createFunctionHandler(netlifyEnvironment());

// `waitUntil`: the outbox is drained after a write while the platform keeps the instance. Public
// answers say `public, s-maxage`, which Netlify's CDN honours as they are: marking them durable as
// the pages entry does cost the busiest answers a third of their throughput (npm run bench -- --only=function).
export default (request: Request, context: Context) =>
  handle(request, { ip: context.ip || undefined, waitUntil: (promise) => context.waitUntil(promise) });

/** The app's own prefixes (functions/serverless.ts, API_PATHS; literal, as Netlify reads it from the built file). */
export const config: Config = {
  path: ['/api/*', '/auth/v1/*', '/openai/*', '/feeds/*', '/uploads/*', '/events/*.ics', '/healthz', '/readyz'],
};
