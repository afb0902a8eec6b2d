/**
 * Sign in and sign up (spec point 2): email and password, both required. A visitor already signed in
 * is sent on at once, to the safe `redirect` target (else /). Errors show the 'Authentication error'
 * toast with the service's message; a new account shows 'Account created' and asks to confirm the
 * address from the mail, whose code can also be typed here.
 *
 * /signin is also where every mailed link lands (src/lib/shared/auth/return-to.ts): the fragment is read
 * before supabase-js takes it. A link that signed the visitor in leaves a message for the target
 * page ('Email confirmed', 'Signed in'); a reset link goes on to the new-password page; a failed link
 * keeps the visitor here with the reason and a way to a new link (LinkProblem). 'Have a code?' takes
 * the mail's 6-digit code instead of its link. A password the service's guessing limits hold back
 * (429) gets the reason and a mailed link and code in place (MailboxSignIn), not a bare error.
 */
import { useStore } from '@nanostores/react';
import type { Session } from '@supabase/supabase-js';
import { useEffect, useRef, useState, type FormEvent, type RefObject } from 'react';
import { signupData } from '../../lib/browser/attribution.ts';
import { $auth, afterSignIn, authClient } from '../../lib/browser/auth/client.ts';
import { mailRequestError, passwordHeld, readLanding, signedInNotice, signInMethods, type Landing } from '#shared/auth/mail-links.ts';
import { isResetTarget, mailLanding, returnTarget, withReturn } from '#shared/auth/return-to.ts';
import { setFlash } from '../../lib/browser/flash.ts';
import { toast } from '../../lib/browser/toast.ts';
import { SUBMIT_CLASS, TextField } from '../forms/TextField.tsx';
import { CodeForm } from './CodeForm.tsx';
import { LinkProblem } from './LinkProblem.tsx';
import { MailboxSignIn, requestSignInLink } from './MailboxSignIn.tsx';

/** How this page signed the visitor in: a mailed link or a typed code (with the mail's type), or neither. */
type Via = { kind: 'link' | 'code'; type: string } | undefined;

/** Where to go once signed in, and the message that page shows. */
function nextStep(session: Session, via: Via): string {
  const target = afterSignIn(window.location.search);
  if (!via) return target;
  const recovery = via.kind === 'link' ? via.type === 'recovery' : signInMethods(session.access_token).includes('recovery');
  if (recovery) return isResetTarget(target) ? target : withReturn('/reset-password', target === '/' ? undefined : target);
  const notice = signedInNotice(via.type);
  if (notice) setFlash(notice);
  return target;
}

/** The mailed link's landing, and where the visitor came from (their visit's first page), kept with the new account. */
function signUpOptions() {
  const emailRedirectTo = mailLanding(window.location.origin, returnTarget(window.location.search));
  const signup = signupData();
  return { emailRedirectTo, ...(signup ? { data: { signup } } : {}) };
}

const authError = (description: string) => toast({ title: 'Authentication error', description, variant: 'destructive' });

/** Says how the request for a sign-in link went. */
function linkRequested(error: Awaited<ReturnType<typeof requestSignInLink>>) {
  if (error?.code === 'over_email_send_rate_limit')
    toast({ title: 'Link already sent', description: mailRequestError(error, 'sign-in link') });
  else if (error) authError(mailRequestError(error, 'sign-in link'));
  else toast({ title: 'Check your email', description: 'If an account exists for that address, we sent you a sign-in link.' });
}

