/**
 * What /signin shows when a mailed link failed (expired, used, or replaced by a newer mail): the
 * reason in plain words and a way to get a new link to an address the visitor types. A reset link
 * (its target is the new-password page) gets a new reset link; any other link a sign-in link, which
 * the service makes a confirmation link for an address not yet confirmed. The target rides along.
 */
import { useState, type FormEvent } from 'react';
import { authClient } from '../../lib/browser/auth/client.ts';
import { linkProblem, mailRequestError } from '#shared/auth/mail-links.ts';
import { isResetTarget, mailLanding } from '#shared/auth/return-to.ts';
import { TextField } from '../forms/TextField.tsx';

export interface LinkProblemProps {
  code: string;
  description: string;
  /** Where the failed link was meant to take the visitor (the page's `redirect`). */
  target: string | undefined;
}

export function LinkProblem({ code, description, target }: LinkProblemProps) {
  const [busy, setBusy] = useState(false);
  const [outcome, setOutcome] = useState<{ ok: boolean; text: string } | null>(null);
  const reset = isResetTarget(target);
  const what = reset ? 'reset link' : 'sign-in link';
  const { title, description: text } = linkProblem(code, description);

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const email = String(new FormData(event.currentTarget).get('email') ?? '').trim();
    setBusy(true);
    const landing = mailLanding(window.location.origin, target);
    const auth = authClient().auth;
    const { error } = reset
      ? await auth.resetPasswordForEmail(email, { redirectTo: landing })
      : await auth.signInWithOtp({ email, options: { emailRedirectTo: landing, shouldCreateUser: false } });
    setBusy(false);
    setOutcome(
      error
        ? { ok: false, text: mailRequestError(error, what) }
        : { ok: true, text: `If an account exists for that address, a new ${what} is on its way. Open the newest email.` },
    );
  }

  return (
    <section
      aria-labelledby="link-problem-title"
      className="mb-6 rounded-xl border border-amber-300 bg-amber-50 p-4 text-sm text-amber-950"
    >
      <div role="alert">
        <h2 id="link-problem-title" className="font-semibold">
          {title}
        </h2>
        <p className="mt-1">{text}</p>
      </div>
      <form onSubmit={submit} aria-label="Send a new link" className="mt-4 space-y-3">
        <TextField label="Email" name="email" type="email" autoComplete="email" required />
        <button
          type="submit"
          disabled={busy}
          className="min-h-11 w-full rounded-lg bg-ink px-5 py-2.5 font-semibold text-white hover:bg-slate-800 disabled:opacity-60"
        >
          {busy ? 'Sending...' : reset ? 'Send a new reset link' : 'Send a new link'}
        </button>
        {outcome && (
          <p role={outcome.ok ? 'status' : 'alert'} className={outcome.ok ? 'text-slate-700' : 'font-medium text-red-700'}>
            {outcome.text}
          </p>
        )}
      </form>
    </section>
  );
}
