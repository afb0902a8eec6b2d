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
  /** The pages' header policy (src/lib/server/page-csp.ts `pagePolicy`), which the Astro middleware appends to its own. */
  pageCsp: string;
}

export interface PageLocalsOptions {
  /** The pages' header policy, with the configured image hosts. */
  pageCsp: string;
  /** Set in preview mode only. */
  preview?: PreviewContext | undefined;
}

/** The factory the site handler (and the dev server) call once per page request. */
export function createPageLocals(
  services: Pick<Services, 'contentCache' | 'newsletterArchive' | 'communityPages'>,
  { pageCsp, preview }: PageLocalsOptions,
) {
  const { reader } = services.contentCache;
  const newsletter = services.newsletterArchive.reader;
  const community = services.communityPages;
  return (_c?: AppContext): PageLocals => ({
    server: { content: reader, newsletter, community, ...(preview ? { preview } : {}) },
    pageCsp,
  });
}
