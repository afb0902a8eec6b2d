/**
 * Under a thread: the reply form for a member who may reply (`canReply`: at the level, not
 * suspended, the thread open or the member staff), else why not: sign in, or locked. A held reply
 * (a new account's first posts with links) says it waits for a moderator.
 */
import { signInHref, signUpHref } from '../content/gated/GateCard.tsx';
import { toast } from '../../lib/browser/toast.ts';
import { reply, type Thread } from './community-api.ts';
import { PostForm } from './PostForm.tsx';

const NOTE = 'rounded-2xl border border-dashed border-slate-300 p-6 text-center text-slate-600';

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

export function ReplyArea({ thread, signedIn, onReplied }: { thread: Thread; signedIn: boolean; onReplied: () => Promise<void> }) {
  if (!signedIn)
    return (
      <p className={NOTE}>
        <a href={signInHref()} className="font-semibold text-brand-700 underline">
          Sign in
        </a>{' '}
        or{' '}
        <a href={signUpHref()} className="font-semibold text-brand-700 underline">
          sign up
        </a>{' '}
        to reply.
      </p>
    );
  if (!thread.canReply) return <p className={NOTE}>{whyNot(thread)}</p>;
  return (
    <section aria-labelledby="reply-heading" className="rounded-2xl border border-slate-200 bg-slate-50 p-5">
      <h2 id="reply-heading" className="mb-3 text-lg font-semibold text-ink">
        Reply
      </h2>
      <PostForm
        label="Your reply"
        submitLabel="Post reply"
        onSend={async ({ body }) => {
          const result = await reply(thread.id, body);
          if (!result.ok) return result;
          postedToast(result.data.status, 'reply');
          await onReplied();
          return { ok: true };
        }}
      />
    </section>
  );
}
