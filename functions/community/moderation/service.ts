/**
 * Moderation (Discourse's review queue and staff actions, Ghost's hide and delete of comments): a
 * member reports a post they can read; staff work the queue of held and reported posts (approve,
 * hide, unhide, delete, dismiss), act on threads (pin, lock, move, hide, delete), suspend members
 * from posting, and read the log. Each action is one transaction: the change (visibility through the
 * community store's `publishPost` / `withdrawPost` and thread counterparts, so counts, `last_post_at`
 * and followers move with it), the post's open reports resolved, and a `community_moderation_log`
 * entry. A repeated action that changes nothing answers the state as it is and logs nothing.
 * Categories (admins) are categories.ts; what each thread action changes is thread-actions.ts.
 */
import { isStaff } from '#shared/access.ts';
import { itemPath } from '#shared/content/registry.ts';
import { COMMENTS_THREAD_ACTIONS, type PostAction } from '#shared/community/moderation.ts';
import type { ContentService } from '../../content/index.ts';
import type { Db, Tx } from '../../platform/db/client.ts';
import { AppError } from '../../platform/errors.ts';
import type { Limit, RateLimitService } from '../../platform/abuse/service.ts';
import { memberDirectory } from '../../users/index.ts';
import type { Viewer } from '../../users/index.ts';
import { publishPost, withdrawPost } from '../store.ts';
import type { PostRow, PostStatus } from '../tables.ts';
import { createModerationStore, QUEUE_SIZE, type ModerationStore } from './store.ts';
import type { PostActionInput, ReportInput, SuspensionInput, ThreadActionInput } from './schema.ts';
import { people } from './people.ts';
import { createModerationLog } from './log.ts';
import { threadChange } from './thread-actions.ts';

/** Reports per member: enough for anyone flagging a bad afternoon, too few to flood the queue. */
export const REPORT_LIMIT: Limit = { name: 'community-report:user', max: 20, windowSeconds: 3600 };

const NO_POST = 'No such post.';
const NO_THREAD = 'No such thread.';

/** Whether a member may read a thread now (the community's one rule: its category's level, or the item's for comments). */
export type ThreadReadCheck = (viewer: Viewer, threadId: string) => Promise<boolean>;

export interface ModerationDeps {
  db: Db;
  limiter: RateLimitService;
  canRead: ThreadReadCheck;
  /** Names the article or lesson a comments thread sits under, for the queue. */
  content: Pick<ContentService, 'getById'>;
  /**
   * Told after a change visitors' cached answers show (this instance's at once; the others hear
   * of it through the community's channel, which every change here also notifies).
   */
  onChange?: () => void;
}

/** The states each post action applies to, and the conflict (409) it answers from any other. */
const POST_MOVES: Record<PostAction, { from: readonly PostStatus[]; conflict: string }> = {
  approve: { from: ['held', 'visible'], conflict: 'This post was removed: unhide it instead.' },
  hide: { from: ['visible', 'held'], conflict: 'This post is already hidden or deleted.' },
  unhide: { from: ['hidden'], conflict: 'Only a hidden post can be unhidden.' },
  delete: { from: ['visible', 'held', 'hidden'], conflict: 'This post is already deleted.' },
  dismiss: { from: ['visible', 'held', 'hidden', 'deleted'], conflict: '' },
};

/** The resolution a report gets when staff act on its post. */
const RESOLUTION: Record<PostAction, string> = {
  approve: 'approve',
  hide: 'hide',
  unhide: 'approve',
  delete: 'delete',
  dismiss: 'dismiss',
};

/** Whether the `editedAt` staff saw (ISO, or null for never) is the post's. */
const sameInstant = (seen: string | null, editedAt: Date | null) =>
  seen === null ? editedAt === null : editedAt !== null && new Date(seen).getTime() === editedAt.getTime();

/** What the service's parts share: its dependencies, its store and the change signal. */
interface ModerationParts extends ModerationDeps {
  store: ModerationStore;
  changed: () => void;
}

/** Changes a post's visibility in `tx` through the community store (a held opener takes its held thread along). */
async function movePost(tx: Tx, post: PostRow, action: PostAction): Promise<void> {
  if (action === 'approve' || action === 'unhide') await publishPost(tx, post.id);
  else if (action === 'hide' || action === 'delete') await withdrawPost(tx, post.id, action === 'hide' ? 'hidden' : 'deleted');
}

