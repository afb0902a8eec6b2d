/**
 * Threads: a thread list pages by keyset on `(pinned, last_post_at, id)` descending
 * (`community_threads_list_idx`); a new thread's author follows it.
 */
import { and, desc, eq, getTableColumns, sql } from 'drizzle-orm';
import {
  communityCategories,
  communityFollows,
  communityPosts,
  communityThreads,
  type CategoryRow,
  type PostRow,
  type ThreadRow,
} from '../tables.ts';
import { micros, instant, readable, type ThreadCursor, type Reader, type ThreadListRow, type NewThread, type StoreDeps } from './shared.ts';
import { notifyChanged } from './visibility.ts';

/** Threads: found, listed by keyset, started (with their opener), and a content item's comments thread. */
export function threadQueries({ db }: StoreDeps) {
  return {
    /** A thread with its category (null for comments). */
    async thread(id: string): Promise<{ thread: ThreadRow; category: CategoryRow | null } | undefined> {
      const [row] = await db
        .select({ thread: communityThreads, category: communityCategories })
        .from(communityThreads)
        .leftJoin(communityCategories, eq(communityCategories.id, communityThreads.categoryId))
        .where(eq(communityThreads.id, id));
      return row;
    },

    /** The comments thread of a content item (`contentId` as the service builds it), if one was started. */
    async threadByContent(contentId: string): Promise<ThreadRow | undefined> {
      const [row] = await db.select().from(communityThreads).where(eq(communityThreads.contentId, contentId));
      return row;
    },

    /** One page of a category's threads the reader may see: pinned first, then latest post first. */
    listThreads(categoryId: string, reader: Reader, after: ThreadCursor | undefined, limit: number): Promise<ThreadListRow[]> {
      const t = communityThreads;
      return db
        .select({ ...getTableColumns(t), micros: micros(t.lastPostAt) })
        .from(t)
        .where(
          and(
            eq(t.categoryId, categoryId),
            readable(t.status, t.authorId, reader, ['visible']),
            after ? sql`(${t.pinned}, ${t.lastPostAt}, ${t.id}) < (${after.pinned}, ${instant(after.micros)}, ${after.id})` : undefined,
          ),
        )
        .orderBy(desc(t.pinned), desc(t.lastPostAt), desc(t.id))
        .limit(limit);
    },

    /** Whether the member follows the thread and muted it: undefined when they do not follow it. */
    async follow(threadId: string, userId: string): Promise<{ muted: boolean } | undefined> {
      const [row] = await db
        .select({ muted: communityFollows.muted })
        .from(communityFollows)
        .where(and(eq(communityFollows.threadId, threadId), eq(communityFollows.userId, userId)));
      return row;
    },

    /**
     * Starts a thread with its opening post, in the caller's transaction; its author follows it.
     * A held thread's opener is held too.
     */
    async createThread(values: NewThread, opener: Pick<PostRow, 'body' | 'html'>): Promise<{ thread: ThreadRow; post: PostRow }> {
      const [thread] = await db.insert(communityThreads).values(values).returning();
      const [post] = await db
        .insert(communityPosts)
        .values({ threadId: thread!.id, authorId: values.authorId, isOpener: true, status: values.status, ...opener })
        .returning();
      await db.insert(communityFollows).values({ threadId: thread!.id, userId: values.authorId }).onConflictDoNothing();
      if (values.status === 'visible') await notifyChanged(db);
      return { thread: thread!, post: post! };
    },

    /**
     * The comments thread of a content item, made by the first comment (in the caller's
     * transaction; two first comments at once make one thread). It has no author and no opener:
     * every comment is a reply, and each commenter follows it as they post.
     */
    async commentsThread(contentId: string, title: string): Promise<ThreadRow> {
      const [made] = await db
        .insert(communityThreads)
        .values({ contentId, title, status: 'visible' })
        .onConflictDoNothing({ target: communityThreads.contentId })
        .returning();
      if (made) return made;
      const [row] = await db.select().from(communityThreads).where(eq(communityThreads.contentId, contentId));
      return row!;
    },
  };
}
