/**
 * Members' comments under an article or a lesson, on the community's machinery (a comments thread
 * per item, made with the first comment). Loaded as its own chunk by the gated body's island once
 * the body showed, so whoever reads the body reads and writes its comments and nobody else sees
 * them (the server applies the body's rule to every comments route too): below the level they are
 * hidden like the body. Oldest first in cursor pages, with likes, edits, deletions, reports, the
 * mute switch for followers and, for staff, lock and unlock.
 */
import { lazy, Suspense } from 'react';
import { isStaff } from '#shared/access.ts';
import { LoadFailure, LoadingLines } from '../content/gated/LoadStates.tsx';
import { addComment, fetchComments, type CommentsPage, type CommentsWhere } from './community-api.ts';
import { CommunityGate } from './CommunityGate.tsx';
import { MoreButton } from './MoreButton.tsx';
import { MuteButton } from './MuteButton.tsx';
import { PostForm } from './PostForm.tsx';
import { PostList } from './PostList.tsx';
import { postedToast } from './ReplyArea.tsx';
import { useCursorPages } from './use-cursor-pages.ts';
import { usePostActions } from './use-post-actions.ts';

const StaffThreadControls = lazy(() => import('./StaffControls.tsx').then((m) => ({ default: m.StaffThreadControls })));

const postsOf = (page: CommentsPage) => page.posts;
const keyOf = (where: CommentsWhere) => (where.type === 'blog' ? `blog/${where.slug}` : `course/${where.slug}/${where.lessonId}`);

export default function Comments({ where }: { where: CommentsWhere }) {
  const pages = useCursorPages({
    key: keyOf(where),
    firstCursor: null,
    load: (at, _signedIn, signal) => fetchComments(where, at, signal),
    itemsOf: postsOf,
  });
  const { viewer, state } = pages;
  const staff = viewer.status === 'signed-in' && isStaff(viewer.viewer?.role);
  const actions = usePostActions(pages, viewer.status === 'signed-in', staff);

  let content;
  if (state.status === 'loading') content = <LoadingLines label="Loading comments…" lines={3} />;
  else if (state.status === 'gate') content = <CommunityGate signedIn={state.signedIn} level={state.level} what="comments" />;
  else if (state.status !== 'ready')
    content = <LoadFailure message={state.message} onRetry={state.status === 'error' ? pages.retry : undefined} />;
  else {
    const { thread } = state.head;
    const refresh = () => void pages.refresh();
    content = (
      <>
        {thread && (thread.muted !== null || staff) && (
          <div className="flex flex-wrap items-center gap-2">
            {thread.muted !== null && <MuteButton threadId={thread.id} muted={thread.muted} />}
            {staff && (
              <Suspense fallback={null}>
                <StaffThreadControls thread={thread} onDone={refresh} />
              </Suspense>
            )}
          </div>
        )}
        {state.items.length === 0 ? (
          <p className="text-slate-600">No comments yet.</p>
        ) : (
          <PostList label="Comments" posts={state.items} actions={actions} staff={staff} onStaffDone={refresh} />
        )}
        <MoreButton
          nextCursor={state.nextCursor}
          href={() => '#comments'}
          state={pages.more}
          onMore={() => void pages.loadMore()}
          label="More comments"
        />
        {thread && !thread.canReply ? (
          <p className="rounded-2xl border border-dashed border-slate-300 p-6 text-center text-slate-600">
            {thread.locked ? 'Comments are closed.' : 'You cannot comment here.'}
          </p>
        ) : (
          <PostForm
            label="Your comment"
            submitLabel="Post comment"
            onSend={async ({ body }) => {
              const result = await addComment(where, body);
              if (!result.ok) return result;
              postedToast(result.data.status, 'comment');
              await pages.refresh(true);
              return { ok: true, data: null };
            }}
          />
        )}
      </>
    );
  }
  const count = state.status === 'ready' && state.head.thread ? state.head.thread.replyCount : undefined;
  return (
    <section
      id="comments"
      aria-labelledby="comments-heading"
      className="mt-10 flex scroll-mt-24 flex-col gap-4 border-t border-slate-200 pt-8"
    >
      <h2 id="comments-heading" className="text-2xl font-bold text-ink">
        Comments{count ? ` (${count})` : ''}
      </h2>
      {content}
    </section>
  );
}
