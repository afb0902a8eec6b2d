/**
 * Posting in the community: threads, replies, comments, a member's own edits and deletions, likes.
 * Before anything is written: the place's access rule (access.ts; the routes ask for a live
 * session), no suspension, the per-account rate limits, the Markdown rendered and sanitised once
 * (the members' profile of content/render.ts), and the hold rule: a post by an account younger
 * than a week, with fewer than three visible posts, that carries a link waits for staff (a held
 * opener holds its thread). A post's text is read only after the access checks (`text()`), so a
 * caller below the level hears 401 or 403 whatever the body holds.
 */
import { isStaff } from '#shared/access.ts';
import type { RateLimitService } from '../platform/abuse/service.ts';
import type { Db } from '../platform/db/client.ts';
import { AppError } from '../platform/errors.ts';
import type { Viewer } from '../users/index.ts';
import { threadNotFound, type CommentsPlace, type CommunityAccess } from './access.ts';
import { postAnswer, type Authors, type Post } from './answers.ts';
import { createCommunityStore, withdrawPost, type CommunityStore } from './store.ts';
import type { CategoryRow, PostRow, ThreadRow } from './tables.ts';

/** Posts (threads, replies, comments) per account per 10 minutes, threads per hour, edits per 10 minutes, likes per 10 minutes. */
export const POST_LIMIT = { name: 'community:post', max: 20, windowSeconds: 600 };
export const THREAD_LIMIT = { name: 'community:thread', max: 5, windowSeconds: 3600 };
export const EDIT_LIMIT = { name: 'community:edit', max: 30, windowSeconds: 600 };
export const LIKE_LIMIT = { name: 'community:like', max: 120, windowSeconds: 600 };

/** The hold rule: an account younger than this, with fewer visible posts than TRUSTED_POSTS, whose post carries a link. */
export const NEW_ACCOUNT_MS = 7 * 24 * 3600 * 1000;
export const TRUSTED_POSTS = 3;
const LINK = /<a\s[^>]*href=/i;

/** A post ready to write: its HTML, and whether it shows or waits for staff. */
interface Prepared {
  html: string;
  status: 'visible' | 'held';
}

export interface Written {
  id: string;
  status: PostRow['status'];
}

export interface PostingDeps {
  db: Db;
  access: CommunityAccess;
  limiter: RateLimitService;
  clock: () => Date;
  /** The names behind author ids (the users domain). */
  authorsOf: (ids: (string | null)[]) => Promise<Authors>;
  /** The account's creation time (the hold rule), from the users domain. */
  accountCreatedAt: (userId: string) => Promise<Date | undefined>;
  /** Called after every write that changes what lists show (the visitors' kept answers go). */
  changed: () => void;
  /** A member's Markdown as sanitised HTML, rendered off the server's thread (content/member-renderer.ts). */
  renderPost: (source: string) => Promise<string>;
}

/** What the parts of the posting share: its dependencies and the community's store. */
interface PostingParts extends PostingDeps {
  store: CommunityStore;
}

async function categoryOf({ store }: PostingParts, slug: string): Promise<CategoryRow> {
  const category = await store.categoryBySlug(slug);
  if (!category) throw new AppError('not_found', 'Category not found');
  return category;
}

/** Whether the member may post now: not suspended (403 saying until when). */
async function assertNotSuspended({ store }: PostingParts, viewer: Viewer): Promise<void> {
  const suspended = await store.suspension(viewer.id);
  if (!suspended) return;
  const until = suspended.until ? ` until ${suspended.until.toISOString().slice(0, 10)}` : '';
  throw new AppError('forbidden', `Your account is suspended from posting in the community${until}.`);
}

/** Whether a new post waits for staff: a new account's post with a link, before it has a few visible posts. */
async function statusFor({ clock, accountCreatedAt, store }: PostingParts, viewer: Viewer, html: string): Promise<'visible' | 'held'> {
  if (isStaff(viewer.role) || !LINK.test(html)) return 'visible';
  const createdAt = await accountCreatedAt(viewer.id);
  if (createdAt && clock().getTime() - createdAt.getTime() >= NEW_ACCOUNT_MS) return 'visible';
  return (await store.visiblePosts(viewer.id)) >= TRUSTED_POSTS ? 'visible' : 'held';
}

