/**
 * A thread's head on its page: where it lives (its category, or the article or lesson it comments
 * on) and the title, then who started it and when, the replies' count and its marks (pinned, locked,
 * and for its author or staff waiting, hidden or deleted); `children` is the mute switch or its room. A public
 * thread's page renders the breadcrumb and title on the server (ThreadHeading.astro, so the largest
 * text paints with the first bytes) and the island draws only the facts below them (`headed`).
 */
import type { ReactNode } from 'react';
import type { Thread } from './community-api.ts';
import { PostTime } from './PostTime.tsx';
import { placeLink } from './thread-place.ts';
import { ThreadMarks } from './ThreadMarks.tsx';

export function ThreadHeader({ thread, headed, children }: { thread: Thread; headed?: boolean; children?: ReactNode }) {
  const back = placeLink(thread.place);
  // The facts wrap in their own column beside the mute switch (or its room), so the switch appearing
  // never moves them onto another line.
  const facts = (
    <div className="flex items-center gap-3">
      <div className="flex min-w-0 flex-1 flex-wrap items-center gap-x-3 gap-y-2 text-sm text-slate-500">
        <span>
          Started by <span className="font-medium text-slate-700">{thread.author?.name ?? 'Deleted member'}</span> ·{' '}
          <PostTime at={thread.createdAt} />
        </span>
        <span>
          {thread.replyCount} {thread.replyCount === 1 ? 'reply' : 'replies'}
        </span>
        <ThreadMarks thread={thread} />
      </div>
      {children && <div className="shrink-0">{children}</div>}
    </div>
  );
  if (headed) return facts;
  return (
    <header className="flex flex-col gap-3">
      <nav aria-label="Breadcrumb" className="text-sm">
        <a href="/community" className="font-medium text-brand-700 hover:underline">
          Community
        </a>
        <span aria-hidden="true" className="px-2 text-slate-400">
          /
        </span>
        <a href={back.href} className="font-medium text-brand-700 hover:underline">
          {back.label}
        </a>
      </nav>
      <h1 className="text-3xl font-bold tracking-tight text-ink sm:text-4xl" data-testid="thread-title">
        {thread.title || 'Comments'}
      </h1>
      {facts}
    </header>
  );
}
