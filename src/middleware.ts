/**
 * Astro middleware. On-demand pages get their Content-Security-Policy from Astro as a header (with
 * the script/style hashes), which would replace the server's page policy; ours is appended so the
 * page keeps frame-ancestors, base-uri, object-src, form-action and img-src too (the server's policy,
 * with its configured image hosts, arrives in `locals.pageCsp`). Prebuilt pages are unaffected: their
 * policy is a <meta> and the server adds the header. A render without the server's policy in its
 * locals (the build's page snapshots, src/integrations/page-snapshots.ts) keeps Astro's as it is: the
 * server appends its own when it serves the snapshot.
 */
import { defineMiddleware } from 'astro:middleware';
import { withPageCsp } from './lib/server/page-csp.ts';

export const onRequest = defineMiddleware(async (context, next) => {
  const response = await next();
  if (context.isPrerendered || context.locals.pageCsp === undefined) return response;
  const policy = response.headers.get('content-security-policy');
  if (policy) response.headers.set('Content-Security-Policy', withPageCsp(policy, context.locals.pageCsp));
  return response;
});
