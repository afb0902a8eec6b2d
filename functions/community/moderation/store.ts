/**
 * The moderation SQL: members' reports, the queue (held posts and posts with open reports), staff's
 * flags on threads (pin, lock, move), suspensions (`community_members`), categories, and the
 * moderation log. A post's or thread's visibility changes go through the community store's
 * `publishPost` / `withdrawPost` and their thread counterparts (../store.ts), which keep the counts,
 * `last_post_at` and the followers with them; this module only adds what moderation keeps.
 * Every write here runs in the caller's transaction with its log entry.
 */
import { and, asc, count, desc, eq, inArray, isNull, or, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../platform/db/client.ts';
import {
  communityCategories,
  communityMembers,
  communityModerationLog,
  communityPosts,
  communityReports,
  communityThreads,
  type CategoryRow,
  type PostRow,
  type ThreadRow,
} from '../tables.ts';

/** Posts the queue shows at most (oldest first); staff work from the top. */
export const QUEUE_SIZE = 100;
/** Log entries per page. */
export const LOG_PAGE = 50;

export type LogRow = typeof communityModerationLog.$inferSelect;
export type NewLogEntry = Omit<typeof communityModerationLog.$inferInsert, 'id' | 'createdAt'>;
export type ReportRow = typeof communityReports.$inferSelect;
export type MemberRow = typeof communityMembers.$inferSelect;
export type CategoryValues = Pick<CategoryRow, 'name' | 'description' | 'accessLevel' | 'anyoneReads' | 'position'>;

/** A post with the thread it is in and that thread's category (null for an article's or lesson's comments). */
export interface PostInPlace {
  post: PostRow;
  thread: ThreadRow;
  category: CategoryRow | null;
}

/** A queue entry's post, thread and category, and since when it has waited. */
export interface QueueRow extends PostInPlace {
  waitingSince: Date;
}

/** A report on the row's post that staff have not resolved yet. */
const openReports = sql`${communityReports.postId} = ${communityPosts.id} and ${communityReports.resolvedAt} is null`;

/** What the parts of `createModerationStore` share. */
interface StoreDeps {
  db: DbOrTx;
}

/** Posts and threads as staff's actions find them. */
function postRows({ db }: StoreDeps) {
  return {
    /** A post with its thread and category, locked for the caller's transaction when `lock` (staff's actions). */
    async postInPlace(postId: string, { lock = false } = {}): Promise<PostInPlace | undefined> {
      const query = db
        .select({ post: communityPosts, thread: communityThreads, category: communityCategories })
        .from(communityPosts)
        .innerJoin(communityThreads, eq(communityThreads.id, communityPosts.threadId))
        .leftJoin(communityCategories, eq(communityCategories.id, communityThreads.categoryId))
        .where(eq(communityPosts.id, postId));
      const [row] = lock ? await query.for('update', { of: [communityPosts, communityThreads] }) : await query;
      return row;
    },
    /** A thread with its category, locked for the caller's transaction. */
    async threadForUpdate(threadId: string): Promise<{ thread: ThreadRow; category: CategoryRow | null } | undefined> {
      const [row] = await db
        .select({ thread: communityThreads, category: communityCategories })
        .from(communityThreads)
        .leftJoin(communityCategories, eq(communityCategories.id, communityThreads.categoryId))
        .where(eq(communityThreads.id, threadId))
        .for('update', { of: [communityThreads] });
      return row;
    },
    /** A thread's opening post. */
    async opener(threadId: string): Promise<PostRow | undefined> {
      const [row] = await db
        .select()
        .from(communityPosts)
        .where(and(eq(communityPosts.threadId, threadId), eq(communityPosts.isOpener, true)));
      return row;
    },
  };
}

/** Reports and the queue they make. */
function reportRows({ db }: StoreDeps) {
  return {
    /** Records a member's report; false when they had reported this post already (one report per member and post). */
    async report(postId: string, reporterId: string, reason: string): Promise<boolean> {
      const rows = await db
        .insert(communityReports)
        .values({ postId, reporterId, reason })
        .onConflictDoNothing({ target: [communityReports.postId, communityReports.reporterId] })
        .returning({ id: communityReports.id });
      return rows.length > 0;
    },
    /** Closes the post's open reports as `resolution`; answers how many were open. */
    async resolveReports(postId: string, actorId: string, resolution: string): Promise<number> {
      const rows = await db
        .update(communityReports)
        .set({ resolvedAt: sql`now()`, resolvedBy: actorId, resolution })
        .where(and(eq(communityReports.postId, postId), isNull(communityReports.resolvedAt)))
        .returning({ id: communityReports.id });
      return rows.length;
    },
    /**
     * The queue: held posts and posts with open reports (not deleted, nor in a deleted thread), the
     * longest waiting first (a held post since it was written, a reported one since its first open
     * report), one query.
     */
    async queue(limit: number): Promise<QueueRow[]> {
      const firstReport = sql`(select min(${communityReports.createdAt}) from ${communityReports} where ${openReports})`;
      const waitingSince = sql<Date>`least(case when ${communityPosts.status} = 'held' then ${communityPosts.createdAt} end, ${firstReport})`;
      const rows = await db
        .select({ post: communityPosts, thread: communityThreads, category: communityCategories, waitingSince })
        .from(communityPosts)
        .innerJoin(communityThreads, eq(communityThreads.id, communityPosts.threadId))
        .leftJoin(communityCategories, eq(communityCategories.id, communityThreads.categoryId))
        .where(
          and(
            sql`${communityPosts.status} <> 'deleted'`,
            sql`${communityThreads.status} <> 'deleted'`,
            or(eq(communityPosts.status, 'held'), sql`exists (select 1 from ${communityReports} where ${openReports})`),
          ),
        )
        .orderBy(asc(waitingSince), asc(communityPosts.id))
        .limit(limit);
      // The driver hands `least(…)` back as text on some paths: one type for the service.
      return rows.map((row) => ({ ...row, waitingSince: new Date(row.waitingSince) }));
    },
    /** The open reports of `postIds`, oldest first. */
    openReportsOf(postIds: string[]): Promise<ReportRow[]> {
      if (postIds.length === 0) return Promise.resolve([]);
      return db
        .select()
        .from(communityReports)
        .where(and(inArray(communityReports.postId, postIds), isNull(communityReports.resolvedAt)))
        .orderBy(asc(communityReports.createdAt), asc(communityReports.id));
    },
  };
}

/** Staff's actions on threads and members, and the moderation log. */
function actionRows({ db }: StoreDeps) {
  return {
    /** Sets a thread's pinned or locked flag; false when it already had that value. */
    async setThreadFlag(threadId: string, flag: 'pinned' | 'locked', value: boolean): Promise<boolean> {
      const column = flag === 'pinned' ? communityThreads.pinned : communityThreads.locked;
      const rows = await db
        .update(communityThreads)
        .set({ [flag]: value, updatedAt: sql`now()` })
        .where(and(eq(communityThreads.id, threadId), sql`${column} <> ${value}`))
        .returning({ id: communityThreads.id });
      return rows.length > 0;
    },
    /** Moves a category's thread to another category. */
    async moveThread(threadId: string, categoryId: string): Promise<void> {
      await db
        .update(communityThreads)
        .set({ categoryId, updatedAt: sql`now()` })
        .where(eq(communityThreads.id, threadId));
    },
    /** A member's standing (undefined: never suspended and notifications at their default). */
    async member(userId: string): Promise<MemberRow | undefined> {
      const [row] = await db.select().from(communityMembers).where(eq(communityMembers.userId, userId));
      return row;
    },
    /** The standing of each of `userIds` that has a row. */
    membersOf(userIds: string[]): Promise<MemberRow[]> {
      if (userIds.length === 0) return Promise.resolve([]);
      return db.select().from(communityMembers).where(inArray(communityMembers.userId, userIds));
    },
    /** Suspends a member from posting until `until` (null: until lifted); their notification setting stays. */
    async suspend(userId: string, by: string, until: Date | null, reason: string): Promise<MemberRow> {
      const values = { suspendedAt: sql`now()`, suspendedUntil: until, suspendedBy: by, suspendedReason: reason, updatedAt: sql`now()` };
      const [row] = await db
        .insert(communityMembers)
        .values({ userId, ...values })
        .onConflictDoUpdate({ target: communityMembers.userId, set: values })
        .returning();
      return row!;
    },
    /** Lifts a suspension; false when the member was not suspended. */
    async unsuspend(userId: string): Promise<boolean> {
      const rows = await db
        .update(communityMembers)
        .set({ suspendedAt: null, suspendedUntil: null, suspendedBy: null, suspendedReason: null, updatedAt: sql`now()` })
        .where(and(eq(communityMembers.userId, userId), sql`${communityMembers.suspendedAt} is not null`))
        .returning({ userId: communityMembers.userId });
      return rows.length > 0;
    },
    /** Writes one log entry (in the action's transaction). */
    async log(entry: NewLogEntry): Promise<void> {
      await db.insert(communityModerationLog).values(entry);
    },
    /** One page of the log, newest first, after the entry `cursor` (an entry's id); one more than asked tells there is a next page. */
    async logPage(cursor: string | undefined, limit: number): Promise<LogRow[]> {
      const after = cursor
        ? sql`(${communityModerationLog.createdAt}, ${communityModerationLog.id}) < (select created_at, id from ${communityModerationLog} where id = ${cursor})`
        : undefined;
      return db
        .select()
        .from(communityModerationLog)
        .where(after)
        .orderBy(desc(communityModerationLog.createdAt), desc(communityModerationLog.id))
        .limit(limit + 1);
    },
    /** Whether a log entry exists (a cursor must name one). */
    async hasLogEntry(id: string): Promise<boolean> {
      const [row] = await db
        .select({ id: communityModerationLog.id })
        .from(communityModerationLog)
        .where(eq(communityModerationLog.id, id));
      return row !== undefined;
    },
  };
}

/** Categories as admins manage them. */
function categoryRows({ db }: StoreDeps) {
  return {
    /** Every category in display order, with how many threads each holds (any status). */
    async categories(): Promise<(CategoryRow & { threadCount: number })[]> {
      const threads = db
        .select({ categoryId: communityThreads.categoryId, n: count().as('n') })
        .from(communityThreads)
        .groupBy(communityThreads.categoryId)
        .as('threads');
      const rows = await db
        .select({ category: communityCategories, threadCount: threads.n })
        .from(communityCategories)
        .leftJoin(threads, eq(threads.categoryId, communityCategories.id))
        .orderBy(asc(communityCategories.position), asc(communityCategories.name), asc(communityCategories.id));
      return rows.map((r) => ({ ...r.category, threadCount: Number(r.threadCount ?? 0) }));
    },
    async categoryBySlug(slug: string, { lock = false } = {}): Promise<CategoryRow | undefined> {
      const query = db.select().from(communityCategories).where(eq(communityCategories.slug, slug));
      const [row] = lock ? await query.for('update') : await query;
      return row;
    },
    /** A new category; undefined when its slug is taken. */
    async createCategory(values: CategoryValues & { slug: string }): Promise<CategoryRow | undefined> {
      const [row] = await db
        .insert(communityCategories)
        .values(values)
        .onConflictDoNothing({ target: communityCategories.slug })
        .returning();
      return row;
    },
    async updateCategory(id: string, values: CategoryValues): Promise<CategoryRow> {
      const [row] = await db
        .update(communityCategories)
        .set({ ...values, updatedAt: sql`now()` })
        .where(eq(communityCategories.id, id))
        .returning();
      return row!;
    },
    /** How many threads (any status) a category holds. */
    async threadCount(categoryId: string): Promise<number> {
      const [row] = await db.select({ n: count() }).from(communityThreads).where(eq(communityThreads.categoryId, categoryId));
      return Number(row?.n ?? 0);
    },
    async deleteCategory(id: string): Promise<void> {
      await db.delete(communityCategories).where(eq(communityCategories.id, id));
    },
  };
}

export function createModerationStore(db: DbOrTx) {
  const deps: StoreDeps = { db };
  return { ...postRows(deps), ...reportRows(deps), ...actionRows(deps), ...categoryRows(deps) };
}

export type ModerationStore = ReturnType<typeof createModerationStore>;
