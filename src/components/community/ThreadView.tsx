/**
 * The thread page's island: the thread (title, where it lives, its marks), its posts in cursor
 * pages (oldest first; "Load more replies" also works as a plain link without JavaScript), the reply
 * form for members who may reply, the mute switch for members who follow it, and staff's controls
 * (their own chunk, loaded for staff only). A public thread is rendered on the server from the
 * visitor's answer; any other arrives from the API with the member's token, so its title is in no
 * HTML. Refusals are gates: 401 asks to sign in, 403 names the level.
 */
import { lazy, Suspense, useEffect } from 'react';
import { isStaff } from '#shared/access.ts';
import { LoadFailure, LoadingLines } from '../content/gated/LoadStates.tsx';
import { fetchThread, type ThreadPage } from './community-api.ts';
import { CommunityGate } from './CommunityGate.tsx';
import { MoreButton } from './MoreButton.tsx';
import { MuteButton, MuteButtonSpace } from './MuteButton.tsx';
import { PostList } from './PostList.tsx';
import { RenderedAt } from './PostTime.tsx';
import { ReplyArea } from './ReplyArea.tsx';
import { ThreadHeader } from './ThreadHeader.tsx';
import { usePostActions } from './use-post-actions.ts';
import { useCursorPages } from './use-cursor-pages.ts';

const StaffThreadControls = lazy(() => import('./StaffControls.tsx').then((m) => ({ default: m.StaffThreadControls })));

const postsOf = (page: ThreadPage) => page.posts;

export interface ThreadViewProps {
  id: string;
  /** The page's `?cursor=` (a later page of posts), or null. */
  cursor: string | null;
  /** The visitor's answer, rendered on the server: public threads only (the page then draws the title itself). */
  initial?: ThreadPage | undefined;
  /** When the server rendered `initial` (ms since the epoch): its times say "5 minutes ago" as of then (PostTime.tsx). */
  renderedAt?: number | undefined;
}

export default function ThreadView({ id, cursor, initial, renderedAt }: ThreadViewProps) {
  const pages = useCursorPages({
    key: id,
    firstCursor: cursor,
    initial,
    load: (at, signedIn, signal) => fetchThread(id, at, signedIn, signal),
    itemsOf: postsOf,
    // Only a public thread is for visitors, and the server rendered it: any other gates them at once.
    visitors: initial !== undefined,
  });
  const { viewer, state } = pages;
  const staff = viewer.status === 'signed-in' && isStaff(viewer.viewer?.role);
  const actions = usePostActions(pages, viewer.status === 'signed-in', staff);
  const title = state.status === 'ready' ? state.head.thread.title : undefined;

  // A thread that is not public has a generic title in the page: the island names it once loaded.
  useEffect(() => {
    if (title && !initial) document.title = `${title} | Community`;
  }, [title, initial]);

  switch (state.status) {
    case 'loading':
      return <LoadingLines label="Loading the discussion…" />;
    case 'gate':
      return <CommunityGate signedIn={state.signedIn} level={state.level} what="discussion" />;
    case 'not-found':
    case 'error':
      return <LoadFailure message={state.message} onRetry={state.status === 'error' ? pages.retry : undefined} />;
  }
  const { thread } = state.head;
  const refresh = () => void pages.refresh();
  return (
    <RenderedAt.Provider value={renderedAt}>
      <div className="flex flex-col gap-6">
        <ThreadHeader thread={thread} headed={initial !== undefined}>
          {thread.muted !== null && viewer.status === 'signed-in' ? (
            <MuteButton threadId={thread.id} muted={thread.muted} />
          ) : (
            <MuteButtonSpace />
          )}
        </ThreadHeader>
        {staff && (
          <Suspense fallback={null}>
            <StaffThreadControls thread={thread} onDone={refresh} />
          </Suspense>
        )}
        {cursor && (
          <a href={`/community/threads/${thread.id}`} className="self-start text-sm font-medium text-brand-700 hover:underline">
            ← From the first post
          </a>
        )}
        <PostList label="Posts" posts={state.items} actions={actions} staff={staff} onStaffDone={refresh} />
        <MoreButton
          nextCursor={state.nextCursor}
          href={(next) => `/community/threads/${thread.id}?cursor=${encodeURIComponent(next)}`}
          state={pages.more}
          onMore={() => void pages.loadMore()}
          label="Load more replies"
        />
        <ReplyArea thread={thread} signedIn={viewer.status === 'signed-in'} onReplied={() => pages.refresh(true)} />
      </div>
    </RenderedAt.Provider>
  );
}
