/**
 * What the community knows of a member's account: their standing to post, their part of the data
 * export, and what the account's deletion does to their posts and likes.
 */
import { and, asc, count, eq, inArray, isNotNull, ne, or, sql } from 'drizzle-orm';
import type { DataSubject } from '../../users/index.ts';
import {
  communityCategories,
  communityFollows,
  communityLikes,
  communityMembers,
  communityPosts,
  communityReports,
  communityThreads,
} from '../tables.ts';
import type { StoreDeps } from './shared.ts';
import { withdrawPost } from './visibility.ts';

/** A member's standing to post: a suspension, and how many of their posts are visible. */
export function standingQueries({ db }: StoreDeps) {
  return {
    /** The member's standing: suspended from posting now (until when: null for indefinitely), or not. */
    async suspension(userId: string): Promise<{ until: Date | null; reason: string | null } | undefined> {
      const [row] = await db
        .select()
        .from(communityMembers)
        .where(
          and(
            eq(communityMembers.userId, userId),
            isNotNull(communityMembers.suspendedAt),
            or(sql`${communityMembers.suspendedUntil} is null`, sql`${communityMembers.suspendedUntil} > now()`),
          ),
        );
      return row ? { until: row.suspendedUntil, reason: row.suspendedReason } : undefined;
    },

    /** How many of the member's posts are visible (the hold rule trusts a member after a few). */
    async visiblePosts(userId: string): Promise<number> {
      const [row] = await db
        .select({ n: count() })
        .from(communityPosts)
        .where(and(eq(communityPosts.authorId, userId), eq(communityPosts.status, 'visible')));
      return row?.n ?? 0;
    },
  };
}

/** A member's part of the data export and of the account's deletion. */
export function accountQueries({ db }: StoreDeps) {
  return {
    /** The member's part of their data export: what they wrote, liked and reported, and their settings. */
    async personalData({ id }: DataSubject) {
      const [threads, posts, likes, reports, member, follows] = await Promise.all([
        db
          .select({
            id: communityThreads.id,
            title: communityThreads.title,
            category: communityCategories.slug,
            contentId: communityThreads.contentId,
            status: communityThreads.status,
            createdAt: communityThreads.createdAt,
          })
          .from(communityThreads)
          .leftJoin(communityCategories, eq(communityCategories.id, communityThreads.categoryId))
          .where(eq(communityThreads.authorId, id))
          .orderBy(asc(communityThreads.createdAt)),
        db
          .select({
            id: communityPosts.id,
            threadId: communityPosts.threadId,
            body: communityPosts.body,
            status: communityPosts.status,
            createdAt: communityPosts.createdAt,
            editedAt: communityPosts.editedAt,
          })
          .from(communityPosts)
          .where(eq(communityPosts.authorId, id))
          .orderBy(asc(communityPosts.createdAt)),
        db
          .select({ postId: communityLikes.postId, createdAt: communityLikes.createdAt })
          .from(communityLikes)
          .where(eq(communityLikes.userId, id)),
        db
          .select({
            postId: communityReports.postId,
            reason: communityReports.reason,
            createdAt: communityReports.createdAt,
            resolvedAt: communityReports.resolvedAt,
            resolution: communityReports.resolution,
          })
          .from(communityReports)
          .where(eq(communityReports.reporterId, id)),
        db
          .select({ notifications: communityMembers.notifications, suspendedUntil: communityMembers.suspendedUntil })
          .from(communityMembers)
          .where(eq(communityMembers.userId, id)),
        db
          .select({ threadId: communityFollows.threadId, muted: communityFollows.muted })
          .from(communityFollows)
          .where(eq(communityFollows.userId, id)),
      ]);
      return {
        community: { threads, posts, likes, reports, settings: member[0] ?? null, follows },
      };
    },

    /**
     * Account deletion: every post of the member is deleted (body and HTML emptied, visible replies
     * no longer counted) so their threads still read, as a deleted member's; their likes stop
     * counting. The rest (likes, follows, standing) goes with the profile's foreign keys, and the
     * author columns become null then.
     */
    async erase({ id }: DataSubject): Promise<void> {
      const posts = await db
        .select({ id: communityPosts.id })
        .from(communityPosts)
        .where(and(eq(communityPosts.authorId, id), ne(communityPosts.status, 'deleted')));
      for (const post of posts) await withdrawPost(db, post.id, 'deleted');
      const liked = await db.delete(communityLikes).where(eq(communityLikes.userId, id)).returning({ postId: communityLikes.postId });
      if (liked.length)
        await db
          .update(communityPosts)
          .set({ likeCount: sql`greatest(${communityPosts.likeCount} - 1, 0)` })
          .where(
            inArray(
              communityPosts.id,
              liked.map((l) => l.postId),
            ),
          );
    },
  };
}
