/**
 * The community's SQL on categories, threads, posts, likes, members' standing and follows (the
 * moderation and notification parts keep theirs in their own stores). Longer than the house's file
 * size on purpose: every count a post keeps (a thread's `reply_count` and `last_post_at`, a post's
 * `like_count`, the followers' `pending_since`) moves here, in the transaction of the change, so one
 * file shows every place they move.
 *
 * Lists page by keyset (never by offset): threads by `(pinned, last_post_at, id)` descending on
 * `community_threads_list_idx`, posts by `(created_at, id)` on `community_posts_thread_idx`. A
 * cursor's time travels as microseconds since the epoch (`micros`), so a page boundary is exact:
 * a JavaScript Date would drop the microseconds Postgres keeps and repeat or skip rows.
 *
 * A post's visibility changes in four functions the moderation part calls too (`publishPost`,
 * `withdrawPost`, `publishThread`, `withdrawThread`): each keeps the counts and the followers in
 * step and tells every instance the public lists changed (`announce`, COMMUNITY_CHANNEL).
 */
import { and, asc, count, desc, eq, getTableColumns, inArray, isNotNull, ne, or, sql, type AnyColumn, type SQL } from 'drizzle-orm';
import type { DbOrTx } from '../platform/db/client.ts';
import { announce } from '../platform/changes/store.ts';
import type { DataSubject } from '../users/index.ts';
import {
  communityCategories,
  communityFollows,
  communityLikes,
  communityMembers,
  communityPosts,
  communityReports,
  communityThreads,
  type CategoryRow,
  type PostRow,
  type PostStatus,
  type ThreadRow,
} from './tables.ts';

/** Where a change to what the community's lists show is announced to every instance (compose.ts listens). */
export const COMMUNITY_CHANNEL = 'community_changed';

/** How much of a post a search excerpt is cut from. */
const EXCERPT_SOURCE_CHARS = 2000;

/** A keyset position in a thread list: the last row's pin, `last_post_at` (µs) and id. */
export interface ThreadCursor {
  pinned: boolean;
  micros: string;
  id: string;
}

/** A keyset position in a thread's posts: the last row's `created_at` (µs) and id. */
export interface PostCursor {
  micros: string;
  id: string;
}

/** Who reads: the member's id (their own held posts show) and whether they are staff (everything shows, marked). */
export interface Reader {
  id: string | undefined;
  staff: boolean;
}

/** A category with what /community shows beside it. */
export interface CategoryStats extends CategoryRow {
  threadCount: number;
  lastPostAt: Date | null;
}

export type ThreadListRow = ThreadRow & { micros: string };
/** A search hit: the post, its thread and category, and a plain-text excerpt around the match. */
export interface SearchRow {
  postId: string;
  threadId: string;
  title: string;
  threadStatus: ThreadRow['status'];
  status: PostRow['status'];
  isOpener: boolean;
  authorId: string | null;
  createdAt: Date;
  micros: string;
  categorySlug: string;
  categoryName: string;
  excerpt: string;
}
export type PostListRow = PostRow & { micros: string; liked: boolean };
export type NewThread = Pick<ThreadRow, 'title' | 'status'> & { categoryId: string | null; contentId: string | null; authorId: string };
export type NewPost = Pick<PostRow, 'threadId' | 'authorId' | 'body' | 'html' | 'status'> & { isOpener?: boolean; createdAt?: Date };

