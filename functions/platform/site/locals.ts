/**
 * Astro.locals for one page request: the server data that on-demand pages read through
 * `serverContext(locals)` (src/lib/server/context.ts). Built per request, so request-specific data
 * (the viewer, with accounts) joins the shared services here, and the site handler learns what the
 * render read: a page that read only public content is kept until the next content write.
 */
import type { PreviewContext, ServerContext } from '#server/context.ts';
import type { AppContext } from '../http/context.ts';
import type { Services } from '../../compose.ts';

export interface PageLocals {
  server: ServerContext;
  /** Set when the render read anything but public content (the newsletter archive, the community). */
  readBeyondContent: boolean;
  /** The pages' header policy (src/lib/server/page-csp.ts `pagePolicy`), which the Astro middleware appends to its own. */
  pageCsp: string;
}

export interface PageLocalsOptions {
  /** The run-time SITE_URL: every absolute URL a page writes starts with it. */
  siteUrl: string;
  /** The pages' header policy, with the configured image hosts. */
  pageCsp: string;
  /** Set in preview mode only. */
  preview?: PreviewContext | undefined;
}

/** The factory the site handler (and the dev server) call once per page request. */
export function createPageLocals(
  services: Pick<Services, 'contentCache' | 'newsletterArchive' | 'communityPages' | 'billing'>,
  { siteUrl, pageCsp, preview }: PageLocalsOptions,
) {
  const { reader } = services.contentCache;
  const newsletter = services.newsletterArchive.reader;
  const community = services.communityPages;
  const paymentMode = services.billing.mode;
  return (_c?: AppContext): PageLocals => {
    const locals: PageLocals = { readBeyondContent: false, pageCsp } as PageLocals;
    locals.server = {
      content: reader,
      siteUrl,
      paymentMode,
      get newsletter() {
        locals.readBeyondContent = true;
        return newsletter;
      },
      get community() {
        locals.readBeyondContent = true;
        return community;
      },
      ...(preview ? { preview } : {}),
    };
    return locals;
  };
}
