/**
 * The composition's content part: the content service over git and the database, the staff
 * bodies' renderer, the public answer cache, signed downloads, gated content, course progress,
 * members' private feeds and the content channel's listener; and site search's server part, which
 * reads the gated text content, the community and the newsletter keep.
 */
import { bodyImageOrigins, type Config } from '../config.ts';
import { createCommunitySearch } from '../community/search/service.ts';
import { createStaffRenderer, type BodyRendererOptions } from '../content/body-renderer.ts';
import type { RenderBody } from '../content/body.ts';
import { createPublicContentCache, type PublicContentCache } from '../content/cache.ts';
import { createGatedContent } from '../content/gated/service.ts';
import type { MdxSource } from '../content/mdx-source.ts';
import { createProgressService } from '../content/progress/service.ts';
import { createContentService, type ContentService } from '../content/service.ts';
import { CONTENT_CHANNEL } from '../content/store.ts';
import { createFeedService } from '../feeds/service.ts';
import { createFileService } from '../files/service.ts';
import type { NewsletterArchive } from '../newsletter/archive/service.ts';
import type { BillingService } from '../payments/service.ts';
import type { Database } from '../platform/db/client.ts';
import { sharedCacheControl } from '../platform/http/cache-control.ts';
import type { Logger } from '../platform/logger.ts';
import type { StoragePort } from '../platform/storage/index.ts';
import type { Tokens } from '../platform/tokens.ts';
import { createSearchService } from '../search/service.ts';
import { PROTECTED_UPLOADS } from './uploads.ts';

/** What the content service and its renderer are built on. */
export interface ContentDeps {
  db: Database;
  mdx: MdxSource;
  config: Config;
  logger: Logger;
  /** The staff bodies' renderer's tuning (tests shorten its time limit). */
  staffRenderer: BodyRendererOptions | undefined;
}

/** The content service (its search text synced), the staff bodies' renderer and the public answer cache. */
export async function buildContent({ db, mdx, config, logger, staffRenderer: tuning }: ContentDeps) {
  const content = createContentService({ db: db.db, mdx, logger, downloadHosts: config.downloadHosts });
  // Site search's text of git articles and lessons as the files are now (idempotent; instances take turns).
  await content.search.sync();
  // Staff bodies (articles, events, lessons, newsletter issues) are parsed on a thread of their own,
  // each within a time limit, images only from the site and the public media host (body-renderer.ts).
  const staffRenderer = createStaffRenderer({ ...tuning, imageOrigins: bodyImageOrigins(config) });
  const render: RenderBody = (source, format) => staffRenderer.render(source, format);
  const contentCache = createPublicContentCache(content, { render, cacheControl: sharedCacheControl(config.cdnStalenessSeconds) });
  return { content, contentCache, staffRenderer, render };
}

/** What gated content and the parts that read it are built on. */
export interface GatedDeps {
  db: Database;
  config: Config;
  content: ContentService;
  contentCache: PublicContentCache;
  render: RenderBody;
  tokens: Tokens;
  /** Where member files uploaded at run time are kept (signed links reach them). */
  protectedArea: StoragePort;
}

/**
 * Signed downloads, gated content (cleared with the content, and with the public cache when another
 * instance writes: the listener is registered here), course progress and members' private feeds.
 */
export async function buildGatedContent({ db, config, content, contentCache, render, tokens, protectedArea }: GatedDeps) {
  const { siteUrl } = config;
  const downloads = createFileService({
    tokens,
    filesDir: config.filesDir,
    uploads: { prefix: PROTECTED_UPLOADS, storage: protectedArea },
    siteUrl,
    downloadHosts: config.downloadHosts,
  });
  const gated = createGatedContent({ content, files: downloads, render });
  content.onChange(() => gated.clear());
  // Another instance's write: drop every cached answer and rendered body.
  const clear = () => {
    contentCache.clear();
    gated.clear();
  };
  const unlistenContent = await db.listen(CONTENT_CHANNEL, clear, clear);
  const progress = createProgressService({ db: db.db, content });
  const feeds = createFeedService({ db: db.db, tokens, gated, contentCache, siteUrl });
  return { downloads, gated, progress, feeds, unlistenContent };
}

/** What site search's server part reads. */
export interface SiteSearchDeps {
  db: Database;
  content: ContentService;
  newsletterArchive: NewsletterArchive;
  /** Whose purchases open courses to the search (a buyer finds the lessons they own). */
  billing: BillingService;
}

/** Site search's server part: the gated text each domain keeps, cut at the caller's level (search/service.ts). */
export function buildSiteSearch({ db, content, newsletterArchive, billing }: SiteSearchDeps) {
  return createSearchService({
    db: db.db,
    content: content.search,
    community: createCommunitySearch({ db: db.db }),
    newsletter: newsletterArchive,
    ownedCourses: async (viewer) => (await billing.purchases(viewer)).filter((p) => p.type === 'course').map((p) => p.slug),
  });
}
