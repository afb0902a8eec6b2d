/**
 * The community: categories, threads and replies, comments under articles and lessons, edits,
 * deletions, likes and search. Who reads and writes where is access.ts (the one access rule); the
 * writes and what they ask are posting.ts; this module reads, and assembles both.
 *
 * Visitors' answers that are the same for everyone (the categories, the first page of a category
 * anyone reads) are serialised once and kept until the community changes (here at once; on other
 * instances through COMMUNITY_CHANNEL, compose.ts), like the public content answers.
 */
import { checkAccess, isStaff } from '#shared/access.ts';
import type { RateLimitService } from '../platform/abuse/service.ts';
import type { Db } from '../platform/db/client.ts';
import { AppError } from '../platform/errors.ts';
import { createAnswer, type CachedAnswer } from '../platform/http/respond.ts';
import { memberDirectory } from '../users/index.ts';
import type { Viewer } from '../users/index.ts';
import { threadNotFound, type CommentsPlace, type CommunityAccess } from './access.ts';
import {
  authorOf,
  categoryAnswer,
  pageOf,
  postAnswer,
  postCursor,
  postCursorOf,
  readPostCursor,
  readThreadCursor,
  threadCursor,
  threadSummary,
  type Author,
  type Authors,
  type Category,
  type Post,
  type Thread,
  type ThreadPage,
  type ThreadPlace,
  type ThreadSummary,
} from './answers.ts';
import { createCommunityPosting } from './posting.ts';
import { createCommunityStore, type Reader } from './store.ts';
import type { CategoryRow, PostRow, ThreadRow } from './tables.ts';
import { RESULTS_PER_PAGE, THREADS_PER_PAGE } from './schema.ts';

export type { Written } from './posting.ts';

export interface CommunityServiceDeps {
  db: Db;
  access: CommunityAccess;
  limiter: RateLimitService;
  /** The public answers' Cache-Control (the shared policy). */
  cacheControl: string;
  /** A member's Markdown as sanitised HTML, off the server's thread (content/member-renderer.ts). */
  renderPost: (source: string) => Promise<string>;
  clock?: () => Date;
}

export interface ListAnswer {
  category: Category;
  items: ThreadSummary[];
  nextCursor: string | null;
}

/** A page of an article's or lesson's comments: no thread until the first comment. */
export interface CommentsPage {
  thread: Thread | null;
  posts: Post[];
  nextCursor: string | null;
}

export interface SearchHit {
  threadId: string;
  title: string;
  category: { slug: string; name: string };
  postId: string;
  isOpener: boolean;
  /** Plain text around the match (render it as text). */
  excerpt: string;
  author: Author;
  createdAt: string;
  /** Staff only: the post's and thread's status. */
  status?: PostRow['status'];
  threadStatus?: ThreadRow['status'];
}

export interface SearchAnswer {
  items: SearchHit[];
  nextCursor: string | null;
}

const readerOf = (viewer: Viewer | undefined): Reader => ({ id: viewer?.id, staff: isStaff(viewer?.role) });

