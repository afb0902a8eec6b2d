/**
 * Members' private RSS feeds. Each member gets one feed URL holding a signed token (their id and a
 * version); resetting the link bumps the version, which revokes every earlier URL. The feed is the
 * public blog feed plus the full body of each article the member may read at the time of the fetch
 * (their level now, not when the link was made), so an ended plan stops feeding bodies at once.
 */
import { checkAccess } from '#shared/access.ts';
import { blogFeedXml } from '#server/rss.ts';
import { SITE } from '#shared/site.ts';
import type { GatedContent } from '../content/index.ts';
import type { PublicContentCache } from '../content/index.ts';
import type { Db } from '../platform/db/client.ts';
import type { Tokens } from '../platform/tokens.ts';
import { memberFeedLinks } from '../users/index.ts';
import type { Viewer } from '../users/index.ts';

export interface FeedServiceDeps {
  db: Db;
  tokens: Tokens;
  gated: GatedContent;
  contentCache: PublicContentCache;
  siteUrl: string;
}

export function createFeedService({ db, tokens, gated, contentCache, siteUrl }: FeedServiceDeps) {
  // The link version lives on the member's profile: read and bumped through the users domain.
  const links = memberFeedLinks(db);
  const urlFor = async (id: string, version: number) =>
    `${siteUrl}/feeds/${await tokens.sign('member-feed', { sub: id, v: version })}/rss.xml`;

  return {
    /** The member's current private feed URL. */
    async url(viewer: Viewer): Promise<{ url: string }> {
      const member = await links.member(viewer.id);
      return { url: await urlFor(viewer.id, member?.v ?? 1) };
    },

    /** Revokes every earlier feed URL and answers the new one. */
    async reset(viewer: Viewer): Promise<{ url: string }> {
      const version = await links.bump(viewer.id);
      return { url: await urlFor(viewer.id, version ?? 1) };
    },

    /** The feed a token opens, or undefined when the token is invalid, revoked or its member gone. */
    async render(token: string): Promise<string | undefined> {
      const verified = await tokens.verify<{ sub?: string; v?: number }>('member-feed', token);
      if (!verified.ok || typeof verified.claims.sub !== 'string') return undefined;
      const member = await links.member(verified.claims.sub);
      if (!member || member.v !== verified.claims.v) return undefined;
      const posts = await contentCache.reader.list('blog');
      const bodies = new Map<string, string>();
      for (const post of posts) {
        if (checkAccess(member, post.accessLevel).allowed) bodies.set(post.slug, await gated.articleHtml(member, post.slug));
      }
      return blogFeedXml({ posts, siteUrl, self: `/feeds/${token}/rss.xml`, title: `${SITE.name} Blog (members)`, bodies });
    },
  };
}

export type FeedService = ReturnType<typeof createFeedService>;
