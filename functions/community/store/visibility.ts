/**
 * Where a post's visibility changes, with everything that moves with it: the four functions the
 * moderation part calls too (`publishPost`, `withdrawPost`, `publishThread`, `withdrawThread`) keep a
 * thread's `reply_count` and `last_post_at` and the followers' `pending_since` in step, in the
 * transaction of the change, and tell every instance the public lists changed (`announce`,
 * COMMUNITY_CHANNEL).
 */
import { and, eq, ne, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../platform/db/client.ts';
import { announce } from '../../platform/changes/store.ts';
import { communityFollows, communityPosts, communityThreads, type PostRow, type ThreadRow } from '../tables.ts';

/** Where a change to what the community's lists show is announced to every instance (compose.ts listens). */
export const COMMUNITY_CHANNEL = 'community_changed';

/** Tells every instance (this one included) that what the community's lists show changed. */
export async function notifyChanged(tx: DbOrTx): Promise<void> {
  await announce(tx, COMMUNITY_CHANNEL);
}

/**
 * After a reply became visible (posted, or approved): the replier follows the thread, and every
 * other follower who has not muted it has a reply waiting for their next mail (`pending_since`
 * keeps the first one not yet mailed; the notifications part reads and clears it).
 */
export async function followReply(tx: DbOrTx, threadId: string, replierId: string | null): Promise<void> {
  if (replierId) await tx.insert(communityFollows).values({ threadId, userId: replierId }).onConflictDoNothing();
  await tx
    .update(communityFollows)
    .set({ pendingSince: sql`coalesce(${communityFollows.pendingSince}, now())` })
    .where(
      and(
        eq(communityFollows.threadId, threadId),
        eq(communityFollows.muted, false),
        replierId ? ne(communityFollows.userId, replierId) : undefined,
      ),
    );
}

/** A reply just became visible: the thread counts it, moves up its list, and its followers hear of it. */
export async function countReply(tx: DbOrTx, post: PostRow, bump: boolean): Promise<void> {
  await tx
    .update(communityThreads)
    .set({
      replyCount: sql`${communityThreads.replyCount} + 1`,
      ...(bump ? { lastPostAt: sql`greatest(${communityThreads.lastPostAt}, now())` } : {}),
      updatedAt: sql`now()`,
    })
    .where(eq(communityThreads.id, post.threadId));
}

async function lockPost(tx: DbOrTx, postId: string): Promise<PostRow | undefined> {
  const [row] = await tx.select().from(communityPosts).where(eq(communityPosts.id, postId)).for('update');
  return row;
}

async function lockThread(tx: DbOrTx, threadId: string): Promise<ThreadRow | undefined> {
  const [row] = await tx.select().from(communityThreads).where(eq(communityThreads.id, threadId)).for('update');
  return row;
}

/**
 * Makes a held or hidden post visible, with every side effect: an approved opener opens its held
 * thread (moved to the top of its list); a reply is counted, and when it was held (appearing for
 * the first time) it moves the thread up and its followers hear of it. Undefined when the post is
 * unknown or not held or hidden (a deleted post stays deleted).
 */
export async function publishPost(tx: DbOrTx, postId: string): Promise<PostRow | undefined> {
  const before = await lockPost(tx, postId);
  if (!before || (before.status !== 'held' && before.status !== 'hidden')) return undefined;
  const firstShown = before.status === 'held';
  const [post] = await tx.update(communityPosts).set({ status: 'visible' }).where(eq(communityPosts.id, postId)).returning();
  if (post!.isOpener) {
    if (firstShown)
      await tx
        .update(communityThreads)
        .set({ status: 'visible', lastPostAt: sql`now()`, updatedAt: sql`now()` })
        .where(and(eq(communityThreads.id, post!.threadId), eq(communityThreads.status, 'held')));
  } else {
    await countReply(tx, post!, firstShown);
    if (firstShown) await followReply(tx, post!.threadId, post!.authorId);
  }
  await notifyChanged(tx);
  return post;
}

/**
 * Takes a post out of view: `hidden` by staff (kept, so it can be shown again) or `deleted` (by its
 * author, staff or the account's deletion: body and HTML emptied for good). A visible reply stops
 * counting; a held opener takes its held thread with it. Undefined when the post is unknown or
 * already in that state (or deleted).
 */
export async function withdrawPost(tx: DbOrTx, postId: string, status: 'hidden' | 'deleted'): Promise<PostRow | undefined> {
  const before = await lockPost(tx, postId);
  if (!before || before.status === status || before.status === 'deleted') return undefined;
  const erased = status === 'deleted' ? { body: '', html: '', deletedAt: sql`now()` } : {};
  const [post] = await tx
    .update(communityPosts)
    .set({ status, ...erased })
    .where(eq(communityPosts.id, postId))
    .returning();
  if (before.status === 'visible' && !before.isOpener)
    await tx
      .update(communityThreads)
      .set({ replyCount: sql`greatest(${communityThreads.replyCount} - 1, 0)`, updatedAt: sql`now()` })
      .where(eq(communityThreads.id, before.threadId));
  if (before.isOpener && before.status === 'held')
    await tx
      .update(communityThreads)
      .set({ status, updatedAt: sql`now()` })
      .where(and(eq(communityThreads.id, before.threadId), eq(communityThreads.status, 'held')));
  await notifyChanged(tx);
  return post;
}

/**
 * Makes a held or hidden thread visible: a held one through its opener (`publishPost`, which opens
 * the thread), a hidden one as it was, unless its opener still waits for approval: a held thread
 * staff hid and then unhid goes back to held, so its title never shows unapproved. Undefined when
 * the thread is unknown or not held or hidden.
 */
export async function publishThread(tx: DbOrTx, threadId: string): Promise<ThreadRow | undefined> {
  const before = await lockThread(tx, threadId);
  if (!before || (before.status !== 'held' && before.status !== 'hidden')) return undefined;
  const [opener] = await tx
    .select({ id: communityPosts.id, status: communityPosts.status })
    .from(communityPosts)
    .where(and(eq(communityPosts.threadId, threadId), eq(communityPosts.isOpener, true)));
  if (before.status === 'held' && opener) await publishPost(tx, opener.id);
  const unapproved = before.status === 'hidden' && opener?.status === 'held';
  const [thread] = await tx
    .update(communityThreads)
    .set({ status: unapproved ? 'held' : 'visible', updatedAt: sql`now()` })
    .where(eq(communityThreads.id, threadId))
    .returning();
  await notifyChanged(tx);
  return thread;
}

/**
 * Takes a thread out of every member's view (`hidden`, or `deleted`): its posts stay as they are,
 * for staff (who still see it, marked) and for the moderation log. Undefined when unknown or already so.
 */
export async function withdrawThread(tx: DbOrTx, threadId: string, status: 'hidden' | 'deleted'): Promise<ThreadRow | undefined> {
  const before = await lockThread(tx, threadId);
  if (!before || before.status === status || before.status === 'deleted') return undefined;
  const [thread] = await tx
    .update(communityThreads)
    .set({ status, updatedAt: sql`now()` })
    .where(eq(communityThreads.id, threadId))
    .returning();
  await notifyChanged(tx);
  return thread;
}
