/**
 * One post in the moderation queue: where it is (category and thread, or an article's or lesson's
 * comments), who wrote it (with their level and any suspension), its text as members would see it
 * (the HTML the server sanitised when it was written), the reports, and the actions: approve a held
 * post, dismiss the reports (the post stays), hide, unhide, delete (after a confirmation), and
 * suspend the author from posting or lift their suspension.
 */
import { useId, useRef, useState, type RefObject } from 'react';
import { accessLabel } from '#shared/access.ts';
import type { PostAction } from '#shared/community/moderation.ts';
import { toast } from '../../lib/browser/toast.ts';
import { actOnPost, failureText, personLabel, type QueueItem } from './moderation-api.ts';
import { SuspendControl } from './ModerationSuspend.tsx';
// The body's reading style, wherever this island is used (the admin page has no page-level sheet).
import '../content/detail/prose.css';

const BUTTON = 'min-h-10 rounded-lg px-4 py-2 text-sm font-semibold disabled:opacity-60';
const PRIMARY = `${BUTTON} bg-brand-600 text-white hover:bg-brand-700`;
const SECONDARY = `${BUTTON} text-brand-700 ring-1 ring-inset ring-brand-200 hover:bg-brand-50`;
const DANGER = `${BUTTON} bg-red-700 text-white hover:bg-red-800`;

const DONE: Record<PostAction, string> = {
  approve: 'Post approved',
  hide: 'Post hidden',
  unhide: 'Post shown again',
  delete: 'Post deleted',
  dismiss: 'Reports dismissed',
};

const STATUS_BADGE: Record<string, { label: string; className: string }> = {
  held: { label: 'Held for approval', className: 'bg-amber-100 text-amber-900' },
  visible: { label: 'Reported', className: 'bg-red-100 text-red-800' },
  hidden: { label: 'Hidden', className: 'bg-slate-200 text-slate-800' },
};

const when = (iso: string) => new Date(iso).toLocaleString();

function Place({ thread }: { thread: QueueItem['thread'] }) {
  if (!thread.category)
    return thread.comments ? (
      <span>
        Comments under{' '}
        <a href={thread.comments.path} className="font-medium text-brand-700 hover:underline">
          {thread.comments.title}
        </a>
      </span>
    ) : (
      <span>Comments under a removed article or lesson</span>
    );
  return (
    <span>
      {thread.category.name} ({accessLabel(thread.category.accessLevel)}) ·{' '}
      <a href={`/community/threads/${thread.id}`} className="font-medium text-brand-700 hover:underline">
        {thread.title}
      </a>
    </span>
  );
}

