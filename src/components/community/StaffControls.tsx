/**
 * Staff's controls on a thread page (editors and admins; loaded as its own chunk, for staff only):
 * pin, lock, move, hide and delete the thread, and approve, hide, unhide or delete a post, through
 * the moderation API (`POST /api/admin/community/threads/{id}` and `/posts/{id}`), which logs every
 * action. The server checks the role; these only offer what applies to the thread's state.
 */
import { useEffect, useId, useState } from 'react';
import { COMMENTS_THREAD_ACTIONS, type PostAction, type ThreadAction } from '#shared/community/moderation.ts';
import { toast } from '../../lib/browser/toast.ts';
import { fetchCategories, moderatePost, moderateThread, type Category, type Post, type Sent, type Thread } from './community-api.ts';

const BUTTON =
  'min-h-9 rounded-md px-2.5 text-sm font-medium text-slate-700 ring-1 ring-inset ring-slate-300 hover:bg-slate-50 disabled:opacity-50';
const DANGER =
  'min-h-9 rounded-md px-2.5 text-sm font-medium text-red-700 ring-1 ring-inset ring-red-300 hover:bg-red-50 disabled:opacity-50';

const THREAD_DONE: Record<ThreadAction, string> = {
  pin: 'Thread pinned',
  unpin: 'Thread unpinned',
  lock: 'Thread locked',
  unlock: 'Thread unlocked',
  hide: 'Thread hidden',
  unhide: 'Thread shown again',
  delete: 'Thread deleted',
  move: 'Thread moved',
};
const POST_DONE: Record<PostAction, string> = {
  approve: 'Post approved',
  hide: 'Post hidden',
  unhide: 'Post shown again',
  delete: 'Post deleted',
  dismiss: 'Reports dismissed',
};

function useAction<A extends string>(
  done: Record<A, string>,
  send: (action: A, extra?: string) => Promise<Sent<unknown>>,
  onDone: () => void,
) {
  const [busy, setBusy] = useState(false);
  async function act(action: A, extra?: string) {
    setBusy(true);
    const result = await send(action, extra);
    setBusy(false);
    if (result.ok) {
      toast({ title: done[action] });
      onDone();
    } else toast({ title: 'Error', description: result.message, variant: 'destructive' });
  }
  return { busy, act: (action: A, extra?: string) => void act(action, extra) };
}

export function StaffThreadControls({ thread, onDone }: { thread: Thread; onDone: () => void }) {
  const { busy, act } = useAction<ThreadAction>(THREAD_DONE, (action, category) => moderateThread(thread.id, action, category), onDone);
  const [confirming, setConfirming] = useState(false);
  const comments = thread.place.kind === 'comments';
  const offers = (action: ThreadAction) => !comments || COMMENTS_THREAD_ACTIONS.includes(action);
  const gone = thread.status === 'deleted';
  return (
    <section aria-label="Moderation" className="flex flex-wrap items-center gap-2 rounded-xl border border-amber-200 bg-amber-50/60 p-3">
      <span className="text-sm font-semibold text-amber-900">Staff</span>
      {offers('pin') && !gone && (
        <button type="button" className={BUTTON} disabled={busy} onClick={() => act(thread.pinned ? 'unpin' : 'pin')}>
          {thread.pinned ? 'Unpin' : 'Pin'}
        </button>
      )}
      {!gone && (
        <button type="button" className={BUTTON} disabled={busy} onClick={() => act(thread.locked ? 'unlock' : 'lock')}>
          {thread.locked ? 'Unlock' : 'Lock'}
        </button>
      )}
      {offers('hide') && !gone && (
        <button type="button" className={BUTTON} disabled={busy} onClick={() => act(thread.status === 'hidden' ? 'unhide' : 'hide')}>
          {thread.status === 'hidden' ? 'Unhide' : 'Hide'}
        </button>
      )}
      {offers('move') && !gone && thread.place.kind === 'category' && (
        <MoveControl current={thread.place.slug} busy={busy} onMove={(slug) => act('move', slug)} />
      )}
      {offers('delete') &&
        !gone &&
        (confirming ? (
          <span className="flex items-center gap-2 text-sm">
            Delete this thread for everyone?
            <button type="button" className={DANGER} disabled={busy} onClick={() => act('delete')}>
              Yes, delete
            </button>
            <button type="button" className={BUTTON} onClick={() => setConfirming(false)}>
              Keep it
            </button>
          </span>
        ) : (
          <button type="button" className={DANGER} disabled={busy} onClick={() => setConfirming(true)}>
            Delete thread
          </button>
        ))}
    </section>
  );
}

function MoveControl({ current, busy, onMove }: { current: string; busy: boolean; onMove: (slug: string) => void }) {
  const id = useId();
  const [categories, setCategories] = useState<Category[]>([]);
  const [target, setTarget] = useState('');
  useEffect(() => {
    const controller = new AbortController();
    fetchCategories(controller.signal)
      .then((result) => result.ok && setCategories(result.data.items.filter((c) => c.slug !== current)))
      .catch(() => undefined); // aborted
    return () => controller.abort();
  }, [current]);
  if (categories.length === 0) return null;
  return (
    <span className="flex items-center gap-1">
      <label htmlFor={id} className="sr-only">
        Move to category
      </label>
      <select
        id={id}
        value={target}
        onChange={(e) => setTarget(e.target.value)}
        className="min-h-9 rounded-md border border-slate-300 px-2 text-sm"
      >
        <option value="">Move to…</option>
        {categories.map((c) => (
          <option key={c.slug} value={c.slug}>
            {c.name}
          </option>
        ))}
      </select>
      <button type="button" className={BUTTON} disabled={busy || !target} onClick={() => onMove(target)}>
        Move
      </button>
    </span>
  );
}

export function StaffPostControls({ post, onDone }: { post: Post; onDone: () => void }) {
  const { busy, act } = useAction<PostAction>(POST_DONE, (action) => moderatePost(post.id, action, post.editedAt), onDone);
  const [confirming, setConfirming] = useState(false);
  if (post.status === 'deleted') return null;
  return (
    <span className="ml-auto flex flex-wrap gap-1" role="group" aria-label="Moderate this post">
      {post.status === 'held' && (
        <button type="button" className={BUTTON} disabled={busy} onClick={() => act('approve')}>
          Approve
        </button>
      )}
      {post.status === 'hidden' ? (
        <button type="button" className={BUTTON} disabled={busy} onClick={() => act('unhide')}>
          Unhide
        </button>
      ) : (
        <button type="button" className={BUTTON} disabled={busy} onClick={() => act('hide')}>
          Hide
        </button>
      )}
      {confirming ? (
        <>
          <button type="button" className={DANGER} disabled={busy} onClick={() => act('delete')}>
            Yes, delete it
          </button>
          <button type="button" className={BUTTON} onClick={() => setConfirming(false)}>
            Keep it
          </button>
        </>
      ) : (
        <button type="button" className={DANGER} disabled={busy} onClick={() => setConfirming(true)}>
          Delete
        </button>
      )}
    </span>
  );
}