/** Members' reports and the queue staff work from. */
function reports({ db, limiter, canRead, content, store }: ModerationParts) {
  return {
    /** A member reports a post they can read (404 for any other); false when they had reported it already. */
    async report(viewer: Viewer, postId: string, input: ReportInput): Promise<{ created: boolean }> {
      const place = await store.postInPlace(postId);
      const visible = place && place.post.status === 'visible' && place.thread.status === 'visible';
      if (!visible || !(await canRead(viewer, place.thread.id))) throw new AppError('not_found', NO_POST);
      if (place.post.authorId === viewer.id) throw new AppError('conflict', 'You cannot report your own post.');
      await limiter.enforce([[REPORT_LIMIT, viewer.id]]);
      return { created: await store.report(postId, viewer.id, input.reason) };
    },

    /** The queue: held and reported posts, the longest waiting first, with their reports, author and place. */
    async queue() {
      const rows = await store.queue(QUEUE_SIZE);
      const reports = await store.openReportsOf(rows.map((r) => r.post.id));
      const where = await commentsPlaces(
        content,
        rows.map((r) => r.thread.contentId),
      );
      const who = await people(db, store, [...rows.map((r) => r.post.authorId), ...reports.map((r) => r.reporterId)]);
      return {
        items: rows.map(({ post, thread, category, waitingSince }) => ({
          post: {
            id: post.id,
            status: post.status,
            isOpener: post.isOpener,
            html: post.html,
            createdAt: post.createdAt.toISOString(),
            editedAt: post.editedAt?.toISOString() ?? null,
          },
          thread: {
            id: thread.id,
            title: thread.title,
            status: thread.status,
            pinned: thread.pinned,
            locked: thread.locked,
            /** For comments: the article or lesson they sit under (null once it is gone). */
            comments: thread.contentId ? (where.get(thread.contentId) ?? null) : null,
            category: category ? { slug: category.slug, name: category.name, accessLevel: category.accessLevel } : null,
          },
          author: who.get(post.authorId),
          reports: reports
            .filter((r) => r.postId === post.id)
            .map((r) => ({ id: r.id, reason: r.reason, createdAt: r.createdAt.toISOString(), reporter: who.get(r.reporterId) })),
          waitingSince: waitingSince.toISOString(),
        })),
      };
    },
  };
}

/** Staff's actions on a post or a thread, each one transaction with its log entry. */
function postAndThreadActions({ db, changed }: ModerationParts) {
  return {
    /** Staff's action on one post; 404 unknown, 409 when the action does not apply to its state. */
    async actOnPost(actor: Viewer, postId: string, { action, seen }: PostActionInput) {
      const result = await db.transaction(async (tx) => {
        const inTx = createModerationStore(tx);
        const place = await inTx.postInPlace(postId, { lock: true });
        if (!place) throw new AppError('not_found', NO_POST);
        const { post, thread } = place;
        const move = POST_MOVES[action];
        if (!move.from.includes(post.status)) throw new AppError('conflict', move.conflict);
        // Staff approve the text they read: one its author edited since is read again first.
        if (action === 'approve' && seen !== undefined && !sameInstant(seen, post.editedAt))
          throw new AppError('conflict', 'This post was edited since you opened it. Read it again before approving it.');
        const reports = await inTx.resolveReports(post.id, actor.id, RESOLUTION[action]);
        if (action === 'dismiss' && reports === 0) throw new AppError('conflict', 'This post has no open reports.');
        const changes = !(action === 'approve' && post.status === 'visible') && action !== 'dismiss';
        if (changes) await movePost(tx, post, action);
        if (changes || reports > 0) {
          const detail = { title: thread.title, from: post.status, reports, ...(thread.contentId ? { contentId: thread.contentId } : {}) };
          await inTx.log({ actorId: actor.id, action, threadId: thread.id, postId: post.id, targetUserId: post.authorId, detail });
        }
        return (await inTx.postInPlace(post.id))!.post;
      });
      changed();
      return { post: { id: result.id, status: result.status } };
    },

    /** Staff's action on a thread; comments threads take only lock and unlock (409 otherwise). */
    async actOnThread(actor: Viewer, threadId: string, input: ThreadActionInput) {
      const result = await db.transaction(async (tx) => {
        const inTx = createModerationStore(tx);
        const found = await inTx.threadForUpdate(threadId);
        if (!found) throw new AppError('not_found', NO_THREAD);
        const { thread, category } = found;
        if (thread.contentId && !COMMENTS_THREAD_ACTIONS.includes(input.action))
          throw new AppError('conflict', 'These are the comments under an article or lesson: lock them, or moderate each post.');
        const detail = await threadChange(tx, inTx, thread.id, thread.status, category?.slug ?? null, input);
        if (detail)
          await inTx.log({
            actorId: actor.id,
            action: input.action,
            threadId: thread.id,
            targetUserId: thread.authorId,
            detail: { title: thread.title, ...detail },
          });
        return (await inTx.threadForUpdate(thread.id))!;
      });
      changed();
      const { thread, category } = result;
      return {
        thread: { id: thread.id, status: thread.status, pinned: thread.pinned, locked: thread.locked, category: category?.slug ?? null },
      };
    },
  };
}

