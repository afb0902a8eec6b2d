/**
 * One post in a thread or under an article: who wrote it (or "Deleted member"), when, whether it
 * was edited, its HTML as the server rendered and sanitised it on write (like a gated body), and
 * what the reader may do with it: like, edit or delete their own, report someone else's. Held,
 * hidden and deleted posts keep their place, marked; staff's controls come in through `staff`.
 */
import { useState, type ReactNode } from 'react';
import { MODERATION_LIMITS } from '#shared/community/moderation.ts';
import { INPUT_CLASS } from '../forms/TextField.tsx';
import type { Post, SendResult } from './community-api.ts';
import { PostForm } from './PostForm.tsx';
import { PostTime } from './PostTime.tsx';
import '../content/detail/prose.css';

export interface PostActions {
  /** Signed in and able to read here: likes and reports are offered. */
  member: boolean;
  /** Staff see hidden and deleted posts, marked, and their controls. */
  staff: boolean;
  like: (post: Post, liked: boolean) => Promise<void>;
  edit: (post: Post, body: string) => Promise<SendResult>;
  remove: (post: Post) => Promise<SendResult>;
  report: (post: Post, reason: string) => Promise<SendResult>;
  /** Loads the Markdown of the member's own post for editing. */
  source: (post: Post) => Promise<string | undefined>;
}

const LINK_BUTTON =
  'min-h-9 rounded-md px-2 text-sm font-medium text-slate-600 hover:bg-slate-100 hover:text-brand-700 disabled:opacity-50';
const STATUS_NOTE: Record<Exclude<Post['status'], 'visible'>, string> = {
  held: 'Waiting for approval',
  hidden: 'Hidden by a moderator',
  deleted: 'Deleted',
};

type Mode = { kind: 'read' } | { kind: 'edit'; body: string } | { kind: 'confirm-delete' } | { kind: 'report' } | { kind: 'reported' };

export function PostItem({ post, actions, staff }: { post: Post; actions: PostActions; staff?: ReactNode }) {
  const [mode, setMode] = useState<Mode>({ kind: 'read' });
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const anchor = `post-${post.id}`;

  async function run(work: () => Promise<SendResult>, after: Mode = { kind: 'read' }) {
    setBusy(true);
    setError(null);
    const result = await work();
    setBusy(false);
    if (result.ok) setMode(after);
    else setError(result.message);
  }

  async function openEditor() {
    setBusy(true);
    const body = await actions.source(post);
    setBusy(false);
    if (body === undefined) setError('This post could not be loaded for editing. Please try again.');
    else setMode({ kind: 'edit', body });
  }

  return (
    <article id={anchor} data-testid="community-post" className="scroll-mt-24 rounded-2xl border border-slate-200 bg-white p-5 shadow-sm">
      <PostHeader post={post} anchor={anchor} />

      {mode.kind === 'edit' ? (
        <div className="mt-3">
          <PostForm
            label="Edit your post"
            submitLabel="Save changes"
            initialBody={mode.body}
            autoFocus
            onSend={async ({ body }) => {
              const result = await actions.edit(post, body);
              if (result.ok) setMode({ kind: 'read' });
              return result;
            }}
            onCancel={() => setMode({ kind: 'read' })}
          />
        </div>
      ) : (
        <PostText post={post} />
      )}

      {/* At least a button's height, with or without buttons: a member's Like, Edit or Report arriving moves nothing. */}
      {mode.kind !== 'edit' && (
        <PostFooter
          post={post}
          actions={actions}
          mode={mode}
          busy={busy}
          staff={staff}
          onMode={setMode}
          onEdit={() => void openEditor()}
          onDelete={() => void run(() => actions.remove(post))}
        />
      )}
      {mode.kind === 'report' && (
        <ReportForm
          busy={busy}
          onCancel={() => setMode({ kind: 'read' })}
          onSend={(reason) => run(() => actions.report(post, reason), { kind: 'reported' })}
        />
      )}
      {error && (
        <p role="alert" className="mt-2 text-sm text-red-700">
          {error}
        </p>
      )}
    </article>
  );
}

function LikeButton({ post, enabled, onLike }: { post: Post; enabled: boolean; onLike: PostActions['like'] }) {
  const [busy, setBusy] = useState(false);
  const label = `${post.likeCount} ${post.likeCount === 1 ? 'like' : 'likes'}`;
  if (!enabled)
    return post.likeCount > 0 ? (
      <span className="px-2 text-sm text-slate-500" data-testid="like-count">
        <span aria-hidden="true">♥ </span>
        {label}
      </span>
    ) : null;
  return (
    <button
      type="button"
      aria-pressed={post.liked}
      disabled={busy}
      className={`${LINK_BUTTON} ${post.liked ? 'text-brand-700' : ''}`}
      onClick={() => {
        setBusy(true);
        void onLike(post, !post.liked).finally(() => setBusy(false));
      }}
    >
      <span aria-hidden="true">{post.liked ? '♥' : '♡'} </span>
      Like <span className="sr-only">this post,</span>
      <span data-testid="like-count"> ({label})</span>
    </button>
  );
}