/** A timestamp column as microseconds since the epoch, in text (exact; bigint would not fit a JS number safely). */
const micros = (column: AnyColumn) => sql<string>`(extract(epoch from ${column}) * 1000000)::bigint::text`;
/** The instant a cursor names, exactly. */
const instant = (us: string) => sql`(timestamptz 'epoch' + ${us}::bigint * interval '1 microsecond')`;

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
async function countReply(tx: DbOrTx, post: PostRow, bump: boolean): Promise<void> {
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

/**
 * What a reader may see of a list's rows: staff everything (marked by status); members the rows
 * `shown` to everyone, and their own held ones. A thread list shows visible threads; a thread's
 * posts keep the places of hidden and deleted ones too (with no HTML, answers.ts).
 */
function readable(status: AnyColumn, author: AnyColumn, reader: Reader, shown: PostStatus[]): SQL | undefined {
  if (reader.staff) return undefined;
  const everyone = inArray(status, shown);
  return reader.id ? or(everyone, and(eq(status, 'held'), sql`${author} = ${reader.id}`)) : everyone;
}

export function createCommunityStore(db: DbOrTx) {
  return {
    /** Every category in display order, with its visible threads' count and latest post. */
    async categories(): Promise<CategoryStats[]> {
      const rows = await db
        .select({
          category: communityCategories,
          threadCount: sql<number>`count(${communityThreads.id})::int`,
          lastPostAt: sql<Date | null>`max(${communityThreads.lastPostAt})`.mapWith((v: string | null) => (v ? new Date(v) : null)),
        })
        .from(communityCategories)
        .leftJoin(communityThreads, and(eq(communityThreads.categoryId, communityCategories.id), eq(communityThreads.status, 'visible')))
        .groupBy(communityCategories.id)
        .orderBy(asc(communityCategories.position), asc(communityCategories.name));
      return rows.map((r) => ({ ...r.category, threadCount: r.threadCount, lastPostAt: r.lastPostAt }));
    },

    /** Every category (no figures). */
    categoryRows(): Promise<CategoryRow[]> {
      return db.select().from(communityCategories);
    },

    /** One category's visible threads' count and latest post (on the list's index). */
    async categoryStats(categoryId: string): Promise<{ threadCount: number; lastPostAt: Date | null }> {
      const [row] = await db
        .select({
          threadCount: sql<number>`count(*)::int`,
          lastPostAt: sql<Date | null>`max(${communityThreads.lastPostAt})`.mapWith((v: string | null) => (v ? new Date(v) : null)),
        })
        .from(communityThreads)
        .where(and(eq(communityThreads.categoryId, categoryId), eq(communityThreads.status, 'visible')));
      return row ?? { threadCount: 0, lastPostAt: null };
    },

    async categoryBySlug(slug: string): Promise<CategoryRow | undefined> {
      const [row] = await db.select().from(communityCategories).where(eq(communityCategories.slug, slug));
      return row;
    },

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

    /**
     * Full-text search (Postgres's English configuration, `websearch_to_tsquery` for what people
     * type) over posts' bodies and threads' titles (a title match finds the opener), in the given
     * categories only (never comments), newest first by keyset. Members find visible posts of
     * visible threads; staff everything but deleted. The excerpt is plain text around the match.
     */
    search(reader: Reader, q: string, categoryIds: string[], after: PostCursor | undefined, limit: number): Promise<SearchRow[]> {
      if (categoryIds.length === 0) return Promise.resolve([]);
      const p = communityPosts;
      const t = communityThreads;
      const query = sql`websearch_to_tsquery('english', ${q})`;
      const hits = db
        .select({ id: p.id })
        .from(p)
        .where(sql`${p.search} @@ ${query}`)
        .union(
          db
            .select({ id: p.id })
            .from(t)
            .innerJoin(p, and(eq(p.threadId, t.id), eq(p.isOpener, true)))
            .where(sql`${t.search} @@ ${query}`),
        );
      const shown = reader.staff
        ? and(ne(t.status, 'deleted'), ne(p.status, 'deleted'))
        : and(eq(t.status, 'visible'), eq(p.status, 'visible'));
      return db
        .select({
          postId: p.id,
          threadId: t.id,
          title: t.title,
          threadStatus: t.status,
          status: p.status,
          isOpener: p.isOpener,
          authorId: p.authorId,
          createdAt: p.createdAt,
          micros: micros(p.createdAt),
          categorySlug: communityCategories.slug,
          categoryName: communityCategories.name,
          // From the post's first 2,000 characters: the highlighter's cost grows with the square of what it reads.
          excerpt: sql<string>`ts_headline('english', left(${p.body}, ${EXCERPT_SOURCE_CHARS}), ${query}, 'StartSel="",StopSel="",MaxWords=30,MinWords=12')`,
        })
        .from(p)
        .innerJoin(t, eq(t.id, p.threadId))
        .innerJoin(communityCategories, eq(communityCategories.id, t.categoryId))
        .where(
          and(
            inArray(p.id, hits),
            inArray(t.categoryId, categoryIds),
            shown,
            after ? sql`(${p.createdAt}, ${p.id}) < (${instant(after.micros)}, ${after.id})` : undefined,
          ),
        )
        .orderBy(desc(p.createdAt), desc(p.id))
        .limit(limit);
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

export type CommunityStore = ReturnType<typeof createCommunityStore>;
export type { PostStatus };
