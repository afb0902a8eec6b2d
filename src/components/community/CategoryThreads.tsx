/**
 * A category page's island: its threads (pinned first, then the latest post first) in cursor pages,
 * with the list pages' four states (skeleton rows, "Failed to load discussions." with Try Again, an
 * empty message, the list), and "Start a discussion" for members at the category's level. A
 * category anyone reads arrives rendered by the server from the visitor's answer; a signed-in member
 * asks again with their token (their own held threads show, marked; staff see every status). Any
 * other category loads from the API with the member's token, so no gated title is in the page; below
 * its level the viewer gets the gate card.
 */
import { useState } from 'react';
import { isStaff } from '#shared/access.ts';
import { signInHref, signUpHref } from '../content/gated/GateCard.tsx';
import { guessAccess } from '../content/gated/use-viewer.ts';
import { setFlash } from '../../lib/browser/flash.ts';
import { fetchThreads, startThread, type Category, type ThreadListPage } from './community-api.ts';
import { CommunityGate } from './CommunityGate.tsx';
import { MoreButton } from './MoreButton.tsx';
import { PostForm } from './PostForm.tsx';
import { ThreadRow, ThreadRowsSkeleton } from './ThreadRow.tsx';
import { useCursorPages } from './use-cursor-pages.ts';

export interface CategoryThreadsProps {
  category: Pick<Category, 'slug' | 'name' | 'accessLevel' | 'anyoneReads'>;
  /** The page's `?cursor=` (a later page), or null. */
  cursor: string | null;
  /** The visitor's first page, rendered on the server: categories anyone reads only. */
  initial?: ThreadListPage | undefined;
}

const threadsOf = (page: ThreadListPage) => page.items;
const NOTE = 'rounded-2xl border border-dashed border-slate-300 p-6 text-center text-slate-600';

export default function CategoryThreads({ category, cursor, initial }: CategoryThreadsProps) {
  const pages = useCursorPages({
    key: category.slug,
    firstCursor: cursor,
    initial,
    load: (at, signedIn, signal) => fetchThreads(category.slug, at, signedIn, signal),
    itemsOf: threadsOf,
    visitors: category.anyoneReads,
  });
  const { viewer, state } = pages;
  const canPost = guessAccess(viewer, category.accessLevel) === 'allowed';
  const staff = viewer.status === 'signed-in' && isStaff(viewer.viewer?.role);

  if (state.status === 'gate')
    return <CommunityGate signedIn={state.signedIn} level={state.level ?? category.accessLevel} what="category" />;
  return (
    <div className="flex flex-col gap-6">
      <NewThread category={category} canPost={canPost} signedIn={viewer.status === 'signed-in'} loading={viewer.status === 'loading'} />
      {state.status === 'loading' ? (
        <ThreadRowsSkeleton />
      ) : state.status === 'error' || state.status === 'not-found' ? (
        <div role="alert" className="rounded-2xl border border-red-200 bg-red-50 p-8 text-center">
          <p className="font-medium text-red-800">Failed to load discussions.</p>
          <button
            type="button"
            onClick={pages.retry}
            className="mt-4 rounded-lg bg-red-600 px-4 py-2 text-sm font-semibold text-white hover:bg-red-700"
          >
            Try Again
          </button>
        </div>
      ) : state.items.length === 0 ? (
        <p role="status" className={NOTE}>
          No discussions here yet.{canPost ? ' Start the first one above.' : ''}
        </p>
      ) : (
        <>
          {cursor && (
            <a href={`/community/${category.slug}`} className="self-start text-sm font-medium text-brand-700 hover:underline">
              ← Latest discussions
            </a>
          )}
          <ul className="flex flex-col divide-y divide-slate-200 rounded-2xl border border-slate-200 bg-white" aria-label="Discussions">
            {state.items.map((thread) => (
              <ThreadRow key={thread.id} thread={thread} showStatus={staff || thread.mine} />
            ))}
          </ul>
          <MoreButton
            nextCursor={state.nextCursor}
            href={(next) => `/community/${category.slug}?cursor=${encodeURIComponent(next)}`}
            state={pages.more}
            onMore={() => void pages.loadMore()}
            label="Older discussions"
          />
        </>
      )}
    </div>
  );
}

function NewThread({
  category,
  canPost,
  signedIn,
  loading,
}: {
  category: CategoryThreadsProps['category'];
  canPost: boolean;
  signedIn: boolean;
  loading: boolean;
}) {
  const [open, setOpen] = useState(false);
  // Every state takes the button's height, so nothing below moves when the session becomes known.
  if (loading) return <div className="min-h-11" />;
  if (!signedIn)
    return (
      <p className="flex min-h-11 items-center text-slate-600">
        <span>
          <a href={signInHref()} className="font-semibold text-brand-700 underline">
            Sign in
          </a>{' '}
          or{' '}
          <a href={signUpHref()} className="font-semibold text-brand-700 underline">
            sign up
          </a>{' '}
          to start a discussion.
        </span>
      </p>
    );
  if (!canPost) return <div className="min-h-11" />;
  if (!open)
    return (
      <button
        type="button"
        onClick={() => setOpen(true)}
        className="min-h-11 self-start rounded-lg bg-brand-600 px-5 py-2.5 text-sm font-semibold text-white hover:bg-brand-700"
      >
        Start a discussion
      </button>
    );
  return (
    <section aria-labelledby="new-thread-heading" className="rounded-2xl border border-slate-200 bg-slate-50 p-5">
      <h2 id="new-thread-heading" className="mb-3 text-lg font-semibold text-ink">
        New discussion in {category.name}
      </h2>
      <PostForm
        label="Your post"
        submitLabel="Post discussion"
        withTitle
        autoFocus
        onCancel={() => setOpen(false)}
        onSend={async ({ title, body }) => {
          const result = await startThread({ category: category.slug, title, body });
          if (!result.ok) return result;
          setFlash(
            result.data.status === 'held'
              ? { title: 'Waiting for approval', description: 'Your discussion will appear once a moderator approves it.' }
              : { title: 'Discussion posted' },
          );
          window.location.assign(`/community/threads/${result.data.id}`);
          return { ok: true, data: null };
        }}
      />
    </section>
  );
}
