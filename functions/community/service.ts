/**
 * The community: categories, threads and replies, comments under articles and lessons, edits,
 * deletions, likes and search. Who reads and writes where is access.ts (the one access rule); the
 * writes and what they ask are posting.ts; this module reads, and assembles both.
 *
 * Visitors' answers that are the same for everyone (the categories, the first page of a category
 * anyone reads) are serialised once and kept until the community changes (here at once; on other
 * instances through COMMUNITY_CHANNEL, compose.ts), like the public content answers.
 */
import { checkAccess } from '#shared/access.ts';
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
  postCursorOf,
  readPostCursor,
  type Author,
  type Category,
  type Post,
  type Thread,
  type ThreadPage,
} from './answers.ts';
import { createCommunityPosting } from './posting.ts';
import { authorsOf, readerOf, threadList, threadPage, type ListAnswer } from './thread-pages.ts';
import { createCommunityStore, type CommunityStore } from './store.ts';
import type { CategoryRow, PostRow, ThreadRow } from './tables.ts';
import { RESULTS_PER_PAGE, THREADS_PER_PAGE } from './schema.ts';

export type { Written } from './posting.ts';
export type { ListAnswer } from './thread-pages.ts';

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

/** The visitors' answers this instance keeps, and how many times they were forgotten (a load started before keeps nothing). */
interface KeptAnswers {
  categories?: Promise<CachedAnswer<{ items: Category[] }>>;
  loaded?: CachedAnswer<{ items: Category[] }>;
  lists: Map<string, CachedAnswer<ListAnswer>>;
  clears: number;
}
/** What the service's parts share: its dependencies, the store, the member directory and the kept answers. */
interface CommunityParts extends CommunityServiceDeps {
  store: CommunityStore;
  directory: ReturnType<typeof memberDirectory>;
  kept: KeptAnswers;
}

async function categoryOf({ store }: CommunityParts, slug: string): Promise<CategoryRow> {
  const category = await store.categoryBySlug(slug);
  if (!category) throw new AppError('not_found', 'Category not found');
  return category;
}

/** Visitors' answers, serialised once and kept until the community changes. */
function keptAnswers(deps: CommunityParts) {
  const { cacheControl, store, kept } = deps;
  return {
    /** GET /api/community/categories: the same for everyone (names are not secret; thread titles are). */
    categories(): Promise<CachedAnswer<{ items: Category[] }>> {
      if (kept.categories) return kept.categories;
      const generation = kept.clears;
      const loading = store.categories().then((rows) => {
        const answer = createAnswer({ items: rows.map(categoryAnswer) }, { cacheControl });
        if (generation === kept.clears) kept.loaded = answer;
        return answer;
      });
      kept.categories = loading;
      loading.catch(() => (kept.categories === loading ? (kept.categories = undefined) : undefined));
      return loading;
    },

    /** The loaded categories answer, without waiting (the answer lane's resolver). */
    peekCategories: () => kept.loaded,

    /**
     * A visitor's first page of a category anyone reads, serialised once (undefined for any other
     * category: then `threads` answers, or says why not).
     */
    async publicThreads(slug: string): Promise<CachedAnswer<ListAnswer> | undefined> {
      const loaded = kept.lists.get(slug);
      if (loaded) return loaded;
      const generation = kept.clears;
      const category = await store.categoryBySlug(slug);
      if (!category?.anyoneReads) return undefined;
      const answer = createAnswer(await threadList(deps, undefined, category, undefined, THREADS_PER_PAGE), { cacheControl });
      if (generation === kept.clears) kept.lists.set(slug, answer);
      return answer;
    },

    /** The loaded public first page, without waiting (the answer lane's resolver). */
    peekPublicThreads: (slug: string) => kept.lists.get(slug),
  };
}

/** Members' reads: threads, a thread's posts, comments, the search, the read check. */
function reads(deps: CommunityParts) {
  const { access, store } = deps;
  return {
    /** GET /api/community/threads?category=: one page of threads, pinned first, then the latest post first. */
    async threads(viewer: Viewer | undefined, slug: string, cursor: string | undefined, limit: number): Promise<ListAnswer> {
      const category = await categoryOf(deps, slug);
      access.assertReadCategory(viewer, category);
      return threadList(deps, viewer, category, cursor, limit);
    },

    /** GET /api/community/threads/{id}: the thread and a page of its posts, oldest first. */
    async thread(viewer: Viewer | undefined, id: string, cursor: string | undefined, limit: number): Promise<ThreadPage> {
      const found = await store.thread(id);
      if (!found) throw threadNotFound();
      const place = await access.assertReadThread(viewer, found.thread, found.category);
      return threadPage(deps, viewer, found.thread, place, cursor, limit);
    },

    /** GET /api/community/comments/…: a page of an item's comments, gated like its body. */
    async comments(viewer: Viewer | undefined, where: CommentsPlace, cursor: string | undefined, limit: number): Promise<CommentsPage> {
      const target = await access.commentsOf(viewer, where);
      const thread = await store.threadByContent(target.contentId);
      if (!thread) return { thread: null, posts: [], nextCursor: null };
      return threadPage(deps, viewer, thread, target.place, cursor, limit);
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
      const authors = await authorsOf(
        deps,
        hits.rows.map((r) => r.authorId),
      );
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
  };
}

export function createCommunityService(options: CommunityServiceDeps) {
  const { db, access, limiter, renderPost, clock = () => new Date() } = options;
  const directory = memberDirectory(db);
  const deps: CommunityParts = { ...options, store: createCommunityStore(db), directory, kept: { lists: new Map(), clears: 0 } };
  const { kept } = deps;

  const changed = () => {
    kept.clears += 1;
    kept.categories = undefined;
    kept.loaded = undefined;
    kept.lists.clear();
  };

  const posting = createCommunityPosting({
    db,
    access,
    limiter,
    clock,
    authorsOf: (ids) => authorsOf(deps, ids),
    accountCreatedAt: async (id) => (await directory.byIds([id]))[0]?.createdAt,
    changed,
    renderPost,
  });

  return {
    ...posting,
    ...keptAnswers(deps),
    ...reads(deps),
    /** Forgets the visitors' serialised answers (the community changed here or on another instance). */
    changed,
  };
}

export type CommunityService = ReturnType<typeof createCommunityService>;
