/**
 * Forgot password (a reset link by mail; the same answer whether or not the address has an account)
 * and the page that link opens, where the recovery session from the link sets a new password.
 */
import { useStore } from '@nanostores/react';
import { useEffect, useState, type FormEvent } from 'react';
import { $auth, authClient } from '../../lib/auth/client.ts';
import { toast } from '../../lib/toast.ts';
import { SUBMIT_CLASS, TextField } from '../forms/TextField.tsx';

function authError(message: string) {
  toast({ title: 'Authentication error', description: message, variant: 'destructive' });
}

export function ForgotPasswordForm() {
  const [busy, setBusy] = useState(false);
  const [sent, setSent] = useState(false);

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const email = String(new FormData(event.currentTarget).get('email') ?? '').trim();
    setBusy(true);
    const { error } = await authClient().auth.resetPasswordForEmail(email, { redirectTo: `${window.location.origin}/reset-password` });
    setBusy(false);
    if (error) return authError(error.message);
    setSent(true);
    toast({ title: 'Check your email', description: 'If an account exists for that address, we sent a link to choose a new password.' });
  }

  return (
    <form onSubmit={submit} aria-label="Reset password" className="space-y-4">
      <TextField label="Email" name="email" type="email" autoComplete="email" required />
      <button type="submit" disabled={busy} className={SUBMIT_CLASS}>
        {busy ? 'Sending...' : 'Send reset link'}
      </button>
      {sent && (
        <p role="status" className="text-sm text-slate-600">
          Open the link in the email to choose a new password. It works for one hour, once.
        </p>
      )}
    </form>
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
  if (auth.status === 'signed-out') {
    return (
      <p className="text-sm text-slate-700">
        This link is invalid or has expired.{' '}
        <a href="/forgot-password" className="font-semibold text-brand-700 hover:underline">
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
    toast({ title: 'Password updated', description: 'Your new password is set.' });
    window.location.assign('/account');
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
