/** A thread in a category's list: title, who started it, replies and the latest activity, its marks; and the loading rows. */
import type { ThreadSummary } from './community-api.ts';
import { PostTime } from './PostTime.tsx';
import { ThreadMarks } from './ThreadMarks.tsx';

export function ThreadRow({ thread, showStatus }: { thread: ThreadSummary; showStatus: boolean }) {
  return (
    <li className="flex flex-col gap-1 p-4 sm:flex-row sm:items-center sm:gap-4" data-testid="thread-row">
      <div className="min-w-0 flex-1">
        <div className="flex flex-wrap items-center gap-2">
          <a href={`/community/threads/${thread.id}`} className="text-base font-semibold text-ink hover:text-brand-700 hover:underline">
            {thread.title}
          </a>
          <ThreadMarks thread={showStatus ? thread : { ...thread, status: 'visible' }} />
        </div>
        <p className="mt-1 text-sm text-slate-500">
          Started by {thread.author?.name ?? 'Deleted member'} · <PostTime at={thread.createdAt} />
        </p>
      </div>
      <dl className="flex gap-4 text-sm text-slate-500 sm:text-right">
        <div>
          <dt className="sr-only">Replies</dt>
          <dd>
            {thread.replyCount} {thread.replyCount === 1 ? 'reply' : 'replies'}
          </dd>
        </div>
        <div>
          <dt className="sr-only">Latest post</dt>
          <dd>
            <PostTime at={thread.lastPostAt} prefix="Last post " />
          </dd>
        </div>
      </dl>
    </li>
  );
}

/** Grey rows where threads are coming, announced once. */
export function ThreadRowsSkeleton({ rows = 6 }: { rows?: number }) {
  return (
    <div aria-busy="true" className="flex flex-col divide-y divide-slate-200 rounded-2xl border border-slate-200 bg-white">
      <span className="sr-only" role="status">
        Loading…
      </span>
      {Array.from({ length: rows }, (_, i) => (
        <div key={i} data-testid="skeleton-row" className="flex animate-pulse flex-col gap-2 p-4">
          <div className="h-5 w-2/3 rounded bg-slate-200" />
          <div className="h-4 w-1/3 rounded bg-slate-200" />
        </div>
      ))}
    </div>
  );
}
