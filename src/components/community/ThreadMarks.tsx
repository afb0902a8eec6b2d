/** A thread's marks in lists and on its page: pinned, locked, and (to its author or staff) its status. */
import type { ThreadSummary } from './community-api.ts';

const MARK = 'rounded px-1.5 py-0.5 text-xs font-semibold';
const STATUS: Record<Exclude<ThreadSummary['status'], 'visible'>, { label: string; look: string }> = {
  held: { label: 'Waiting for approval', look: 'bg-amber-50 text-amber-800' },
  hidden: { label: 'Hidden', look: 'bg-slate-100 text-slate-700' },
  deleted: { label: 'Deleted', look: 'bg-red-50 text-red-800' },
};

export function ThreadMarks({ thread }: { thread: Pick<ThreadSummary, 'pinned' | 'locked' | 'status'> }) {
  return (
    <>
      {thread.pinned && <span className={`${MARK} bg-brand-50 text-brand-700`}>Pinned</span>}
      {thread.locked && <span className={`${MARK} bg-slate-100 text-slate-700`}>Locked</span>}
      {thread.status !== 'visible' && (
        <span data-testid="thread-status" className={`${MARK} ${STATUS[thread.status].look}`}>
          {STATUS[thread.status].label}
        </span>
      )}
    </>
  );
}
