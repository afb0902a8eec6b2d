/**
 * Posts: a thread's posts page by keyset on `(created_at, id)` (`community_posts_thread_idx`); a reply
 * counts on its thread and is heard of by its followers as it becomes visible.
 */
import { and, asc, eq, getTableColumns, ne, sql } from 'drizzle-orm';
import {
  communityCategories,
  communityLikes,
  communityPosts,
  communityThreads,
  type CategoryRow,
  type PostRow,
  type ThreadRow,
} from '../tables.ts';
import { micros, instant, readable, type PostCursor, type Reader, type PostListRow, type NewPost, type StoreDeps } from './shared.ts';
import { notifyChanged, followReply, countReply } from './visibility.ts';

/** Posts: listed by keyset, found, replied, held back and edited. */
export function postQueries({ db }: StoreDeps) {
  return {
    /** One page of a thread's posts the reader may see, oldest first, with whether the reader liked each. */
    listPosts(threadId: string, reader: Reader, after: PostCursor | undefined, limit: number): Promise<PostListRow[]> {
      const p = communityPosts;
      const liked = reader.id
        ? sql<boolean>`exists (select 1 from ${communityLikes} where ${communityLikes.postId} = ${p.id} and ${communityLikes.userId} = ${reader.id})`
        : sql<boolean>`false`;
      return db
        .select({ ...getTableColumns(p), micros: micros(p.createdAt), liked })
        .from(p)
        .where(
          and(
            eq(p.threadId, threadId),
            readable(p.status, p.authorId, reader, ['visible', 'hidden', 'deleted']),
            after ? sql`(${p.createdAt}, ${p.id}) > (${instant(after.micros)}, ${after.id})` : undefined,
          ),
        )
        .orderBy(asc(p.createdAt), asc(p.id))
        .limit(limit);
    },

    /** A post with its thread and the thread's category. */
    async post(id: string): Promise<{ post: PostRow; thread: ThreadRow; category: CategoryRow | null } | undefined> {
      const [row] = await db
        .select({ post: communityPosts, thread: communityThreads, category: communityCategories })
        .from(communityPosts)
        .innerJoin(communityThreads, eq(communityThreads.id, communityPosts.threadId))
        .leftJoin(communityCategories, eq(communityCategories.id, communityThreads.categoryId))
        .where(eq(communityPosts.id, id));
      return row;
    },

    /** Adds a reply, in the caller's transaction; a visible one is counted and heard of at once. */
    async createReply(values: NewPost): Promise<PostRow> {
      const [post] = await db.insert(communityPosts).values(values).returning();
      if (post!.status === 'visible') {
        await countReply(db, post!, true);
        await followReply(db, post!.threadId, post!.authorId);
        await notifyChanged(db);
      }
      return post!;
    },

    /**
     * A visible post back to held (its author edited a link in before they are trusted): a reply
     * stops counting, an opener holds its thread again.
     */
    async holdPost(postId: string): Promise<void> {
      const [post] = await db
        .update(communityPosts)
        .set({ status: 'held' })
        .where(and(eq(communityPosts.id, postId), eq(communityPosts.status, 'visible')))
        .returning();
      if (!post) return;
      await db
        .update(communityThreads)
        .set(
          post.isOpener
            ? { status: 'held', updatedAt: sql`now()` }
            : { replyCount: sql`greatest(${communityThreads.replyCount} - 1, 0)`, updatedAt: sql`now()` },
        )
        .where(and(eq(communityThreads.id, post.threadId), post.isOpener ? eq(communityThreads.status, 'visible') : undefined));
      await notifyChanged(db);
    },

    /** Replaces the member's own post's text (marked edited); undefined when it is not theirs or is deleted. */
    async editPost(postId: string, authorId: string, text: Pick<PostRow, 'body' | 'html'>): Promise<PostRow | undefined> {
      const [row] = await db
        .update(communityPosts)
        .set({ ...text, editedAt: sql`now()` })
        .where(and(eq(communityPosts.id, postId), eq(communityPosts.authorId, authorId), ne(communityPosts.status, 'deleted')))
        .returning();
      return row;
    },
  };
}
