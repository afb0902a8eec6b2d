/**
 * The composition's community part: the forum with its access rule and its members' renderer, what
 * the community's pages read, the public search index (made from what visitors read), the community
 * channel's listener, moderation, categories and reply mails.
 */
import type { Config } from '../config.ts';
import { createCommunityAccess } from '../community/access.ts';
import { createCategoryAdmin } from '../community/moderation/categories.ts';
import { createModerationService } from '../community/moderation/service.ts';
import { createNotificationService } from '../community/notifications/service.ts';
import { createCommunityPageReader } from '../community/pages.ts';
import { createCommunityService } from '../community/service.ts';
import { COMMUNITY_CHANNEL } from '../community/store.ts';
import { createMemberRenderer } from '../content/body-renderer.ts';
import type { PublicContentCache } from '../content/cache.ts';
import type { GatedContent } from '../content/gated/service.ts';
import type { ContentService } from '../content/service.ts';
import type { EmailService } from '../email/service.ts';
import type { NewsletterArchive } from '../newsletter/archive/service.ts';
import type { RateLimitService } from '../platform/abuse/service.ts';
import type { Database } from '../platform/db/client.ts';
import { sharedCacheControl } from '../platform/http/cache-control.ts';
import type { Logger } from '../platform/logger.ts';
import type { Tokens } from '../platform/tokens.ts';
import { createPublicSearchIndex } from '../search/index.ts';

/** What the community's services are built on. */
export interface CommunityDeps {
  db: Database;
  config: Config;
  logger: Logger;
  content: ContentService;
  contentCache: PublicContentCache;
  gated: GatedContent;
  limiter: RateLimitService;
  outbox: EmailService;
  tokens: Tokens;
  /** The newsletter's archive, which the public search index lists too. */
  newsletterArchive: NewsletterArchive;
}

/** The community's services; registers the public index on the content cache's clears and listens on the community channel. */
export async function buildCommunity({
  db,
  config,
  logger,
  content,
  contentCache,
  gated,
  limiter,
  outbox,
  tokens,
  newsletterArchive,
}: CommunityDeps) {
  const { siteUrl } = config;
  const communityAccess = createCommunityAccess({ content, gated });
  // Members' posts are parsed on a thread of their own, each within a time limit (member-renderer.ts).
  const memberRenderer = createMemberRenderer();
  const community = createCommunityService({
    db: db.db,
    access: communityAccess,
    limiter,
    cacheControl: sharedCacheControl(config.cdnStalenessSeconds),
    renderPost: (source) => memberRenderer.render(source),
  });
  const communityPages = createCommunityPageReader(community);
  // The public search index (issue 36): what visitors read, made again when it changes (functions/search/).
  const publicIndex = createPublicSearchIndex({
    content: contentCache.reader,
    contentDir: config.contentDir,
    newsletter: newsletterArchive.reader,
    community: communityPages,
    cacheControl: sharedCacheControl(config.cdnStalenessSeconds),
    stalenessSeconds: config.cdnStalenessSeconds,
    logger,
  });
  contentCache.onClear(publicIndex.contentChanged);
  // Another instance's community write (or a missed notice): drop the visitors' serialised answers.
  const communityChanged = () => {
    community.changed();
    publicIndex.changed();
  };
  const unlistenCommunity = await db.listen(COMMUNITY_CHANNEL, communityChanged, communityChanged);
  // Moderation: members' reports, staff's queue and actions, suspensions, the log; categories for admins.
  const communityModeration = createModerationService({
    db: db.db,
    limiter,
    content,
    canRead: (viewer, threadId) => community.mayRead(viewer, threadId),
    onChange: communityChanged,
  });
  const communityCategories = createCategoryAdmin({ db: db.db, onChange: communityChanged });
  // Reply mails: the members' settings and mutes, and the round that mails followers (started in `start()`).
  const { roundMs } = config.communityMail;
  const communityNotifications = createNotificationService({
    db: db.db,
    outbox,
    tokens,
    access: communityAccess,
    siteUrl,
    logger,
    roundMs,
  });
  return {
    /** The community: categories, threads, replies, comments, likes, search. */
    community,
    /** What the community's pages read on the server: what a visitor may read, nothing more. */
    communityPages,
    /** The public search index's files (/pagefind/), made from what visitors read. */
    publicIndex,
    /** Community moderation: reports, the queue, staff's actions, suspensions and the log. */
    communityModeration,
    /** The community's categories as admins manage them. */
    communityCategories,
    /** Community reply mails: settings, mutes, the mail's links and the round (ticking once started). */
    communityNotifications,
    memberRenderer,
    unlistenCommunity,
  };
}
