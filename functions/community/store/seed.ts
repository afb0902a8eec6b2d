/**
 * The demo content's writes (functions/community/demo.ts): categories and whole threads as written.
 */
import { communityCategories, communityFollows, communityPosts, communityThreads, type CategoryRow } from '../tables.ts';
import type { StoreDeps } from './shared.ts';
import { notifyChanged } from './visibility.ts';

/** The demo seed's writes: a category, and a whole thread at once. */
export function seedQueries({ db }: StoreDeps) {
  return {
    /** Inserts a category unless its slug exists (the demo seed): the row when this call made it. */
    async seedCategory(values: typeof communityCategories.$inferInsert): Promise<CategoryRow | undefined> {
      const [row] = await db.insert(communityCategories).values(values).onConflictDoNothing().returning();
      return row;
    },

    /**
     * A whole visible thread as the demo seed writes it: its posts in order at their own times (the
     * first is the opener), counted, with every author following it.
     */
    async seedThread(values: {
      categoryId: string;
      title: string;
      pinned: boolean;
      posts: { authorId: string; body: string; html: string; createdAt: Date }[];
    }): Promise<void> {
      const [first, ...replies] = values.posts;
      if (!first) return;
      const last = values.posts[values.posts.length - 1]!;
      const [thread] = await db
        .insert(communityThreads)
        .values({
          categoryId: values.categoryId,
          authorId: first.authorId,
          title: values.title,
          pinned: values.pinned,
          replyCount: replies.length,
          createdAt: first.createdAt,
          lastPostAt: last.createdAt,
        })
        .returning();
      await db.insert(communityPosts).values(values.posts.map((post, i) => ({ ...post, threadId: thread!.id, isOpener: i === 0 })));
      const followers = [...new Set(values.posts.map((p) => p.authorId))];
      await db.insert(communityFollows).values(followers.map((userId) => ({ threadId: thread!.id, userId })));
      await notifyChanged(db);
    },
  };
}
