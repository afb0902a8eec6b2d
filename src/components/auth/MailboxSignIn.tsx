/**
 * What /signin shows when a password alone cannot sign the visitor in (the service's guessing limits:
 * too many tries from this network, or at this account from new networks): the reason, and the way
 * that always works, a sign-in link mailed to the address, whose 6-digit code can also be typed here.
 * Signing in by the link or code makes this network the member's, so the password works here again.
 */
import { useState } from 'react';
import { authClient } from '../../lib/browser/auth/client.ts';
import { mailRequestError, type AuthErrorLike } from '#shared/auth/mail-links.ts';
import { mailLanding, returnTarget } from '#shared/auth/return-to.ts';
import { CodeForm } from './CodeForm.tsx';

/** Mails a sign-in link (with its code) to `email`, landing back on this page's target; no account is made for unknown addresses. */
export async function requestSignInLink(email: string): Promise<AuthErrorLike | null> {
  const { error } = await authClient().auth.signInWithOtp({
    email,
    options: { emailRedirectTo: mailLanding(window.location.origin, returnTarget(window.location.search)), shouldCreateUser: false },
  });
  return error;
}

export interface MailboxSignInProps {
  email: string;
  /** The service's reason, in plain words. */
  reason: string;
  /** Called just before a typed code is sent (the page then knows a code signed the visitor in). */
  onCode: () => void;
}

export function MailboxSignIn({ email, reason, onCode }: MailboxSignInProps) {
  const [busy, setBusy] = useState(false);
  const [sent, setSent] = useState(false);
  const [problem, setProblem] = useState('');

  async function send() {
    setBusy(true);
    const error = await requestSignInLink(email);
    setBusy(false);
    // A link asked for a moment ago is on its way all the same: its code works.
    if (!error || error.code === 'over_email_send_rate_limit') setSent(true);
    setProblem(error ? mailRequestError(error, 'sign-in link') : '');
  }

  return (
    <section
      aria-labelledby="mailbox-sign-in-title"
      className="mb-6 rounded-xl border border-amber-300 bg-amber-50 p-4 text-sm text-amber-950"
    >
      <div role="alert">
        <h2 id="mailbox-sign-in-title" className="font-semibold">
          Sign in with your email instead
        </h2>
        <p className="mt-1">{reason}</p>
      </div>
      {sent ? (
        <div className="mt-4 space-y-3">
          <p role="status" className="text-slate-700">
            If an account exists for {email}, we sent it a sign-in link. Open it on any device, or enter the 6-digit code from the email.
          </p>
          <CodeForm type="email" email={email} onSubmit={onCode} />
        </div>
      ) : (
        <button
          type="button"
          onClick={() => void send()}
          disabled={busy}
          className="mt-4 min-h-11 w-full rounded-lg bg-ink px-5 py-2.5 font-semibold text-white hover:bg-slate-800 disabled:opacity-60"
        >
          {busy ? 'Sending...' : 'Send me a sign-in link'}
        </button>
      )}
      {problem && (
        <p role="alert" className="mt-3 font-medium text-red-700">
          {problem}
        </p>
      )}
    </section>
  );
}
