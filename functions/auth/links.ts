/**
 * Mailed links and codes of the embedded auth service: issuing a one-time token (a link with a
 * 6-digit code, or a reauthentication code) and queueing its mail through the outbox in the
 * transaction that stores it; verifying one (confirming the address, completing an email change,
 * opening a session); and the requests that mail them: password recovery, resending a confirmation
 * and the reauthentication code.
 */
import { createHash, randomInt } from 'node:crypto';
import { CONTROL } from '../platform/http/request.ts';
import type { DbOrTx } from '../platform/db/client.ts';
import type { AuthContext } from './context.ts';
import { AuthError, mailCooldown, otpExpired, validation } from './errors.ts';
import { MAX_CODE_ATTEMPTS } from './guessing.ts';
import type { Session, Sessions } from './sessions.ts';
import { createAuthStore } from './store.ts';
import type { authOneTimeTokens, AuthUserRow, OneTimeTokenKind } from './tables.ts';

/** GoTrue's answer to the first of the two email-change links. */
const EMAIL_CHANGE_HALFWAY = 'Confirmation link accepted. Please proceed to confirm link sent to the other email';

type VerifyType = 'signup' | 'recovery' | 'magiclink' | 'email' | 'invite' | 'email_change';
const KINDS_FOR: Record<VerifyType, readonly OneTimeTokenKind[]> = {
  signup: ['confirmation'],
  invite: ['confirmation'],
  recovery: ['recovery'],
  magiclink: ['magiclink'],
  email: ['confirmation', 'recovery', 'magiclink'],
  email_change: ['email_change_new', 'email_change_current'],
};
// Own properties only: `in` would take "constructor" or "__proto__" for a type.
const isVerifyType = (t: string): t is VerifyType => Object.hasOwn(KINDS_FOR, t);

const TEMPLATE_FOR = {
  confirmation: 'auth-confirm-signup',
  recovery: 'auth-recovery',
  magiclink: 'auth-magic-link',
  email_change_current: 'auth-email-change',
  email_change_new: 'auth-email-change',
} as const;
const TYPE_FOR = {
  confirmation: 'signup',
  recovery: 'recovery',
  magiclink: 'magiclink',
  email_change_current: 'email_change',
  email_change_new: 'email_change',
} as const;

/** The hash stored for a mailed code (GoTrue's: SHA-224 of address + code). */
export const codeHash = (email: string, code: string) => createHash('sha224').update(`${email}${code}`).digest('hex');

/** A 6-digit code and the hash stored for it. */
function newCode(to: string) {
  const code = String(randomInt(0, 1_000_000)).padStart(6, '0');
  return { code, tokenHash: codeHash(to, code) };
}

type LinkKind = keyof typeof TEMPLATE_FOR;
type VerifyInput = { type?: string | null; tokenHash?: string | null; email?: string | null; code?: string | null };

/** What the links' parts share: the auth context and the sessions they open or read. */
interface LinkDeps {
  ctx: AuthContext;
  sessions: Pick<Sessions, 'openSession' | 'authenticate'>;
}

/** One reauthentication code per user per cooldown. */
const reauthMails = (settings: AuthContext['settings']) => ({
  name: 'auth-reauthentication-mail',
  max: 1,
  windowSeconds: settings.mailCooldownSeconds,
});

/** Issues a reauthentication code (voiding the previous one) and queues its mail, in `tx`. */
async function sendCode({ settings, deps, languageOf }: AuthContext, tx: DbOrTx, user: AuthUserRow): Promise<void> {
  const { code, tokenHash } = newCode(user.email);
  await createAuthStore(tx).putOneTimeToken(user.id, 'reauthentication', tokenHash, user.email);
  const language = await languageOf(tx, user.id);
  await deps.outbox.enqueue(tx, {
    to: user.email,
    template: 'auth-reauthentication',
    data: { code, validMinutes: Math.round(settings.otpExpirySeconds / 60), language },
    userId: user.id,
  });
}

/** Issues a fresh link of `kind` (voiding the previous one) and queues its mail to `to`, in `tx`. */
async function sendLink(
  { settings, issuer, deps, languageOf }: AuthContext,
  tx: DbOrTx,
  user: AuthUserRow,
  kind: LinkKind,
  redirectTo: string,
  to = user.email,
): Promise<void> {
  const { code, tokenHash } = newCode(to);
  await createAuthStore(tx).putOneTimeToken(user.id, kind, tokenHash, to);
  const url = `${issuer}/verify?${new URLSearchParams({ token: tokenHash, type: TYPE_FOR[kind], redirect_to: redirectTo })}`;
  const language = await languageOf(tx, user.id);
  await deps.outbox.enqueue(tx, {
    to,
    template: TEMPLATE_FOR[kind],
    data: { url, code, validMinutes: Math.round(settings.otpExpirySeconds / 60), language },
    userId: user.id,
  });
}

