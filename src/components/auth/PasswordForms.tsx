/**
 * Forgot password (a reset link by mail; the same answer whether or not the address has an account)
 * and the page that link opens (through /signin, which reads the session), where the recovery session
 * sets a new password. The mail's code, typed here, opens the same session. The return target rides
 * along, and 'Password updated' shows on the page the visitor ends on (a flash message).
 */
import { useStore } from '@nanostores/react';
import { useEffect, useState, type FormEvent } from 'react';
import { $auth, authClient } from '../../lib/browser/auth/client.ts';
import { mailRequestError, PASSWORD_UPDATED } from '#shared/auth/mail-links.ts';
import { resetLanding, returnTarget, withReturn } from '#shared/auth/return-to.ts';
import { setFlash } from '../../lib/browser/flash.ts';
import { toast } from '../../lib/browser/toast.ts';
import { SUBMIT_CLASS, TextField } from '../forms/TextField.tsx';
import { CodeForm } from './CodeForm.tsx';

function authError(message: string) {
  toast({ title: 'Authentication error', description: message, variant: 'destructive' });
}

export function ForgotPasswordForm() {
  const [busy, setBusy] = useState(false);
  const [sent, setSent] = useState<string | null>(null);
  const target = returnTarget(window.location.search);

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const email = String(new FormData(event.currentTarget).get('email') ?? '').trim();
    setBusy(true);
    const { error } = await authClient().auth.resetPasswordForEmail(email, { redirectTo: resetLanding(window.location.origin, target) });
    setBusy(false);
    if (error?.code === 'over_email_send_rate_limit')
      return toast({ title: 'Link already sent', description: mailRequestError(error, 'reset link') });
    if (error) return authError(mailRequestError(error, 'reset link'));
    setSent(email);
    toast({ title: 'Check your email', description: 'If an account exists for that address, we sent a link to choose a new password.' });
  }

  return (
    <>
      <form onSubmit={submit} aria-label="Reset password" className="space-y-4">
        <TextField label="Email" name="email" type="email" autoComplete="email" required />
        <button type="submit" disabled={busy} className={SUBMIT_CLASS}>
          {busy ? 'Sending...' : 'Send reset link'}
        </button>
      </form>
      {sent && (
        <div className="mt-6 space-y-3 rounded-lg bg-slate-50 p-4 text-sm">
          <p role="status" className="text-slate-700">
            Open the link in the email to choose a new password, or enter the 6-digit code from it here. Both work for one hour, once.
          </p>
          <CodeForm
            key={sent}
            type="recovery"
            email={sent}
            onVerified={() => window.location.assign(withReturn('/reset-password', target))}
          />
        </div>
      )}
    </>
  );
}

export function ResetPasswordForm() {
  const auth = useStore($auth);
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    authClient();
  }, []);

  if (auth.status === 'loading') {
    return (
      <p role="status" className="text-sm text-slate-600">
        Checking your link…
      </p>
    );
  }
  const target = returnTarget(window.location.search);
  if (auth.status === 'signed-out') {
    return (
      <p className="text-sm text-slate-700">
        This link is invalid or has expired.{' '}
        <a href={withReturn('/forgot-password', target)} className="font-semibold text-brand-700 hover:underline">
          Ask for a new one
        </a>
        .
      </p>
    );
  }

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const password = String(new FormData(event.currentTarget).get('password') ?? '');
    setBusy(true);
    const { error } = await authClient().auth.updateUser({ password });
    setBusy(false);
    if (error) return authError(error.message);
    // Shown by the page we go to: a toast raised here would leave with this page.
    setFlash(PASSWORD_UPDATED);
    window.location.assign(target ?? '/account');
  }

  return (
    <form onSubmit={submit} aria-label="Choose a new password" className="space-y-4">
      <TextField label="New password" name="password" type="password" autoComplete="new-password" required />
      <button type="submit" disabled={busy} className={SUBMIT_CLASS}>
        {busy ? 'Saving...' : 'Set new password'}
      </button>
    </form>
  );
}