/** What every post asks before it is written: no suspension, within the limits, renderable. */
async function prepare(deps: PostingParts, viewer: Viewer, body: string, limits: (typeof POST_LIMIT)[]): Promise<Prepared> {
  const { limiter, renderPost } = deps;
  await assertNotSuspended(deps, viewer);
  await limiter.enforce(limits.map((l) => [l, viewer.id]));
  const html = await renderPost(body);
  return { html, status: await statusFor(deps, viewer, html) };
}

/** A post the viewer may act on, with its thread let in for them (404, 401 or 403 as reading it would answer). */
async function actionablePost({ access, store }: PostingParts, viewer: Viewer, postId: string) {
  const found = await store.post(postId);
  if (!found) throw new AppError('not_found', 'Post not found');
  const place = await access.assertReadThread(viewer, found.thread, found.category);
  const { post } = found;
  if (post.status === 'held' && post.authorId !== viewer.id && !isStaff(viewer.role)) throw new AppError('not_found', 'Post not found');
  return { ...found, place };
}

/** The member's own post, still theirs to change: 403 for anyone else's, 409 once staff or they took it out of view. */
async function ownPost(deps: PostingParts, viewer: Viewer, postId: string) {
  const found = await actionablePost(deps, viewer, postId);
  if (found.post.authorId !== viewer.id) throw new AppError('forbidden', 'You can only change your own posts.');
  if (found.post.status === 'deleted') throw new AppError('conflict', 'This post was deleted.');
  if (found.post.status === 'hidden') throw new AppError('conflict', 'This post was hidden by a moderator.');
  return found;
}

async function addReply(deps: PostingParts, viewer: Viewer, thread: ThreadRow, body: string): Promise<Written> {
  const { db, changed } = deps;
  assertOpen(viewer, thread);
  const { html, status } = await prepare(deps, viewer, body, [POST_LIMIT]);
  const post = await db.transaction((tx) =>
    createCommunityStore(tx).createReply({ threadId: thread.id, authorId: viewer.id, body, html, status }),
  );
  changed();
  return { id: post.id, status };
}

/** Whether the viewer may reply in the thread: 409 when it is not open, or locked (but for staff). */
function assertOpen(viewer: Viewer, thread: ThreadRow): void {
  if (thread.status !== 'visible') throw new AppError('conflict', 'This thread is not open for replies.');
  if (thread.locked && !isStaff(viewer.role)) throw new AppError('conflict', 'This thread is locked.');
}

/** New threads, replies and comments. */
function newPosts(deps: PostingParts) {
  const { db, access, changed, store } = deps;
  return {
    /** POST /api/community/threads: a new thread with its opening post (held when the hold rule says so). */
    async createThread(viewer: Viewer, input: { category: string; title: string; body: string }): Promise<Written> {
      const category = await categoryOf(deps, input.category);
      access.assertPostCategory(viewer, category);
      const { html, status } = await prepare(deps, viewer, input.body, [THREAD_LIMIT, POST_LIMIT]);
      const { thread } = await db.transaction((tx) =>
        createCommunityStore(tx).createThread(
          { categoryId: category.id, contentId: null, authorId: viewer.id, title: input.title, status },
          { body: input.body, html },
        ),
      );
      changed();
      return { id: thread.id, status };
    },

    /** POST /api/community/threads/{id}/replies: a reply (409 on a locked thread but for staff, or one not open). */
    async reply(viewer: Viewer, threadId: string, text: () => Promise<string>): Promise<Written> {
      const found = await store.thread(threadId);
      if (!found) throw threadNotFound();
      await access.assertReadThread(viewer, found.thread, found.category);
      if (found.category) access.assertPostCategory(viewer, found.category);
      return addReply(deps, viewer, found.thread, await text());
    },

    /** POST /api/community/comments/…: a comment (the item's comments thread is made with the first). */
    async comment(viewer: Viewer, where: CommentsPlace, text: () => Promise<string>): Promise<Written & { threadId: string }> {
      const target = await access.commentsOf(viewer, where);
      const body = await text();
      // Suspension, limits and rendering first: a refused first comment leaves no thread behind.
      const { html, status } = await prepare(deps, viewer, body, [POST_LIMIT]);
      // The item's comments thread (made with its first comment) and the comment commit together: one
      // write, so a retry after a lost answer is told the truth (platform/idempotency).
      const { thread, post } = await db.transaction(async (tx) => {
        const txStore = createCommunityStore(tx);
        const made = await txStore.commentsThread(target.contentId, target.title);
        assertOpen(viewer, made);
        return { thread: made, post: await txStore.createReply({ threadId: made.id, authorId: viewer.id, body, html, status }) };
      });
      changed();
      return { id: post.id, status, threadId: thread.id };
    },
  };
}