export function createCommunityService({ db, access, limiter, cacheControl, renderPost, clock = () => new Date() }: CommunityServiceDeps) {
  const store = createCommunityStore(db);
  const directory = memberDirectory(db);
  let categoriesAnswer: Promise<CachedAnswer<{ items: Category[] }>> | undefined;
  let loadedCategories: CachedAnswer<{ items: Category[] }> | undefined;
  const publicLists = new Map<string, CachedAnswer<ListAnswer>>();
  let clears = 0;

  async function authorsOf(ids: (string | null)[]): Promise<Authors> {
    const wanted = [...new Set(ids.filter((id): id is string => id !== null))];
    return new Map((await directory.byIds(wanted)).map((p) => [p.id, p]));
  }

  async function categoryOf(slug: string): Promise<CategoryRow> {
    const category = await store.categoryBySlug(slug);
    if (!category) throw new AppError('not_found', 'Category not found');
    return category;
  }

  async function list(viewer: Viewer | undefined, category: CategoryRow, cursor: string | undefined, limit: number): Promise<ListAnswer> {
    const [rows, stats] = await Promise.all([
      store.listThreads(category.id, readerOf(viewer), readThreadCursor(cursor), limit + 1),
      store.categoryStats(category.id),
    ]);
    const page = pageOf(rows, limit, threadCursor);
    const authors = await authorsOf(page.rows.map((r) => r.authorId));
    return {
      category: categoryAnswer({ ...category, ...stats }),
      items: page.rows.map((r) => threadSummary(r, authors, viewer?.id)),
      nextCursor: page.nextCursor,
    };
  }

  async function page(
    viewer: Viewer | undefined,
    thread: ThreadRow,
    place: ThreadPlace,
    cursor: string | undefined,
    limit: number,
  ): Promise<ThreadPage> {
    const reader = readerOf(viewer);
    const [rows, follow, suspended] = await Promise.all([
      store.listPosts(thread.id, reader, readPostCursor(cursor), limit + 1),
      viewer ? store.follow(thread.id, viewer.id) : undefined,
      viewer ? store.suspension(viewer.id) : undefined,
    ]);
    const posts = pageOf(rows, limit, postCursor);
    const authors = await authorsOf([thread.authorId, ...posts.rows.map((r) => r.authorId)]);
    const open = thread.status === 'visible' && (!thread.locked || reader.staff);
    const level = place.kind === 'category' ? place.accessLevel : undefined;
    return {
      thread: {
        ...threadSummary(thread, authors, viewer?.id),
        place,
        muted: follow ? follow.muted : null,
        canReply: Boolean(viewer) && open && !suspended && (level === undefined || canPostAt(viewer!, level)),
      },
      posts: posts.rows.map((r) => postAnswer(r, authors, viewer?.id, reader.staff)),
      nextCursor: posts.nextCursor,
    };
  }

  const changed = () => {
    clears += 1;
    categoriesAnswer = undefined;
    loadedCategories = undefined;
    publicLists.clear();
  };

  const posting = createCommunityPosting({
    db,
    access,
    limiter,
    clock,
    authorsOf,
    accountCreatedAt: async (id) => (await directory.byIds([id]))[0]?.createdAt,
    changed,
    renderPost,
  });

  return {
    ...posting,

    /** GET /api/community/categories: the same for everyone (names are not secret; thread titles are). */
    categories(): Promise<CachedAnswer<{ items: Category[] }>> {
      if (categoriesAnswer) return categoriesAnswer;
      const generation = clears;
      const loading = store.categories().then((rows) => {
        const answer = createAnswer({ items: rows.map(categoryAnswer) }, { cacheControl });
        if (generation === clears) loadedCategories = answer;
        return answer;
      });
      categoriesAnswer = loading;
      loading.catch(() => (categoriesAnswer === loading ? (categoriesAnswer = undefined) : undefined));
      return loading;
    },

    /** The loaded categories answer, without waiting (the answer lane's resolver). */
    peekCategories: () => loadedCategories,

    /**
     * A visitor's first page of a category anyone reads, serialised once (undefined for any other
     * category: then `threads` answers, or says why not).
     */
    async publicThreads(slug: string): Promise<CachedAnswer<ListAnswer> | undefined> {
      const loaded = publicLists.get(slug);
      if (loaded) return loaded;
      const generation = clears;
      const category = await store.categoryBySlug(slug);
      if (!category?.anyoneReads) return undefined;
      const answer = createAnswer(await list(undefined, category, undefined, THREADS_PER_PAGE), { cacheControl });
      if (generation === clears) publicLists.set(slug, answer);
      return answer;
    },

    /** The loaded public first page, without waiting (the answer lane's resolver). */
    peekPublicThreads: (slug: string) => publicLists.get(slug),

    /** GET /api/community/threads?category=: one page of threads, pinned first, then the latest post first. */
    async threads(viewer: Viewer | undefined, slug: string, cursor: string | undefined, limit: number): Promise<ListAnswer> {
      const category = await categoryOf(slug);
      access.assertReadCategory(viewer, category);
      return list(viewer, category, cursor, limit);
    },

    /** GET /api/community/threads/{id}: the thread and a page of its posts, oldest first. */
    async thread(viewer: Viewer | undefined, id: string, cursor: string | undefined, limit: number): Promise<ThreadPage> {
      const found = await store.thread(id);
      if (!found) throw threadNotFound();
      const place = await access.assertReadThread(viewer, found.thread, found.category);
      return page(viewer, found.thread, place, cursor, limit);
    },

    /** GET /api/community/comments/…: a page of an item's comments, gated like its body. */
    async comments(viewer: Viewer | undefined, where: CommentsPlace, cursor: string | undefined, limit: number): Promise<CommentsPage> {
      const target = await access.commentsOf(viewer, where);
      const thread = await store.threadByContent(target.contentId);
      if (!thread) return { thread: null, posts: [], nextCursor: null };
      return page(viewer, thread, target.place, cursor, limit);
    },

    /** GET /api/community/search: threads and posts of the categories the caller may read (never comments). */
    async search(viewer: Viewer | undefined, q: string, cursor: string | undefined): Promise<SearchAnswer> {
      const readable = (await store.categoryRows()).filter((c) => c.anyoneReads || checkAccess(viewer ?? null, c.accessLevel).allowed);
      const reader = readerOf(viewer);
      const rows = await store.search(
        reader,
        q,
        readable.map((c) => c.id),
        readPostCursor(cursor),
        RESULTS_PER_PAGE + 1,
      );
      const hits = pageOf(rows, RESULTS_PER_PAGE, (r) => postCursorOf(r.micros, r.postId));
      const authors = await authorsOf(hits.rows.map((r) => r.authorId));
      return {
        items: hits.rows.map((r) => ({
          threadId: r.threadId,
          title: r.title,
          category: { slug: r.categorySlug, name: r.categoryName },
          postId: r.postId,
          isOpener: r.isOpener,
          excerpt: r.excerpt,
          author: authorOf(r.authorId, authors),
          createdAt: r.createdAt.toISOString(),
          ...(reader.staff ? { status: r.status, threadStatus: r.threadStatus } : {}),
        })),
        nextCursor: hits.nextCursor,
      };
    },

    /** Whether the member may read the thread now (the reply mails ask before each mail); false for an unknown thread. */
    async mayRead(viewer: Viewer, threadId: string): Promise<boolean> {
      const found = await store.thread(threadId);
      return found ? access.mayRead(viewer, found.thread, found.category) : false;
    },

    /** Forgets the visitors' serialised answers (the community changed here or on another instance). */
    changed,
  };
}

/** Whether a signed-in viewer's level (staff: premium) reaches `level`. */
const canPostAt = (viewer: Viewer, level: CategoryRow['accessLevel']) => checkAccess(viewer, level).allowed;

export type CommunityService = ReturnType<typeof createCommunityService>;
