/**
 * Under a thread: the reply form for a member who may reply (`canReply`: at the level, not
 * suspended, the thread open or the member staff), else why not: sign in, or locked. A held reply
 * (a new account's first posts with links) says it waits for a moderator. The note takes the form's
 * room (NoteBox).
 */
import type { ReactNode } from 'react';
import { signInHref, signUpHref } from '../content/gated/GateCard.tsx';
import { toast } from '../../lib/browser/toast.ts';
import { reply, type Thread } from './community-api.ts';
import { PostForm } from './PostForm.tsx';

const NOTE = 'col-start-1 row-start-1 self-center text-center text-slate-600';
const REPLY_LABEL = 'Your reply';
const REPLY_SUBMIT = 'Post reply';

/** The toast after a post was accepted: visible at once, or held for a moderator. */
export function postedToast(status: string, what: string): void {
  if (status === 'held') toast({ title: 'Waiting for approval', description: `Your ${what} will appear once a moderator approves it.` });
  else toast({ title: `${what[0]!.toUpperCase()}${what.slice(1)} posted` });
}

/** Why a member who reads the thread cannot reply (the server's `canReply` said no). */
function whyNot(thread: Thread): string {
  if (thread.status === 'held') return 'Replies open once a moderator approves this discussion.';
  if (thread.status !== 'visible') return 'This discussion is out of view: it takes no replies.';
  if (thread.locked) return 'This thread is locked: it takes no new replies.';
  return 'You cannot reply to this thread.';
}

function Heading({ id }: { id?: string }) {
  return (
    <h2 id={id} className="mb-3 text-lg font-semibold text-ink">
      Reply
    </h2>
  );
}

/**
 * A note where the reply form goes, in the form's own room: an invisible, inert copy of the form
 * holds the height, so the form replacing the note (the page is rendered before the reader is known)
 * moves nothing below it.
 */
function NoteBox({ children }: { children: ReactNode }) {
  return (
    <section className="grid rounded-2xl border border-dashed border-slate-300 p-5">
      <div aria-hidden="true" inert className="invisible col-start-1 row-start-1">
        <Heading />
        <PostForm label={REPLY_LABEL} submitLabel={REPLY_SUBMIT} onSend={async () => ({ ok: true, data: null })} />
      </div>
      <p className={NOTE}>{children}</p>
    </section>
  );
}

export function ReplyArea({ thread, signedIn, onReplied }: { thread: Thread; signedIn: boolean; onReplied: () => Promise<void> }) {
  if (!signedIn)
    return (
      <NoteBox>
        <a href={signInHref()} className="font-semibold text-brand-700 underline">
          Sign in
        </a>{' '}
        or{' '}
        <a href={signUpHref()} className="font-semibold text-brand-700 underline">
          sign up
        </a>{' '}
        to reply.
      </NoteBox>
    );
  if (!thread.canReply) return <NoteBox>{whyNot(thread)}</NoteBox>;
  return (
    <section aria-labelledby="reply-heading" className="rounded-2xl border border-slate-200 bg-slate-50 p-5">
      <Heading id="reply-heading" />
      <PostForm
        label={REPLY_LABEL}
        submitLabel={REPLY_SUBMIT}
        onSend={async ({ body }) => {
          const result = await reply(thread.id, body);
          if (!result.ok) return result;
          postedToast(result.data.status, 'reply');
          await onReplied();
          return { ok: true, data: null };
        }}
      />
    </section>
  );
}