/** Sends a confirmation link to an unconfirmed account and stamps it (the caller checked the cooldown). */
async function sendConfirmation(ctx: AuthContext, user: AuthUserRow, redirectTo: string): Promise<AuthUserRow> {
  return ctx.db.transaction(async (tx) => {
    await sendLink(ctx, tx, user, 'confirmation', redirectTo);
    return createAuthStore(tx).updateUser(user.id, { confirmationSentAt: new Date() });
  });
}
/**
 * One of the two email-change links, in `tx`: the first only answers GoTrue's halfway message; the
 * second moves the account to the new address and opens a session.
 */
async function completeEmailChange(
  { hooks }: AuthContext,
  openSession: Sessions['openSession'],
  tx: DbOrTx,
  user: AuthUserRow,
  token: Pick<typeof authOneTimeTokens.$inferSelect, 'kind' | 'email'>,
  expired: () => AuthError,
): Promise<{ message: string } | { session: Session }> {
  const txStore = createAuthStore(tx);
  const sentTo = token.kind === 'email_change_new' ? user.newEmail : user.email;
  if (!user.newEmail || token.email !== sentTo) throw expired();
  const other = token.kind === 'email_change_new' ? 'email_change_current' : 'email_change_new';
  if (await txStore.hasOneTimeToken(user.id, other)) return { message: EMAIL_CHANGE_HALFWAY };
  if (await txStore.userByEmail(user.newEmail))
    throw new AuthError(422, 'email_exists', 'A user with this email address has already been registered');
  const email = user.newEmail;
  user = await txStore.updateUser(user.id, {
    email,
    newEmail: null,
    emailChangeSentAt: null,
    emailConfirmedAt: user.emailConfirmedAt ?? new Date(),
    userMetadata: { ...user.userMetadata, email, email_verified: true },
  });
  await hooks.onEmailChanged?.(tx, user.id, email);
  return { session: await openSession(tx, user, 'otp') };
}

/**
 * Verifies an emailed token (by its hash, or by email + 6-digit code) and opens a session:
 * confirms the address on sign-up, and on recovery and sign-in links too (the mail proves it).
 */
async function verifyToken(
  { ctx, sessions }: LinkDeps,
  input: VerifyInput,
  ip?: string,
): Promise<{ session: Session; type: VerifyType } | { message: string }> {
  const { db, store, settings, guessing } = ctx;
  const { openSession } = sessions;
  await ctx.limit('verify', ip);
  if (!input.type) throw validation('Verify requires a verification type');
  let tokenHash = input.tokenHash ?? undefined;
  const byCode = !tokenHash;
  if (byCode && (!input.email || !input.code)) throw validation('Verify requires either a token or a token hash');
  // GoTrue looks a typed code up whatever its type, so one of another type is simply not valid; a hash's type is checked.
  if (!isVerifyType(input.type))
    throw byCode ? otpExpired('Token has expired or is invalid') : validation('Invalid email verification type');
  const type = input.type;
  // A code typed by hand is six digits: its account gets a few wrong tries per code and per day.
  let account: AuthUserRow | undefined;
  if (byCode) {
    const email = input.email!.trim().toLowerCase();
    tokenHash = codeHash(email, input.code!.trim());
    account = email.length <= 255 && !CONTROL.test(email) ? await store.userByEmail(email) : undefined;
    if (account) await guessing.assertCodeTriesLeft(account.id);
  }
  const expired = () => otpExpired(byCode ? 'Token has expired or is invalid' : 'Email link is invalid or has expired');
  if (!/^[0-9a-f]{56}$/.test(tokenHash!)) throw expired();
  const outcome = await db.transaction(async (tx): Promise<{ message: string } | { session: Session } | { wrong: true }> => {
    const txStore = createAuthStore(tx);
    const token = await txStore.oneTimeTokenByHash(tokenHash!, KINDS_FOR[type]);
    if (!token || token.createdAt.getTime() + settings.otpExpirySeconds * 1000 < Date.now()) return { wrong: true };
    if (!(await txStore.takeOneTimeToken(token.userId, token.kind, token.tokenHash))) throw expired();
    let user = (await txStore.userById(token.userId))!;
    if (token.kind === 'email_change_current' || token.kind === 'email_change_new')
      return completeEmailChange(ctx, openSession, tx, user, token, expired);
    if (user.email !== token.email) throw expired();
    if (!user.emailConfirmedAt) {
      user = await txStore.updateUser(user.id, {
        emailConfirmedAt: new Date(),
        userMetadata: { ...user.userMetadata, email_verified: true },
      });
    }
    // A reset link's session may set a new password for the link's lifetime (GoTrue's "recovery" method).
    return { session: await openSession(tx, user, token.kind === 'recovery' ? 'recovery' : 'otp') };
  });
  if ('wrong' in outcome) {
    if (account) {
      await store.failOneTimeTokens(account.id, KINDS_FOR[type], MAX_CODE_ATTEMPTS);
      await guessing.codeFailed(account.id);
    }
    throw expired();
  }
  if ('message' in outcome) return outcome;
  // The mailbox proved the owner: this client address is theirs from now on, and its password count starts again.
  await guessing.provenByMailbox(outcome.session.user.email ?? '', ip);
  return { session: outcome.session, type: type === 'email' ? 'magiclink' : type };
}

