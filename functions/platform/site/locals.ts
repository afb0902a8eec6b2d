/**
 * Astro.locals for one page request: the server data that on-demand pages read through
 * `serverContext(locals)` (src/lib/server/context.ts). Built per request, so request-specific data
 * (the viewer, with accounts) joins the shared services here.
 */
import type { PreviewContext, ServerContext } from '../../../src/lib/server/context.ts';
import type { AppContext } from '../http/context.ts';
import type { Services } from '../../compose.ts';

export interface PageLocals {
  server: ServerContext;
}

/** The factory the site handler (and the dev server) call once per page request; `preview` in preview mode. */
export function createPageLocals(
  services: Pick<Services, 'contentCache' | 'newsletterArchive' | 'communityPages' | 'billing'>,
  preview?: PreviewContext,
) {
  const { reader } = services.contentCache;
  const newsletter = services.newsletterArchive.reader;
  const community = services.communityPages;
  const paymentMode = services.billing.mode;
  return (_c?: AppContext): PageLocals => ({
    server: { content: reader, newsletter, community, paymentMode, ...(preview ? { preview } : {}) },
  });
}
