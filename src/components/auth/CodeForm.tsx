/**
 * The place to type the 6-digit code every account mail carries next to its link, so a mail read on
 * another device still gets the visitor in (POST /verify with email + code through supabase-js
 * `verifyOtp`). `type` is 'email' for confirmation and sign-in codes (the service also takes a reset
 * code there) and 'recovery' on the reset page. Wrong or expired codes, and the service's per-account
 * guessing limit (429, with its own words), are said under the field.
 */
import type { Session } from '@supabase/supabase-js';
import { useId, useState, type FormEvent } from 'react';
import { authClient } from '../../lib/browser/auth/client.ts';
import { codeError } from '#shared/auth/mail-links.ts';
import { TextField } from '../forms/TextField.tsx';

export interface CodeFormProps {
  type: 'email' | 'recovery';
  /** The address the mail went to, when the page knows it. */
  email?: string;
  /** Called just before the code is sent (the page then knows a code, not a password, signed the visitor in). */
  onSubmit?: () => void;
  onVerified?: (session: Session) => void;
}

export function CodeForm({ type, email = '', onSubmit, onVerified }: CodeFormProps) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState('');
  const errorId = useId();

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const data = new FormData(event.currentTarget);
    const address = String(data.get('email') ?? '').trim();
    const token = String(data.get('code') ?? '').replace(/\s+/g, '');
    if (!/^\d{6}$/.test(token)) return setError('Enter the 6 digits from the email.');
    setError('');
    setBusy(true);
    onSubmit?.();
    const { data: answer, error: refused } = await authClient().auth.verifyOtp({ email: address, token, type });
    setBusy(false);
    if (refused) return setError(codeError(refused));
    if (answer.session) onVerified?.(answer.session);
  }

  return (
    <form onSubmit={submit} aria-label="Enter your code" className="space-y-3">
      <TextField label="Email" name="email" type="email" autoComplete="email" defaultValue={email} required />
      <TextField
        label="6-digit code"
        name="code"
        inputMode="numeric"
        autoComplete="one-time-code"
        pattern="[0-9 ]*"
        maxLength={7}
        required
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? errorId : undefined}
      />
      {error && (
        <p id={errorId} role="alert" className="text-sm font-medium text-red-700">
          {error}
        </p>
      )}
      <button
        type="submit"
        disabled={busy}
        className="min-h-11 w-full rounded-lg px-5 py-2.5 text-sm font-semibold text-brand-700 ring-1 ring-inset ring-brand-200 hover:bg-brand-50 disabled:opacity-60"
      >
        {busy ? 'Checking...' : 'Continue with code'}
      </button>
    </form>
  );
}
