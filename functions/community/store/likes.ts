/**
 * Likes: `community_likes` holds who liked what, the post's `like_count` the figure lists show.
 */
import { and, eq, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../platform/db/client.ts';
import { communityLikes, communityPosts } from '../tables.ts';
import type { StoreDeps } from './shared.ts';

/** Likes, once per member: the count on the post moves only when a like is new or taken back. */
export function likeQueries({ db }: StoreDeps) {
  return {
    /** Likes a post once per member: the count moves only when the like is new. */
    async like(postId: string, userId: string): Promise<number> {
      const added = await db.insert(communityLikes).values({ postId, userId }).onConflictDoNothing().returning();
      return added.length ? bumpLikes(db, postId, 1) : likeCount(db, postId);
    },

    /** Takes a like back: the count moves only when there was one. */
    async unlike(postId: string, userId: string): Promise<number> {
      const removed = await db
        .delete(communityLikes)
        .where(and(eq(communityLikes.postId, postId), eq(communityLikes.userId, userId)))
        .returning();
      return removed.length ? bumpLikes(db, postId, -1) : likeCount(db, postId);
    },
  };
}

async function bumpLikes(db: DbOrTx, postId: string, by: 1 | -1): Promise<number> {
  const [row] = await db
    .update(communityPosts)
    .set({ likeCount: sql`greatest(${communityPosts.likeCount} + ${by}, 0)` })
    .where(eq(communityPosts.id, postId))
    .returning({ likeCount: communityPosts.likeCount });
  return row?.likeCount ?? 0;
}

async function likeCount(db: DbOrTx, postId: string): Promise<number> {
  const [row] = await db.select({ likeCount: communityPosts.likeCount }).from(communityPosts).where(eq(communityPosts.id, postId));
  return row?.likeCount ?? 0;
}