function ReportForm({ busy, onSend, onCancel }: { busy: boolean; onSend: (reason: string) => void; onCancel: () => void }) {
  const [reason, setReason] = useState('');
  return (
    <form
      aria-label="Report this post"
      className="mt-3 flex flex-col gap-2 rounded-xl bg-slate-50 p-4"
      onSubmit={(e) => {
        e.preventDefault();
        onSend(reason.trim());
      }}
    >
      <label className="text-sm font-medium text-slate-700">
        What is wrong with it? (optional)
        <textarea
          className={`${INPUT_CLASS} min-h-20`}
          value={reason}
          maxLength={MODERATION_LIMITS.reportReason}
          onChange={(e) => setReason(e.target.value)}
        />
      </label>
      <div className="flex gap-2">
        <button
          type="submit"
          disabled={busy}
          className="min-h-11 rounded-lg bg-red-600 px-4 py-2 text-sm font-semibold text-white hover:bg-red-700 disabled:opacity-60"
        >
          Send report
        </button>
        <button type="button" className={LINK_BUTTON} onClick={onCancel}>
          Cancel
        </button>
      </div>
    </form>
  );
}

/** Who wrote the post, when (a link to it), whether it was edited, and its status when not visible. */
function PostHeader({ post, anchor }: { post: Post; anchor: string }) {
  return (
    <header className="flex flex-wrap items-center gap-x-2 gap-y-1 text-sm text-slate-500">
      <span className="font-semibold text-ink">{post.author?.name ?? 'Deleted member'}</span>
      {post.author?.staff && <span className="rounded bg-brand-50 px-1.5 py-0.5 text-xs font-semibold text-brand-700">Staff</span>}
      <span aria-hidden="true">·</span>
      <a href={`#${anchor}`} className="hover:underline">
        <PostTime at={post.createdAt} />
      </a>
      {post.editedAt && <span title={`Edited ${new Date(post.editedAt).toUTCString()}`}>(edited)</span>}
      {post.status !== 'visible' && (
        <span
          data-testid="post-status"
          className={`rounded px-1.5 py-0.5 text-xs font-semibold ${post.status === 'held' ? 'bg-amber-50 text-amber-800' : 'bg-slate-100 text-slate-700'}`}
        >
          {STATUS_NOTE[post.status]}
        </span>
      )}
    </header>
  );
}

/** The post's HTML as the server rendered it, or what took its place. */
function PostText({ post }: { post: Post }) {
  const gone = post.status === 'deleted';
  return post.html ? (
    <div className="prose-body mt-3" dangerouslySetInnerHTML={{ __html: post.html }} />
  ) : (
    <p className="mt-3 text-sm italic text-slate-500">
      {gone ? 'This post was deleted.' : post.status === 'hidden' ? 'This post was hidden by a moderator.' : ''}
    </p>
  );
}

type PostFooterProps = {
  post: Post;
  actions: PostActions;
  mode: Mode;
  busy: boolean;
  staff?: ReactNode;
  onMode: (mode: Mode) => void;
  onEdit: () => void;
  onDelete: () => void;
};

/** What the reader may do with the post: like it, edit or delete their own, report someone else's. */
function PostFooter({ post, actions, mode, busy, staff, onMode, onEdit, onDelete }: PostFooterProps) {
  const gone = post.status === 'deleted';
  return (
    <footer className="mt-3 flex min-h-9 flex-wrap items-center gap-1">
      {!gone && <LikeButton post={post} enabled={actions.member && !post.mine && post.status === 'visible'} onLike={actions.like} />}
      {post.mine && !gone && mode.kind === 'read' && (
        <>
          <button type="button" className={LINK_BUTTON} disabled={busy} onClick={onEdit}>
            Edit
          </button>
          <button type="button" className={LINK_BUTTON} onClick={() => onMode({ kind: 'confirm-delete' })}>
            Delete
          </button>
        </>
      )}
      {mode.kind === 'confirm-delete' && (
        <span role="group" aria-label="Delete this post?" className="flex flex-wrap items-center gap-1 text-sm">
          <span className="text-slate-700">Delete this post?</span>
          <button type="button" className={`${LINK_BUTTON} text-red-700`} disabled={busy} onClick={onDelete}>
            Yes, delete
          </button>
          <button type="button" className={LINK_BUTTON} onClick={() => onMode({ kind: 'read' })}>
            Keep it
          </button>
        </span>
      )}
      {actions.member && !post.mine && post.status === 'visible' && mode.kind === 'read' && (
        <button type="button" className={LINK_BUTTON} onClick={() => onMode({ kind: 'report' })}>
          Report
        </button>
      )}
      {mode.kind === 'reported' && (
        <span role="status" className="text-sm text-slate-600">
          Thanks: a moderator will look at it.
        </span>
      )}
      {staff}
    </footer>
  );
}