/** The requests that mail a link or code: reauthentication, recovery, a confirmation again. */
function linkRequests({ ctx, sessions }: LinkDeps) {
  const { db, store, settings, deps } = ctx;
  const { authenticate } = sessions;
  return {
    /** GET /reauthenticate: mails a code (`nonce`) that lets this session change the password. */
    async reauthenticate(authorization: string | undefined, ip?: string): Promise<void> {
      const { user } = await authenticate(authorization);
      await ctx.limit('otp', ip);
      const sent = await deps.limiter.hit(reauthMails(settings), user.id);
      if (!sent.allowed) throw mailCooldown(sent.retryAfterSeconds);
      await db.transaction((tx) => sendCode(ctx, tx, user));
    },

    /** POST /recover (contract 3.7): the same `{}` whether or not the address has an account. */
    async recover(rawEmail: string | null | undefined, ip?: string, redirect?: string): Promise<void> {
      await ctx.limit('otp', ip);
      if (!rawEmail) throw validation('Password recovery requires an email');
      const email = ctx.emailOf(rawEmail);
      const user = await store.userByEmail(email);
      if (!user) return;
      ctx.cooldown(user.recoverySentAt);
      await db.transaction(async (tx) => {
        await sendLink(ctx, tx, user, 'recovery', ctx.allowedRedirect(redirect));
        await createAuthStore(tx).updateUser(user.id, { recoverySentAt: new Date() });
      });
    },

    /** POST /resend (contract 3.10). */
    async resend(
      input: { email?: string | null; phone?: string | null; type?: string | null },
      ip?: string,
      redirect?: string,
    ): Promise<void> {
      await ctx.limit('otp', ip);
      if (input.type !== 'signup' && input.type !== 'email_change')
        throw validation('Missing one of these types: signup, email_change, sms, phone_change');
      const email = ctx.emailOf(input.email);
      const user = await store.userByEmail(email);
      if (!user || input.type === 'email_change' || user.emailConfirmedAt) return;
      ctx.cooldown(user.confirmationSentAt);
      await sendConfirmation(ctx, user, ctx.allowedRedirect(redirect));
    },
  };
}

export function createLinks(ctx: AuthContext, sessions: Pick<Sessions, 'openSession' | 'authenticate'>) {
  const deps: LinkDeps = { ctx, sessions };
  return {
    /** Issues a fresh link of `kind` (voiding the previous one) and queues its mail to `to`, in `tx`. */
    sendLink: (tx: DbOrTx, user: AuthUserRow, kind: LinkKind, redirectTo: string, to?: string) =>
      sendLink(ctx, tx, user, kind, redirectTo, to),
    /** Sends a confirmation link to an unconfirmed account and stamps it (the caller checked the cooldown). */
    sendConfirmation: (user: AuthUserRow, redirectTo: string) => sendConfirmation(ctx, user, redirectTo),
    ...linkRequests(deps),
    /**
     * Verifies an emailed token (by its hash, or by email + 6-digit code) and opens a session:
     * confirms the address on sign-up, and on recovery and sign-in links too (the mail proves it).
     */
    verify: (input: VerifyInput, ip?: string) => verifyToken(deps, input, ip),
  };
}

export type Links = ReturnType<typeof createLinks>;
