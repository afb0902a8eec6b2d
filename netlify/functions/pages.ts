/**
 * The pages no published file answers (a community thread, an event page, a 404), rendered by the
 * same app as the API (functions/serverless.ts) with the same headers the Node server gives them,
 * so the CDN keeps them within the staleness bound. Every address but the API's, the published files
 * first (`preferStatic`): a prebuilt page or asset never costs an invocation. Apart from the API
 * entry (api.ts) because Netlify gives a function one set of routes, and the API's must never yield
 * to a file.
 */
import type { Config, Context } from '@netlify/functions';
import { forNetlifyCdn } from '../../functions/platform/deploy/netlify.ts';
import { createFunctionHandler, netlifyEnvironment } from '../../functions/serverless.ts';

const handle = createFunctionHandler(netlifyEnvironment());

// Kept by Netlify's CDN within the staleness bound, like the public answers.
export default async (request: Request, context: Context) => forNetlifyCdn(await handle(request, { ip: context.ip || undefined }));

export const config: Config = {
  path: '/*',
  excludedPath: ['/api/*', '/auth/v1/*', '/openai/*', '/feeds/*', '/uploads/*', '/events/*.ics', '/healthz', '/readyz'],
  preferStatic: true,
};