/** Suspensions, and the log. */
function memberActions({ db, store }: ModerationParts) {
  return {
    /** Suspends a member from posting (until a time, or until lifted), or lifts it; staff cannot be suspended. */
    async suspension(actor: Viewer, userId: string, input: SuspensionInput) {
      const [profile] = await memberDirectory(db).byIds([userId]);
      if (!profile) throw new AppError('not_found', 'No such member.');
      if (isStaff(profile.role)) throw new AppError('conflict', 'Editors and admins cannot be suspended.');
      const member = await db.transaction(async (tx) => {
        const inTx = createModerationStore(tx);
        if (input.suspended) {
          const until = input.until ?? null;
          const row = await inTx.suspend(userId, actor.id, until, input.reason);
          const detail = { until: until?.toISOString() ?? null, reason: input.reason };
          await inTx.log({ actorId: actor.id, action: 'suspend', targetUserId: userId, detail });
          return row;
        }
        if (await inTx.unsuspend(userId)) await inTx.log({ actorId: actor.id, action: 'unsuspend', targetUserId: userId, detail: {} });
        return inTx.member(userId);
      });
      return { userId, ...suspensionOf(member) };
    },

    /** The log, newest first, 50 a page. */
    log: createModerationLog(db, store).page,
  };
}

export function createModerationService(options: ModerationDeps) {
  const deps: ModerationParts = { ...options, store: createModerationStore(options.db), changed: () => options.onChange?.() };
  return { ...reports(deps), ...postAndThreadActions(deps), ...memberActions(deps) };
}

/** A member's suspension as staff see it: in force now (an end in the past has lapsed). */
export function suspensionOf(
  member: { suspendedAt: Date | null; suspendedUntil: Date | null; suspendedReason: string | null } | undefined,
) {
  const suspended = Boolean(member?.suspendedAt) && (!member?.suspendedUntil || member.suspendedUntil.getTime() > Date.now());
  return {
    suspended,
    until: suspended ? (member?.suspendedUntil?.toISOString() ?? null) : null,
    reason: suspended ? (member?.suspendedReason ?? '') : null,
  };
}

/**
 * The article or lesson each comments thread sits under (`blog:<item id>` or
 * `course:<item id>:<lesson id>`, as the community names them), with its page; unknown ones left out.
 */
async function commentsPlaces(content: Pick<ContentService, 'getById'>, contentIds: (string | null)[]) {
  const out = new Map<string, { title: string; path: string }>();
  for (const contentId of new Set(contentIds)) {
    if (!contentId) continue;
    const [type, id = '', lessonId] = contentId.split(':');
    if (type === 'blog') {
      const item = await content.getById('blog', id).catch(() => undefined);
      if (item) out.set(contentId, { title: item.title, path: itemPath('blog', item.slug) });
    } else if (type === 'course') {
      const item = await content.getById('course', id).catch(() => undefined);
      const lesson = item?.sections.flatMap((s) => s.lessons).find((l) => l.id === lessonId);
      if (item && lesson) out.set(contentId, { title: `${item.title}: ${lesson.title}`, path: itemPath('course', item.slug) });
    }
  }
  return out;
}

export type ModerationService = ReturnType<typeof createModerationService>;