export function ModerationItem({ item, onDone }: { item: QueueItem; onDone: () => void }) {
  const { post, thread, author, reports } = item;
  const [busy, setBusy] = useState<PostAction | null>(null);
  const confirm = useRef<HTMLDialogElement>(null);
  const ids = useId();
  const badge = STATUS_BADGE[post.status];

  async function act(action: PostAction) {
    confirm.current?.close();
    setBusy(action);
    const result = await actOnPost(post.id, action, post.editedAt);
    setBusy(null);
    if (!result.ok) {
      toast({ title: 'Error', description: failureText(result, 'The post could not be changed.'), variant: 'destructive' });
      return;
    }
    toast({ title: DONE[action], description: `The post by ${personLabel(author)} in “${thread.title || 'comments'}”.` });
    onDone();
  }

  return (
    <li aria-labelledby={`${ids}-title`} className="space-y-3 rounded-2xl bg-white p-5 shadow-sm ring-1 ring-slate-200">
      <div className="flex flex-wrap items-start justify-between gap-3">
        <h3 id={`${ids}-title`} className="font-semibold text-slate-900">
          {post.isOpener ? 'Opening post' : 'Reply'} by {personLabel(author)}
        </h3>
        {badge && <span className={`rounded-full px-2.5 py-0.5 text-xs font-semibold ${badge.className}`}>{badge.label}</span>}
      </div>
      <p className="text-sm text-slate-600">
        <Place thread={thread} /> · written {when(post.createdAt)}
        {post.editedAt ? ' (edited)' : ''}
      </p>
      {author && (
        <p className="text-sm text-slate-600" data-testid="moderation-author">
          {author.email} · {accessLabel(author.accessLevel)}
          {author.suspension ? ` · Suspended ${author.suspension.until ? `until ${when(author.suspension.until)}` : 'until lifted'}` : ''}
        </p>
      )}
      <div
        className="prose-body max-h-80 overflow-auto rounded-xl bg-slate-50 p-4 text-sm"
        dangerouslySetInnerHTML={{ __html: post.html }}
      />
      {reports.length > 0 && <Reports reports={reports} />}
      <div className="flex flex-wrap gap-2">
        {post.status === 'held' && (
          <button type="button" className={PRIMARY} disabled={busy !== null} onClick={() => void act('approve')}>
            {busy === 'approve' ? 'Approving...' : 'Approve'}
          </button>
        )}
        {reports.length > 0 && (
          <button type="button" className={SECONDARY} disabled={busy !== null} onClick={() => void act('dismiss')}>
            {busy === 'dismiss' ? 'Dismissing...' : 'Dismiss reports'}
          </button>
        )}
        {post.status === 'hidden' ? (
          <button type="button" className={SECONDARY} disabled={busy !== null} onClick={() => void act('unhide')}>
            {busy === 'unhide' ? 'Showing...' : 'Unhide'}
          </button>
        ) : (
          <button type="button" className={SECONDARY} disabled={busy !== null} onClick={() => void act('hide')}>
            {busy === 'hide' ? 'Hiding...' : 'Hide'}
          </button>
        )}
        <button type="button" className={DANGER} disabled={busy !== null} onClick={() => confirm.current?.showModal()}>
          {busy === 'delete' ? 'Deleting...' : 'Delete'}
        </button>
        {author && <SuspendControl author={author} onDone={onDone} />}
      </div>
      <ConfirmDelete ids={ids} dialog={confirm} onDelete={() => void act('delete')} />
    </li>
  );
}

/** The reports on the post: who reported it, when and why. */
function Reports({ reports }: { reports: QueueItem['reports'] }) {
  return (
    <div>
      <h4 className="text-sm font-semibold text-slate-900">{reports.length === 1 ? '1 report' : `${reports.length} reports`}</h4>
      <ul className="mt-1 space-y-1 text-sm text-slate-700" aria-label="Reports">
        {reports.map((r) => (
          <li key={r.id}>
            {personLabel(r.reporter)}, {when(r.createdAt)}: {r.reason || <span className="text-slate-500">no reason given</span>}
          </li>
        ))}
      </ul>
    </div>
  );
}

type ConfirmDeleteProps = { ids: string; dialog: RefObject<HTMLDialogElement | null>; onDelete: () => void };

/** The dialog Delete opens: deleting is for good, hiding keeps the post. */
function ConfirmDelete({ ids, dialog, onDelete }: ConfirmDeleteProps) {
  return (
    <dialog ref={dialog} aria-labelledby={`${ids}-confirm`} className="m-auto max-w-md rounded-2xl p-6 shadow-xl backdrop:bg-slate-900/50">
      <h4 id={`${ids}-confirm`} className="text-lg font-bold text-slate-900">
        Delete this post?
      </h4>
      <p className="mt-3 text-sm text-slate-700">
        Its text is removed for good; the thread keeps its place with “deleted”. Hide it instead to keep it for later.
      </p>
      <div className="mt-6 flex flex-wrap justify-end gap-3">
        <button type="button" className={SECONDARY} autoFocus onClick={() => dialog.current?.close()}>
          Keep it
        </button>
        <button type="button" className={DANGER} onClick={onDelete}>
          Delete post
        </button>
      </div>
    </dialog>
  );
}
