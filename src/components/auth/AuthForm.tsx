/**
 * Sign in and sign up (spec point 2): email and password, both required. A visitor already signed in
 * is sent on at once. Errors show the 'Authentication error' toast with the service's message; a new
 * account shows 'Account created' and asks to confirm the address from the mail.
 */
import { useStore } from '@nanostores/react';
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { $auth, afterSignIn, authClient } from '../../lib/auth/client.ts';
import { toast } from '../../lib/toast.ts';
import { SUBMIT_CLASS, TextField } from '../forms/TextField.tsx';

export default function AuthForm({ mode }: { mode: 'signin' | 'signup' }) {
  const auth = useStore($auth);
  const [busy, setBusy] = useState(false);
  const [created, setCreated] = useState(false);
  const emailRef = useRef<HTMLInputElement>(null);

  useEffect(() => {
    authClient();
  }, []);
  // Signed in (now, or already): on to the target once the profile has loaded, so the access level is mirrored.
  const settled = auth.status === 'signed-in' && auth.profile !== undefined;
  useEffect(() => {
    if (settled) window.location.replace(mode === 'signin' ? afterSignIn(window.location.search) : '/');
  }, [settled, mode]);

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const data = new FormData(event.currentTarget);
    const email = String(data.get('email') ?? '').trim();
    const password = String(data.get('password') ?? '');
    setBusy(true);
    const client = authClient();
    if (mode === 'signin') {
      const { error } = await client.auth.signInWithPassword({ email, password });
      // On success the session store changes and the effect above moves on.
      if (error) toast({ title: 'Authentication error', description: error.message, variant: 'destructive' });
    } else {
      const emailRedirectTo = `${window.location.origin}/signin${window.location.search}`;
      const { error } = await client.auth.signUp({ email, password, options: { emailRedirectTo } });
      if (error) toast({ title: 'Authentication error', description: error.message, variant: 'destructive' });
      else {
        toast({ title: 'Account created', description: 'Please check your email to confirm your account.' });
        setCreated(true);
      }
    }
    setBusy(false);
  }

  /** Sign-in by an emailed link instead of the password (no account is made for unknown addresses). */
  async function sendLink() {
    const email = emailRef.current?.value.trim() ?? '';
    if (!email || !emailRef.current?.checkValidity()) {
      emailRef.current?.reportValidity();
      return;
    }
    setBusy(true);
    const { error } = await authClient().auth.signInWithOtp({
      email,
      options: { emailRedirectTo: `${window.location.origin}/signin${window.location.search}`, shouldCreateUser: false },
    });
    setBusy(false);
    if (error) toast({ title: 'Authentication error', description: error.message, variant: 'destructive' });
    else toast({ title: 'Check your email', description: 'If an account exists for that address, we sent you a sign-in link.' });
  }

  const signin = mode === 'signin';
  return (
    <form onSubmit={submit} aria-label={signin ? 'Sign in' : 'Sign up'} className="space-y-4">
      <TextField label="Email" inputRef={emailRef} name="email" type="email" autoComplete="email" required />
      <TextField label="Password" name="password" type="password" autoComplete={signin ? 'current-password' : 'new-password'} required />
      <button type="submit" disabled={busy || auth.status === 'loading'} className={SUBMIT_CLASS}>
        {busy ? (signin ? 'Signing in...' : 'Creating account...') : signin ? 'Sign In' : 'Sign Up'}
      </button>
      {signin && (
        <button
          type="button"
          onClick={() => void sendLink()}
          disabled={busy || auth.status === 'loading'}
          className="min-h-11 w-full rounded-lg px-5 py-2.5 text-sm font-semibold text-brand-700 ring-1 ring-inset ring-brand-200 hover:bg-brand-50 disabled:opacity-60"
        >
          Email me a sign-in link
        </button>
      )}
      {created && (
        <p role="status" className="text-sm text-slate-600">
          We sent a confirmation link to your address. Open it to finish creating your account.
        </p>
      )}
    </form>
  );
}
