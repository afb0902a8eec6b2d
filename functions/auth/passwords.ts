/**
 * Passwords of the embedded auth service: the rules a new one must meet, bcrypt hashing and
 * comparison, signing in with one (counted against the guessing limits, guessing.ts), and the proof
 * a session that is not fresh must give before changing one (GoTrue's secure password change).
 */
import { randomBytes } from 'node:crypto';
import bcrypt from 'bcrypt';
import { z } from 'zod';
import { CONTROL } from '../platform/http/request.ts';
import type { AuthContext } from './context.ts';
import { AuthError, invalidCredentials, validation } from './errors.ts';
import { MAX_CODE_ATTEMPTS } from './guessing.ts';
import { codeHash } from './links.ts';
import type { Session, Sessions } from './sessions.ts';
import type { AuthUserRow } from './tables.ts';

/**
 * A password change needs the current password or a mailed code unless the session is this fresh
 * (GoTrue's secure password change, with minutes instead of its 24 hours: a stolen access token is
 * then not enough to take the account over). A session opened by a reset link counts as fresh for
 * the link's own lifetime.
 */
const REAUTH_WINDOW_MS = 10 * 60 * 1000;
const MAX_PASSWORD_BYTES = 72;

/** Why a new password is refused (422 weak_password), or undefined when it is fine. */
function weakness(settings: AuthContext['settings'], password: string): AuthError | undefined {
  if ([...password].length < settings.minPasswordLength) {
    const message = `Password should be at least ${settings.minPasswordLength} characters.`;
    return new AuthError(422, 'weak_password', message, { weak_password: { reasons: ['length'] } });
  }
  return undefined;
}

/**
 * A password change from this session needs proof beyond the access token unless the session is
 * fresh: the current password (`current_password`) or a mailed code (`nonce`, from GET
 * /reauthenticate). Both count against the guessing limits.
 */
async function assertMayChangePassword(
  { store, settings, guessing }: AuthContext,
  user: AuthUserRow,
  sessionId: string | undefined,
  proof: { current_password?: string | null; nonce?: string | null },
  ip: string | undefined,
): Promise<void> {
  const session = sessionId && z.uuid().safeParse(sessionId).success ? await store.session(sessionId) : undefined;
  const age = session ? Date.now() - session.createdAt.getTime() : Number.POSITIVE_INFINITY;
  const byResetLink = session?.amr.some((a) => a.method === 'recovery') ?? false;
  if (age <= REAUTH_WINDOW_MS || (byResetLink && age <= settings.otpExpirySeconds * 1000)) return;
  if (proof.current_password) {
    const attempt = await guessing.passwordTry(user.email, ip, 'change');
    const given = proof.current_password;
    if (user.passwordHash && Buffer.byteLength(given) <= MAX_PASSWORD_BYTES && (await bcrypt.compare(given, user.passwordHash))) {
      await attempt.right(false);
      return;
    }
    throw new AuthError(400, 'current_password_invalid', 'Current password is incorrect.');
  }
  if (proof.nonce) {
    await guessing.assertCodeTriesLeft(user.id);
    const token = /^\d{6}$/.test(proof.nonce.trim())
      ? await store.oneTimeTokenByHash(codeHash(user.email, proof.nonce.trim()), ['reauthentication'])
      : undefined;
    const fresh = token && token.userId === user.id && token.createdAt.getTime() + settings.otpExpirySeconds * 1000 >= Date.now();
    if (fresh && (await store.takeOneTimeToken(user.id, 'reauthentication', token.tokenHash))) return;
    await store.failOneTimeTokens(user.id, ['reauthentication'], MAX_CODE_ATTEMPTS);
    await guessing.codeFailed(user.id);
    throw new AuthError(400, 'reauthentication_not_valid', 'Verification code is invalid or has expired.');
  }
  throw new AuthError(400, 'reauthentication_needed', 'Password update requires reauthentication.');
}

export function createPasswords(ctx: AuthContext, sessions: Pick<Sessions, 'openSession'>) {
  const { db, store, settings, guessing } = ctx;
  // Unknown addresses still cost one bcrypt comparison, so timing does not tell who has an account.
  const dummyHash = bcrypt.hash(randomBytes(16).toString('hex'), settings.bcryptCost);

  /** Throws the reason a new password is refused. */
  function checkNewPassword(password: string): void {
    if (Buffer.byteLength(password) > MAX_PASSWORD_BYTES) throw validation('Password cannot be longer than 72 characters');
    // bcrypt stops at NUL, so "a\0b" would equal "a": refused, as other control characters are.
    if (CONTROL.test(password)) throw validation('Password cannot contain control characters');
    if (!password.trim()) {
      throw new AuthError(422, 'weak_password', 'Password cannot be only spaces.', { weak_password: { reasons: ['characters'] } });
    }
    const weak = weakness(settings, password);
    if (weak) throw weak;
  }

  /** The bcrypt hash stored for a password. */
  const hash = (password: string) => bcrypt.hash(password, settings.bcryptCost);

  /**
   * The hash of a new password for `user`, after its rules and the session's proof; 422 when it is
   * the current one. Proof first: otherwise 'same_password' would tell a token thief whether a guess
   * is the current password.
   */
  async function newPasswordHash(
    user: AuthUserRow,
    sessionId: string | undefined,
    password: string,
    proof: { current_password?: string | null; nonce?: string | null },
    ip: string | undefined,
  ): Promise<string> {
    checkNewPassword(password);
    await assertMayChangePassword(ctx, user, sessionId, proof, ip);
    if (user.passwordHash && (await bcrypt.compare(password, user.passwordHash))) {
      throw new AuthError(422, 'same_password', 'New password should be different from the old password.');
    }
    return hash(password);
  }

  return {
    checkNewPassword,
    hash,
    newPasswordHash,

    /** POST /token?grant_type=password (contract 3.2). */
    async signInWithPassword(
      input: { email?: string | null; phone?: string | null; password?: string | null },
      ip?: string,
    ): Promise<Session> {
      await ctx.limit('token', ip);
      if (!input.email && !input.phone) throw validation('missing email or phone');
      if (!input.email) throw new AuthError(422, 'phone_provider_disabled', 'Phone logins are disabled');
      const email = input.email.trim().toLowerCase();
      const password = input.password ?? '';
      const readable = email.length <= 255 && !CONTROL.test(email) && !password.includes('\u0000') && email.isWellFormed();
      // Counted for every address, with an account or not, so the answers tell nobody who has one.
      const attempt = readable ? await guessing.passwordTry(email, ip, 'sign-in') : undefined;
      const user = readable ? await store.userByEmail(email) : undefined;
      if (!user?.passwordHash) {
        await bcrypt.compare(password, await dummyHash);
        throw invalidCredentials();
      }
      if (user.bannedUntil && user.bannedUntil > new Date()) throw new AuthError(400, 'user_banned', 'User is banned');
      if (Buffer.byteLength(password) > MAX_PASSWORD_BYTES || !(await bcrypt.compare(password, user.passwordHash))) {
        throw invalidCredentials();
      }
      await attempt?.right(Boolean(user.emailConfirmedAt));
      if (!user.emailConfirmedAt) throw new AuthError(400, 'email_not_confirmed', 'Email not confirmed');
      const session = await db.transaction((tx) => sessions.openSession(tx, user, 'password'));
      const weak = weakness(settings, password);
      return weak ? { ...session, weak_password: { message: weak.message, reasons: ['length'] } } : session;
    },
  };
}

export type Passwords = ReturnType<typeof createPasswords>;
