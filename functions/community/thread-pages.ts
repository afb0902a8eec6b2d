/**
 * The pages members read of the community: a category's threads and a thread's posts, a page at a
 * time, with their authors' names (community/service.ts serves them and keeps the visitors' ones).
 */
import { checkAccess, isStaff } from '#shared/access.ts';
import type { memberDirectory } from '../users/index.ts';
import type { Viewer } from '../users/index.ts';
import {
  categoryAnswer,
  pageOf,
  postAnswer,
  postCursor,
  readPostCursor,
  readThreadCursor,
  threadCursor,
  threadSummary,
  type Authors,
  type Category,
  type ThreadPage,
  type ThreadPlace,
  type ThreadSummary,
} from './answers.ts';
import type { CommunityStore, Reader } from './store.ts';
import type { CategoryRow, ThreadRow } from './tables.ts';

/** What the pages read from: the community's store and the member directory (authors' names). */
export interface PageDeps {
  store: CommunityStore;
  directory: ReturnType<typeof memberDirectory>;
}

export interface ListAnswer {
  category: Category;
  items: ThreadSummary[];
  nextCursor: string | null;
}

/** A page of an article's or lesson's comments: no thread until the first comment. */

export const readerOf = (viewer: Viewer | undefined): Reader => ({ id: viewer?.id, staff: isStaff(viewer?.role) });

export async function authorsOf({ directory }: PageDeps, ids: (string | null)[]): Promise<Authors> {
  const wanted = [...new Set(ids.filter((id): id is string => id !== null))];
  return new Map((await directory.byIds(wanted)).map((p) => [p.id, p]));
}

export async function threadList(
  deps: PageDeps,
  viewer: Viewer | undefined,
  category: CategoryRow,
  cursor: string | undefined,
  limit: number,
): Promise<ListAnswer> {
  const { store } = deps;
  const [rows, stats] = await Promise.all([
    store.listThreads(category.id, readerOf(viewer), readThreadCursor(cursor), limit + 1),
    store.categoryStats(category.id),
  ]);
  const page = pageOf(rows, limit, threadCursor);
  const authors = await authorsOf(
    deps,
    page.rows.map((r) => r.authorId),
  );
  return {
    category: categoryAnswer({ ...category, ...stats }),
    items: page.rows.map((r) => threadSummary(r, authors, viewer?.id)),
    nextCursor: page.nextCursor,
  };
}

export async function threadPage(
  deps: PageDeps,
  viewer: Viewer | undefined,
  thread: ThreadRow,
  place: ThreadPlace,
  cursor: string | undefined,
  limit: number,
): Promise<ThreadPage> {
  const { store } = deps;
  const reader = readerOf(viewer);
  const [rows, follow, suspended] = await Promise.all([
    store.listPosts(thread.id, reader, readPostCursor(cursor), limit + 1),
    viewer ? store.follow(thread.id, viewer.id) : undefined,
    viewer ? store.suspension(viewer.id) : undefined,
  ]);
  const posts = pageOf(rows, limit, postCursor);
  const authors = await authorsOf(deps, [thread.authorId, ...posts.rows.map((r) => r.authorId)]);
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
/** Whether a signed-in viewer's level (staff: premium) reaches `level`. */
const canPostAt = (viewer: Viewer, level: CategoryRow['accessLevel']) => checkAccess(viewer, level).allowed;
