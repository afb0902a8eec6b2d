/**
 * The community's SQL on categories, threads, posts, likes, members' standing and follows (the
 * moderation and notification parts keep theirs in their own stores), one part per file in
 * `store/`: this file composes them and is the one the rest of the domain imports.
 *
 * Every count a post keeps (a thread's `reply_count` and `last_post_at`, a post's `like_count`, the
 * followers' `pending_since`) moves in the transaction of the change. A post's visibility changes in
 * four functions the moderation part calls too (`publishPost`, `withdrawPost`, `publishThread`,
 * `withdrawThread`, in `store/visibility.ts`): each keeps the counts and the followers in step and
 * tells every instance the public lists changed (`announce`, COMMUNITY_CHANNEL).
 *
 * Lists page by keyset (never by offset): threads by `(pinned, last_post_at, id)` descending on
 * `community_threads_list_idx`, posts by `(created_at, id)` on `community_posts_thread_idx`, with
 * cursors exact to the microsecond (`store/shared.ts`).
 */
import type { DbOrTx } from '../platform/db/client.ts';
import { accountQueries, standingQueries } from './store/accounts.ts';
import { categoryQueries } from './store/categories.ts';
import { likeQueries } from './store/likes.ts';
import { postQueries } from './store/posts.ts';
import { searchQueries } from './store/search.ts';
import { seedQueries } from './store/seed.ts';
import type { StoreDeps } from './store/shared.ts';
import { threadQueries } from './store/threads.ts';

export {
  COMMUNITY_CHANNEL,
  followReply,
  notifyChanged,
  publishPost,
  publishThread,
  withdrawPost,
  withdrawThread,
} from './store/visibility.ts';
export type {
  CategoryStats,
  NewPost,
  NewThread,
  PostCursor,
  PostListRow,
  Reader,
  SearchRow,
  ThreadCursor,
  ThreadListRow,
} from './store/shared.ts';
export type { PostStatus } from './tables.ts';

export function createCommunityStore(db: DbOrTx) {
  const deps: StoreDeps = { db };
  return {
    ...categoryQueries(deps),
    ...threadQueries(deps),
    ...postQueries(deps),
    ...likeQueries(deps),
    ...searchQueries(deps),
    ...standingQueries(deps),
    ...seedQueries(deps),
    ...accountQueries(deps),
  };
}

export type CommunityStore = ReturnType<typeof createCommunityStore>;