/** A member's own posts (edited, read back, removed) and likes. */
function ownPosts(deps: PostingParts) {
  const { db, limiter, authorsOf, changed } = deps;
  return {
    /** PATCH /api/community/posts/{id}: the member's own post, new text (marked edited; held again when the hold rule says so). */
    async edit(viewer: Viewer, postId: string, text: () => Promise<string>): Promise<Post> {
      const { post, thread } = await ownPost(deps, viewer, postId);
      if (thread.locked && !isStaff(viewer.role)) throw new AppError('conflict', 'This thread is locked.');
      const body = await text();
      const { html, status } = await prepare(deps, viewer, body, [EDIT_LIMIT]);
      const edited = await db.transaction(async (tx) => {
        const txStore = createCommunityStore(tx);
        // A visible post that gains a link is held again, as a new one would be. Asked of the row as it
        // is now (holdPost changes only a visible post), not as it was read before the text rendered:
        // an approval in between must not let the new links through unheld.
        if (status === 'held') await txStore.holdPost(post.id);
        return txStore.editPost(post.id, viewer.id, { body, html });
      });
      if (!edited) throw new AppError('conflict', 'This post was deleted.');
      changed();
      const authors = await authorsOf([edited.authorId]);
      return postAnswer({ ...edited, micros: '0', liked: false }, authors, viewer.id, isStaff(viewer.role));
    },

    /** GET /api/community/posts/{id}/source: the Markdown of the member's own post (to edit it). */
    async source(viewer: Viewer, postId: string): Promise<{ body: string }> {
      const { post } = await ownPost(deps, viewer, postId);
      return { body: post.body };
    },

    /** DELETE /api/community/posts/{id}: the member's own post, body removed (its place in the thread stays). */
    async remove(viewer: Viewer, postId: string): Promise<Written> {
      const { post } = await ownPost(deps, viewer, postId);
      await db.transaction((tx) => withdrawPost(tx, post.id, 'deleted'));
      changed();
      return { id: post.id, status: 'deleted' };
    },

    /** PUT / DELETE /api/community/posts/{id}/like: once per member, on a post shown to everyone, never one's own. */
    async like(viewer: Viewer, postId: string, liked: boolean): Promise<{ likeCount: number; liked: boolean }> {
      const { post } = await actionablePost(deps, viewer, postId);
      if (post.status !== 'visible') throw new AppError('conflict', 'Only posts shown to everyone can be liked.');
      if (post.authorId === viewer.id) throw new AppError('conflict', 'You cannot like your own post.');
      await limiter.enforce([[LIKE_LIMIT, viewer.id]]);
      const likeCount = await db.transaction((tx) => {
        const txStore = createCommunityStore(tx);
        return liked ? txStore.like(post.id, viewer.id) : txStore.unlike(post.id, viewer.id);
      });
      return { likeCount, liked };
    },
  };
}

export function createCommunityPosting(options: PostingDeps) {
  const deps: PostingParts = { ...options, store: createCommunityStore(options.db) };
  return { ...newPosts(deps), ...ownPosts(deps) };
}

export type CommunityPosting = ReturnType<typeof createCommunityPosting>;