export default function AuthForm({ mode }: { mode: 'signin' | 'signup' }) {
  const auth = useStore($auth);
  // Read before supabase-js reads (and, for a session, clears) the fragment.
  const [landing] = useState<Landing | undefined>(() => readLanding(window.location.hash));
  const via = useRef<Via>(landing?.kind === 'session' ? { kind: 'link', type: landing.type } : undefined);
  // A failed link (or a half-done email change) keeps the visitor here until they act.
  const [held, setHeld] = useState(landing?.kind === 'failed' || landing?.kind === 'message');
  const [busy, setBusy] = useState(false);
  const [created, setCreated] = useState<string | null>(null);
  // A password that was not enough (the service's guessing limits): the address, and why.
  const [heldPassword, setHeldPassword] = useState<{ email: string; reason: string } | null>(null);
  const emailRef = useRef<HTMLInputElement>(null);

  useEffect(() => {
    if (landing?.kind === 'failed')
      window.history.replaceState(window.history.state, '', window.location.pathname + window.location.search);
    authClient();
  }, [landing]);
  // Signed in (now, or already): on to the target once the profile has loaded, so the access level is mirrored.
  const session = auth.status === 'signed-in' && auth.profile !== undefined ? auth.session : undefined;
  useEffect(() => {
    if (session && !held) window.location.replace(nextStep(session, via.current));
  }, [session, held]);

  // A code on the sign-up page confirms the address; on the sign-in page it signs in.
  const codeUsed = () => {
    via.current = { kind: 'code', type: mode === 'signup' ? 'signup' : 'magiclink' };
    setHeld(false);
  };

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const data = new FormData(event.currentTarget);
    const email = String(data.get('email') ?? '').trim();
    const password = String(data.get('password') ?? '');
    setBusy(true);
    setHeld(false);
    const client = authClient();
    if (mode === 'signin') {
      via.current = undefined;
      setHeldPassword(null);
      const { error } = await client.auth.signInWithPassword({ email, password });
      // On success the session store changes and the effect above moves on.
      const reason = error && passwordHeld(error);
      if (reason) setHeldPassword({ email, reason });
      else if (error) authError(error.message);
    } else {
      const options = signUpOptions();
      const { error } = await client.auth.signUp({ email, password, options });
      if (error) authError(error.message);
      else {
        toast({ title: 'Account created', description: 'Please check your email to confirm your account.' });
        setCreated(email);
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
    const error = await requestSignInLink(email);
    setBusy(false);
    linkRequested(error);
  }

  const signin = mode === 'signin';
  return (
    <>
      {landing && <LandingNotice landing={landing} />}
      {heldPassword && <MailboxSignIn key={heldPassword.email} email={heldPassword.email} reason={heldPassword.reason} onCode={codeUsed} />}
      {held && auth.status === 'signed-in' && <StillSignedIn />}
      <CredentialsForm
        signin={signin}
        busy={busy}
        waiting={busy || auth.status === 'loading'}
        emailRef={emailRef}
        onSubmit={submit}
        onSendLink={() => void sendLink()}
      />
      {signin && <HaveACode onCode={codeUsed} />}
      {created && <AccountCreated email={created} onCode={codeUsed} />}
    </>
  );
}

/** What a mailed link that landed here says: why it failed, or its message. */
function LandingNotice({ landing }: { landing: Landing }) {
  return (
    <>
      {landing.kind === 'failed' && (
        <LinkProblem code={landing.code} description={landing.description} target={returnTarget(window.location.search)} />
      )}
      {landing.kind === 'message' && (
        <p role="status" className="mb-6 rounded-xl border border-brand-200 bg-brand-50 p-4 text-sm text-slate-800">
          {landing.text}
        </p>
      )}
    </>
  );
}

/** A visitor held here while signed in (a failed link, a message) goes on when they choose. */
function StillSignedIn() {
  return (
    <p className="mb-6 text-sm text-slate-700">
      You are still signed in.{' '}
      <a href={afterSignIn(window.location.search)} className="font-semibold text-brand-700 hover:underline">
        Continue
      </a>
    </p>
  );
}

/** The mail's 6-digit code in place of its link. */
function HaveACode({ onCode }: { onCode: () => void }) {
  return (
    <details className="mt-4 rounded-lg bg-slate-50 p-3 text-sm">
      <summary className="cursor-pointer font-semibold text-brand-700">Have a code?</summary>
      <p className="my-3 text-slate-600">
        Every email we send to sign you in or confirm your address has a 6-digit code: type it here, on any device.
      </p>
      <CodeForm type="email" onSubmit={onCode} />
    </details>
  );
}

/** After sign-up: the confirmation link is on its way, or its code can be typed here. */
function AccountCreated({ email, onCode }: { email: string; onCode: () => void }) {
  return (
    <div className="mt-6 space-y-3 rounded-lg bg-slate-50 p-4 text-sm">
      <p role="status" className="text-slate-700">
        We sent a confirmation link to your address. Open it to finish creating your account, or enter the 6-digit code from the email.
      </p>
      <CodeForm key={email} type="email" email={email} onSubmit={onCode} />
    </div>
  );
}

type CredentialsFormProps = {
  signin: boolean;
  busy: boolean;
  /** Whether the buttons wait (a request under way, or the session still loading). */
  waiting: boolean;
  emailRef: RefObject<HTMLInputElement | null>;
  onSubmit: (event: FormEvent<HTMLFormElement>) => void;
  onSendLink: () => void;
};

/** Email and password, and on the sign-in page a mailed link instead. */
function CredentialsForm({ signin, busy, waiting, emailRef, onSubmit, onSendLink }: CredentialsFormProps) {
  return (
    <form onSubmit={onSubmit} aria-label={signin ? 'Sign in' : 'Sign up'} className="space-y-4">
      <TextField label="Email" inputRef={emailRef} name="email" type="email" autoComplete="email" required />
      <TextField label="Password" name="password" type="password" autoComplete={signin ? 'current-password' : 'new-password'} required />
      <button type="submit" disabled={waiting} className={SUBMIT_CLASS}>
        {busy ? (signin ? 'Signing in...' : 'Creating account...') : signin ? 'Sign In' : 'Sign Up'}
      </button>
      {signin && (
        <button
          type="button"
          onClick={onSendLink}
          disabled={waiting}
          className="min-h-11 w-full rounded-lg px-5 py-2.5 text-sm font-semibold text-brand-700 ring-1 ring-inset ring-brand-200 hover:bg-brand-50 disabled:opacity-60"
        >
          Email me a sign-in link
        </button>
      )}
    </form>
  );
}
