/**
 * The embedded auth service: Supabase Auth's (GoTrue's) email + password subset, behaving as the
 * hosted service does from the outside (contract: ../shared/reference/supabase-auth-contract.md).
 * Passwords are bcrypt hashes; access tokens are ES256 JWTs (keys.ts); refresh tokens are single
 * use, rotated on every refresh, with GoTrue's reuse allowances and reuse detection; every mail goes
 * through the outbox in the transaction that issues its token.
 */
import { createHash, createHmac, randomBytes, randomInt, timingSafeEqual } from 'node:crypto';
import bcrypt from 'bcrypt';
import { SignJWT } from 'jose';
import { z } from 'zod';
import type { RateLimitService } from '../platform/abuse/service.ts';
import type { Config } from '../config.ts';
import type { Db, DbOrTx } from '../platform/db/client.ts';
import type { AuthUserRow, OneTimeTokenKind } from '../platform/db/schema.ts';
import type { EmailService } from '../email/service.ts';
import type { MailLanguage } from '../email/templates/account-copy.ts';
import type { Logger } from '../platform/logger.ts';
import { CONTROL } from '../platform/http/request.ts';
import { AuthError, invalidCredentials, mailCooldown, otpExpired, overRequestLimit, validation } from './errors.ts';
import { createGuessingLimits, MAX_CODE_ATTEMPTS } from './guessing.ts';
import { SIGNING_ALG, type SigningKeys } from './keys.ts';
import { createRedirectCheck } from './redirect.ts';
import { userJson, type UserJson } from './schema.ts';
import { createAuthStore } from './store.ts';
import { AUDIENCE, InvalidTokenError, type AccessClaims, type AccessTokenVerifier } from './verify.ts';

/** The service's settings (documented in config.ts). */
export type AuthSettings = Pick<
  Config['auth'],
  'autoconfirm' | 'jwtExpirySeconds' | 'minPasswordLength' | 'bcryptCost' | 'redirectUrls' | 'mailCooldownSeconds' | 'otpExpirySeconds'
>;

export interface AuthServiceDeps {
  db: Db;
  outbox: EmailService;
  limiter: RateLimitService;
  keys: SigningKeys;
  verify: AccessTokenVerifier;
  /** Server secret; refresh tokens carry an HMAC under a key derived from it. */
  secret: Uint8Array;
  siteUrl: string;
  settings: AuthSettings;
  logger: Logger;
  /** The language the member chose for their emails (English when unknown). */
  languageFor?: (tx: DbOrTx, userId: string) => Promise<MailLanguage | undefined>;
  /** Called when an email change completes, in its transaction (the profile keeps the address too). */
  onEmailChanged?: (tx: DbOrTx, userId: string, email: string) => Promise<unknown>;
  /** Called in the sign-up's transaction, so the product's profile exists with the account. */
  /** `verified`: the address is proven (a staff-made account), not merely accepted. */
  onUserCreated?: (tx: DbOrTx, user: { id: string; email: string; verified: boolean; name?: string }) => Promise<unknown>;
}

/** Per-IP limits, Supabase's hosted defaults (contract 7.4), held in the database. */
const LIMITS = {
  token: { name: 'auth-token', max: 150, windowSeconds: 300 },
  otp: { name: 'auth-otp', max: 30, windowSeconds: 300 },
  verify: { name: 'auth-verify', max: 30, windowSeconds: 300 },
};
/**
 * A password change needs the current password or a mailed code unless the session is this fresh
 * (GoTrue's secure password change, with minutes instead of its 24 hours: a stolen access token is
 * then not enough to take the account over). A session opened by a reset link counts as fresh for
 * the link's own lifetime.
 */
const REAUTH_WINDOW_MS = 10 * 60 * 1000;
/** Retired refresh tokens of a session still work this long after their use (concurrent tabs). */
const REUSE_INTERVAL_MS = 10_000;
const MAX_PASSWORD_BYTES = 72;
const EmailAddress = z.email();

export interface Session {
  access_token: string;
  token_type: 'bearer';
  expires_in: number;
  expires_at: number;
  refresh_token: string;
  user: UserJson;
  weak_password?: { message: string; reasons: string[] };
}

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

export function createAuthService(deps: AuthServiceDeps) {
  const { db, outbox, limiter, keys, verify, siteUrl, settings } = deps;
  const store = createAuthStore(db);
  const issuer = `${siteUrl}/auth/v1`;
  const allowedRedirect = createRedirectCheck(siteUrl, settings.redirectUrls);
  const refreshKey = createHmac('sha256', deps.secret).update('auth refresh tokens').digest();
  // Unknown addresses still cost one bcrypt comparison, so timing does not tell who has an account.
  const dummyHash = bcrypt.hash(randomBytes(16).toString('hex'), settings.bcryptCost);
  const guessing = createGuessingLimits(limiter);
  /** One reauthentication code per user per cooldown. */
  const REAUTH_MAILS = { name: 'auth-reauthentication-mail', max: 1, windowSeconds: settings.mailCooldownSeconds };
  /**
   * One sign-in link per user per cooldown, counted apart from reset links: GoTrue stamps both on
   * `recovery_sent_at`, so asking for a sign-in link right after a reset was refused with the reset's wait.
   */
  const SIGN_IN_LINK_MAILS = { name: 'auth-sign-in-link-mail', max: 1, windowSeconds: settings.mailCooldownSeconds };

  // Limits ---------------------------------------------------------------------------------------
  async function limit(kind: keyof typeof LIMITS, ip: string | undefined): Promise<void> {
    if (!ip) return;
    if (!(await limiter.hit(LIMITS[kind], ip)).allowed) throw overRequestLimit();
  }

  function cooldown(sentAt: Date | null): void {
    if (!sentAt) return;
    const waitMs = sentAt.getTime() + settings.mailCooldownSeconds * 1000 - Date.now();
    if (waitMs > 0) throw mailCooldown(Math.ceil(waitMs / 1000));
  }

  // Input ----------------------------------------------------------------------------------------
  function emailOf(raw: string | null | undefined): string {
    const email = (raw ?? '').trim().toLowerCase();
    if (email.length > 255 || !EmailAddress.safeParse(email).success) throw validation('Unable to validate email address: invalid format');
    return email;
  }

  /** Why a new password is refused (422 weak_password), or undefined when it is fine. */
  function weakness(password: string): AuthError | undefined {
    if ([...password].length < settings.minPasswordLength) {
      const message = `Password should be at least ${settings.minPasswordLength} characters.`;
      return new AuthError(422, 'weak_password', message, { weak_password: { reasons: ['length'] } });
    }
    return undefined;
  }

  function checkNewPassword(password: string): void {
    if (Buffer.byteLength(password) > MAX_PASSWORD_BYTES) throw validation('Password cannot be longer than 72 characters');
    // bcrypt stops at NUL, so "a\0b" would equal "a": refused, as other control characters are.
    if (CONTROL.test(password)) throw validation('Password cannot contain control characters');
    if (!password.trim()) {
      throw new AuthError(422, 'weak_password', 'Password cannot be only spaces.', { weak_password: { reasons: ['characters'] } });
    }
    const weak = weakness(password);
    if (weak) throw weak;
  }

  // Tokens ---------------------------------------------------------------------------------------
  const refreshMac = (id: string) => createHmac('sha256', refreshKey).update(id).digest('base64url').slice(0, 22);
  const refreshToken = (id: string) => `${id}${refreshMac(id)}`;

  /** The id inside a refresh token, or undefined when it is not one of ours. */
  function refreshTokenId(token: string): string | undefined {
    if (token.length !== 44) return undefined;
    const id = token.slice(0, 22);
    const mac = Buffer.from(token.slice(22));
    const expected = Buffer.from(refreshMac(id));
    return mac.length === expected.length && timingSafeEqual(mac, expected) ? id : undefined;
  }

  async function accessToken(user: AuthUserRow, sessionId: string, amr: { method: string; timestamp: number }[]) {
    const now = Math.floor(Date.now() / 1000);
    const exp = now + settings.jwtExpirySeconds;
    const { kid, privateKey } = keys.signer();
    const jwt = await new SignJWT({
      email: user.email,
      phone: '',
      app_metadata: user.appMetadata,
      user_metadata: user.userMetadata,
      role: 'authenticated',
      aal: 'aal1',
      amr,
      session_id: sessionId,
      is_anonymous: false,
    })
      .setProtectedHeader({ alg: SIGNING_ALG, kid, typ: 'JWT' })
      .setIssuer(issuer)
      .setSubject(user.id)
      .setAudience(AUDIENCE)
      .setIssuedAt(now)
      .setExpirationTime(exp)
      .sign(privateKey);
    return { jwt, exp, expiresIn: exp - now };
  }

  async function sessionAnswer(
    user: AuthUserRow,
    sessionId: string,
    amr: { method: string; timestamp: number }[],
    refreshId: string,
  ): Promise<Session> {
    const { jwt, exp, expiresIn } = await accessToken(user, sessionId, amr);
    return {
      access_token: jwt,
      token_type: 'bearer',
      expires_in: expiresIn,
      expires_at: exp,
      refresh_token: refreshToken(refreshId),
      user: userJson(user),
    };
  }

  /** Opens a session (one sign-in on one device) and answers with its tokens. */
  async function openSession(tx: DbOrTx, user: AuthUserRow, method: 'password' | 'otp' | 'recovery'): Promise<Session> {
    const txStore = createAuthStore(tx);
    const amr = [{ method, timestamp: Math.floor(Date.now() / 1000) }];
    const session = await txStore.createSession(user.id, amr);
    const refreshId = randomBytes(16).toString('base64url');
    await txStore.insertRefreshToken(refreshId, session.id);
    const signedIn = await txStore.updateUser(user.id, { lastSignInAt: new Date() });
    return sessionAnswer(signedIn, session.id, amr, refreshId);
  }

  // Mails ----------------------------------------------------------------------------------------
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

  /** A 6-digit code and the hash stored for it (GoTrue's: SHA-224 of address + code). */
  function newCode(to: string) {
    const code = String(randomInt(0, 1_000_000)).padStart(6, '0');
    return { code, tokenHash: codeHash(to, code) };
  }
  const codeHash = (email: string, code: string) => createHash('sha224').update(`${email}${code}`).digest('hex');

  /** Issues a reauthentication code (voiding the previous one) and queues its mail, in `tx`. */
  async function sendCode(tx: DbOrTx, user: AuthUserRow): Promise<void> {
    const { code, tokenHash } = newCode(user.email);
    await createAuthStore(tx).putOneTimeToken(user.id, 'reauthentication', tokenHash, user.email);
    const language = (await deps.languageFor?.(tx, user.id)) ?? 'en';
    await outbox.enqueue(tx, {
      to: user.email,
      template: 'auth-reauthentication',
      data: { code, validMinutes: Math.round(settings.otpExpirySeconds / 60), language },
      userId: user.id,
    });
  }

  /**
   * A password change from this session needs proof beyond the access token unless the session is
   * fresh: the current password (`current_password`) or a mailed code (`nonce`, from GET
   * /reauthenticate). Both count against the guessing limits.
   */
  async function assertMayChangePassword(
    user: AuthUserRow,
    sessionId: string | undefined,
    proof: { current_password?: string | null; nonce?: string | null },
  ): Promise<void> {
    const session = sessionId && z.uuid().safeParse(sessionId).success ? await store.session(sessionId) : undefined;
    const age = session ? Date.now() - session.createdAt.getTime() : Number.POSITIVE_INFINITY;
    const byResetLink = session?.amr.some((a) => a.method === 'recovery') ?? false;
    if (age <= REAUTH_WINDOW_MS || (byResetLink && age <= settings.otpExpirySeconds * 1000)) return;
    if (proof.current_password) {
      await guessing.assertPasswordTriesLeft(user.email);
      const given = proof.current_password;
      if (user.passwordHash && Buffer.byteLength(given) <= MAX_PASSWORD_BYTES && (await bcrypt.compare(given, user.passwordHash))) return;
      await guessing.passwordFailed(user.email);
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

  /** Issues a fresh link of `kind` (voiding the previous one) and queues its mail to `to`, in `tx`. */
  async function sendLink(
    tx: DbOrTx,
    user: AuthUserRow,
    kind: keyof typeof TEMPLATE_FOR,
    redirectTo: string,
    to = user.email,
  ): Promise<void> {
    const { code, tokenHash } = newCode(to);
    await createAuthStore(tx).putOneTimeToken(user.id, kind, tokenHash, to);
    const url = `${issuer}/verify?${new URLSearchParams({ token: tokenHash, type: TYPE_FOR[kind], redirect_to: redirectTo })}`;
    // Read in `tx`: on the embedded database a query outside the open transaction would wait for it.
    const language = (await deps.languageFor?.(tx, user.id)) ?? 'en';
    await outbox.enqueue(tx, {
      to,
      template: TEMPLATE_FOR[kind],
      data: { url, code, validMinutes: Math.round(settings.otpExpirySeconds / 60), language },
      userId: user.id,
    });
  }

  // Accounts -------------------------------------------------------------------------------------
  /** The caller's metadata without the keys the service owns (contract 1.1). */
  function callerData(data: Record<string, unknown> | null | undefined): Record<string, unknown> {
    const out = { ...data };
    for (const reserved of ['sub', 'email', 'email_verified', 'phone_verified']) delete out[reserved];
    return out;
  }

  /**
   * Inserts an account in `tx` with GoTrue's metadata and tells the product (its profile); undefined
   * when the address was taken meanwhile. `confirmed`: no confirmation mail is needed; `proven`: the
   * server itself vouches for the address (demo and staff-made accounts).
   */
  async function insertAccount(
    tx: DbOrTx,
    {
      email,
      passwordHash = null,
      confirmed,
      proven = false,
    }: { email: string; passwordHash?: string | null; confirmed: boolean; proven?: boolean },
    data: Record<string, unknown>,
  ): Promise<AuthUserRow | undefined> {
    const txStore = createAuthStore(tx);
    const now = new Date();
    const created = await txStore.insertUser({
      email,
      passwordHash,
      emailConfirmedAt: confirmed ? now : null,
      confirmationSentAt: confirmed ? null : now,
    });
    if (!created) return undefined;
    const user = await txStore.updateUser(created.id, {
      userMetadata: { ...data, sub: created.id, email, email_verified: confirmed, phone_verified: false },
    });
    const name = typeof data.name === 'string' ? data.name : undefined;
    await deps.onUserCreated?.(tx, { id: user.id, email, verified: proven, ...(name ? { name } : {}) });
    return user;
  }

  // Identity from an access token --------------------------------------------------------------
  /** The user and session behind a bearer token, as GoTrue's `requireAuthentication` checks them. */
  async function authenticate(authorization: string | undefined): Promise<{ user: AuthUserRow; claims: AccessClaims }> {
    const token = /^Bearer\s+(\S+)$/i.exec(authorization ?? '')?.[1];
    if (!token) throw new AuthError(401, 'no_authorization', 'This endpoint requires a valid Bearer token');
    let claims: AccessClaims;
    try {
      claims = await verify(token);
    } catch (err) {
      if (err instanceof InvalidTokenError)
        throw new AuthError(403, 'bad_jwt', `invalid JWT: unable to parse or verify signature, ${err.message}`);
      throw err;
    }
    if (!z.uuid().safeParse(claims.sub).success) throw new AuthError(400, 'bad_jwt', 'invalid claim: sub claim must be a UUID');
    const user = await store.userById(claims.sub);
    if (!user) throw new AuthError(403, 'user_not_found', 'User from sub claim in JWT does not exist');
    if (claims.session_id && (!z.uuid().safeParse(claims.session_id).success || !(await store.session(claims.session_id)))) {
      throw new AuthError(403, 'session_not_found', 'Session from session_id claim in JWT does not exist');
    }
    if (user.bannedUntil && user.bannedUntil > new Date()) throw new AuthError(403, 'user_banned', 'User is banned');
    return { user, claims };
  }

  return {
    issuer,
    settings,
    allowedRedirect,
    authenticate,

    /** POST /signup (contract 3.1). */
    async signUp(
      input: { email?: string | null; phone?: string | null; password?: string | null; data?: Record<string, unknown> | null },
      ip?: string,
      redirect?: string,
    ) {
      if (!input.email && !input.phone) throw new AuthError(422, 'anonymous_provider_disabled', 'Anonymous sign-ins are disabled');
      await limit('otp', ip);
      const password = input.password ?? '';
      if (!password) throw validation('Signup requires a valid password');
      checkNewPassword(password);
      if (input.email && input.phone) throw validation('Only an email address or phone number should be provided on signup.');
      if (!input.email) throw new AuthError(400, 'phone_provider_disabled', 'Phone signups are disabled');
      const email = emailOf(input.email);
      const redirectTo = allowedRedirect(redirect);
      const data = callerData(input.data);

      const existing = await store.userByEmail(email);
      if (existing?.emailConfirmedAt) {
        if (settings.autoconfirm) throw new AuthError(422, 'user_already_exists', 'User already registered');
        // Confirmed address: a look-alike user, no mail, so the answer reveals nothing (contract 3.1, outcome 4).
        const now = new Date().toISOString();
        return {
          kind: 'user' as const,
          user: {
            id: crypto.randomUUID(),
            aud: 'authenticated',
            role: '',
            email,
            phone: '',
            confirmation_sent_at: now,
            app_metadata: { provider: 'email', providers: ['email'] },
            user_metadata: data,
            identities: [],
            created_at: now,
            updated_at: now,
            is_anonymous: false,
          },
        };
      }
      if (existing) {
        // Unconfirmed: the caller's identity is unproven, so nothing changes but a new confirmation mail.
        cooldown(existing.confirmationSentAt);
        const user = await db.transaction(async (tx) => {
          await sendLink(tx, existing, 'confirmation', redirectTo);
          return createAuthStore(tx).updateUser(existing.id, { confirmationSentAt: new Date() });
        });
        return { kind: 'user' as const, user: userJson(user) };
      }

      const passwordHash = await bcrypt.hash(password, settings.bcryptCost);
      return db.transaction(async (tx) => {
        const user = await insertAccount(tx, { email, passwordHash, confirmed: settings.autoconfirm }, data);
        if (!user) throw new AuthError(422, 'user_already_exists', 'User already registered');
        if (settings.autoconfirm) return { kind: 'session' as const, session: await openSession(tx, user, 'password') };
        await sendLink(tx, user, 'confirmation', redirectTo);
        return { kind: 'user' as const, user: userJson(user) };
      });
    },

    /** POST /token?grant_type=password (contract 3.2). */
    async signInWithPassword(
      input: { email?: string | null; phone?: string | null; password?: string | null },
      ip?: string,
    ): Promise<Session> {
      await limit('token', ip);
      if (!input.email && !input.phone) throw validation('missing email or phone');
      if (!input.email) throw new AuthError(422, 'phone_provider_disabled', 'Phone logins are disabled');
      const email = input.email.trim().toLowerCase();
      const password = input.password ?? '';
      const readable = email.length <= 255 && !CONTROL.test(email) && !password.includes('\u0000') && email.isWellFormed();
      // Counted per address too, known or not: many client addresses still get a few tries at one account.
      if (readable) await guessing.assertPasswordTriesLeft(email);
      const user = readable ? await store.userByEmail(email) : undefined;
      if (!user?.passwordHash) {
        await bcrypt.compare(password, await dummyHash);
        if (readable) await guessing.passwordFailed(email);
        throw invalidCredentials();
      }
      if (user.bannedUntil && user.bannedUntil > new Date()) throw new AuthError(400, 'user_banned', 'User is banned');
      if (Buffer.byteLength(password) > MAX_PASSWORD_BYTES || !(await bcrypt.compare(password, user.passwordHash))) {
        await guessing.passwordFailed(email);
        throw invalidCredentials();
      }
      await guessing.cleared(email);
      if (!user.emailConfirmedAt) throw new AuthError(400, 'email_not_confirmed', 'Email not confirmed');
      const session = await db.transaction((tx) => openSession(tx, user, 'password'));
      const weak = weakness(password);
      return weak ? { ...session, weak_password: { message: weak.message, reasons: ['length'] } } : session;
    },

    /** POST /token?grant_type=refresh_token (contract 3.3). */
    async refresh(token: string | null | undefined, ip?: string): Promise<Session> {
      await limit('token', ip);
      if (!token || token.length < 12) throw validation('Refresh token is not valid');
      const id = refreshTokenId(token);
      const notFound = () => new AuthError(400, 'refresh_token_not_found', 'Invalid Refresh Token: Refresh Token Not Found');
      if (!id) throw notFound();
      const outcome = await db.transaction(async (tx) => {
        const txStore = createAuthStore(tx);
        const row = await txStore.refreshTokenForUpdate(id);
        if (!row) return { error: notFound() };
        if (!(await txStore.lockSession(row.sessionId)))
          return { error: new AuthError(400, 'session_not_found', 'Invalid Refresh Token: No Valid Session Found') };
        const session = (await txStore.session(row.sessionId))!;
        const user = (await txStore.userById(session.userId))!;
        if (!row.usedAt) {
          await txStore.useRefreshToken(id);
          const next = randomBytes(16).toString('base64url');
          await txStore.insertRefreshToken(next, session.id, id);
          await txStore.touchSession(session.id);
          return { user, session, refreshId: next };
        }
        const current = await txStore.currentRefreshTokenRow(session.id);
        const recentlyUsed = Date.now() - row.usedAt.getTime() < REUSE_INTERVAL_MS;
        if (current && (recentlyUsed || current.parentId === id)) return { user, session, refreshId: current.id };
        // Reuse of an old token: someone holds a copy. Sign the whole session out.
        await txStore.deleteSession(session.id);
        return { error: new AuthError(400, 'refresh_token_already_used', 'Invalid Refresh Token: Already Used'), revoked: session.id };
      });
      if ('error' in outcome) {
        if (outcome.revoked) deps.logger.warn({ sessionId: outcome.revoked }, 'refresh token reused; session revoked');
        throw outcome.error;
      }
      return sessionAnswer(outcome.user, outcome.session.id, outcome.session.amr, outcome.refreshId);
    },

    /** Creates a confirmed account with a password unless the address has one (demo seeding); returns its id. */
    async createConfirmedUser(rawEmail: string, password: string, name: string): Promise<string> {
      const email = emailOf(rawEmail);
      const existing = await store.userByEmail(email);
      if (existing) return existing.id;
      checkNewPassword(password);
      const passwordHash = await bcrypt.hash(password, settings.bcryptCost);
      return db.transaction(async (tx) => {
        const user = await insertAccount(tx, { email, passwordHash, confirmed: true, proven: true }, { name });
        return user?.id ?? (await createAuthStore(tx).userByEmail(email))!.id;
      });
    },

    /** Whether a session is still signed in (the product's check for what must stop at sign-out). */
    async sessionIsLive(sessionId: string | undefined): Promise<boolean> {
      return Boolean(sessionId && z.uuid().safeParse(sessionId).success && (await store.session(sessionId)));
    },

    /**
     * What this service recorded about an account, or undefined when it does not know it (deleted).
     * Proven: the address was confirmed through a mailed link, or the server made the account; with
     * AUTH_AUTOCONFIRM a confirmation proves nothing, so no address counts as proven.
     */
    async account(id: string): Promise<{ email: string; proven: boolean } | undefined> {
      if (!z.uuid().safeParse(id).success) return undefined;
      const user = await store.userById(id);
      return user ? { email: user.email, proven: Boolean(user.emailConfirmedAt) && !settings.autoconfirm } : undefined;
    },

    /** Deletes an account with its sessions and tokens (the member's own deletion). */
    async deleteUser(id: string): Promise<void> {
      await store.deleteUser(id);
    },

    /** GET /user (contract 3.4). */
    async getUser(authorization: string | undefined) {
      return userJson((await authenticate(authorization)).user);
    },

    /** PUT /user (contract 3.5): metadata and password; email changes are not offered yet. */
    async updateUser(
      authorization: string | undefined,
      input: {
        email?: string | null;
        phone?: string | null;
        password?: string | null;
        current_password?: string | null;
        nonce?: string | null;
        data?: Record<string, unknown> | null;
        app_metadata?: unknown;
      },
      ip?: string,
      redirect?: string,
    ) {
      const { user, claims } = await authenticate(authorization);
      await limit('otp', ip);
      if (input.app_metadata !== undefined) throw new AuthError(403, 'not_admin', 'Updating app_metadata requires admin privileges');
      if (input.phone) throw new AuthError(422, 'phone_provider_disabled', 'Phone logins are disabled');
      const newEmail = input.email ? emailOf(input.email) : undefined;
      const changingEmail = newEmail !== undefined && newEmail !== user.email;
      if (changingEmail) {
        const holder = await store.userByEmail(newEmail);
        if (holder) throw new AuthError(422, 'email_exists', 'A user with this email address has already been registered');
        cooldown(user.emailChangeSentAt);
      }
      const patch: Parameters<typeof store.updateUser>[1] = {};
      if (input.data) {
        const metadata: Record<string, unknown> = { ...user.userMetadata };
        // The keys the service owns (sub, email, email_verified…) stay as it wrote them, as at sign-up.
        for (const [key, value] of Object.entries(callerData(input.data))) {
          if (value === null) delete metadata[key];
          else metadata[key] = value;
        }
        patch.userMetadata = metadata;
      }
      if (input.password) {
        checkNewPassword(input.password);
        // Proof first: otherwise 'same_password' would tell a token thief whether a guess is the current password.
        await assertMayChangePassword(user, claims.session_id, input);
        if (user.passwordHash && (await bcrypt.compare(input.password, user.passwordHash))) {
          throw new AuthError(422, 'same_password', 'New password should be different from the old password.');
        }
        patch.passwordHash = await bcrypt.hash(input.password, settings.bcryptCost);
      }
      const updated = await db.transaction(async (tx) => {
        const txStore = createAuthStore(tx);
        if (changingEmail) {
          // Secure change: both the current and the new address must confirm before anything changes.
          Object.assign(patch, { newEmail, emailChangeSentAt: new Date() });
          await sendLink(tx, user, 'email_change_current', allowedRedirect(redirect), user.email);
          await sendLink(tx, user, 'email_change_new', allowedRedirect(redirect), newEmail);
        }
        const row = Object.keys(patch).length ? await txStore.updateUser(user.id, patch) : user;
        if (patch.passwordHash) {
          // A new password voids pending links and signs every other device out; the owner is told, with a way back in.
          await txStore.deleteOneTimeTokens(user.id);
          await txStore.deleteSessionsOf(user.id, claims.session_id);
          const language = (await deps.languageFor?.(tx, user.id)) ?? 'en';
          await outbox.enqueue(tx, {
            to: user.email,
            template: 'auth-password-changed',
            data: { changedAt: new Date().toISOString(), language },
            userId: user.id,
          });
        }
        return row;
      });
      return userJson(updated);
    },

    /** POST /logout?scope= (contract 3.6). */
    async logout(authorization: string | undefined, scope: string) {
      if (!['global', 'local', 'others'].includes(scope)) throw validation(`Unsupported logout scope "${scope}"`);
      const { user, claims } = await authenticate(authorization);
      if (scope === 'local' && claims.session_id) await store.deleteSession(claims.session_id);
      else if (scope === 'others') await store.deleteSessionsOf(user.id, claims.session_id);
      else await store.deleteSessionsOf(user.id);
    },

    /** GET /reauthenticate: mails a code (`nonce`) that lets this session change the password. */
    async reauthenticate(authorization: string | undefined, ip?: string): Promise<void> {
      const { user } = await authenticate(authorization);
      await limit('otp', ip);
      const sent = await limiter.hit(REAUTH_MAILS, user.id);
      if (!sent.allowed) throw mailCooldown(sent.retryAfterSeconds);
      await db.transaction((tx) => sendCode(tx, user));
    },

    /** POST /recover (contract 3.7): the same `{}` whether or not the address has an account. */
    async recover(rawEmail: string | null | undefined, ip?: string, redirect?: string): Promise<void> {
      await limit('otp', ip);
      if (!rawEmail) throw validation('Password recovery requires an email');
      const email = emailOf(rawEmail);
      const user = await store.userByEmail(email);
      if (!user) return;
      cooldown(user.recoverySentAt);
      await db.transaction(async (tx) => {
        await sendLink(tx, user, 'recovery', allowedRedirect(redirect));
        await createAuthStore(tx).updateUser(user.id, { recoverySentAt: new Date() });
      });
    },

    /** POST /resend (contract 3.10). */
    async resend(
      input: { email?: string | null; phone?: string | null; type?: string | null },
      ip?: string,
      redirect?: string,
    ): Promise<void> {
      await limit('otp', ip);
      if (input.type !== 'signup' && input.type !== 'email_change')
        throw validation('Missing one of these types: signup, email_change, sms, phone_change');
      const email = emailOf(input.email);
      const user = await store.userByEmail(email);
      if (!user || input.type === 'email_change' || user.emailConfirmedAt) return;
      cooldown(user.confirmationSentAt);
      await db.transaction(async (tx) => {
        await sendLink(tx, user, 'confirmation', allowedRedirect(redirect));
        await createAuthStore(tx).updateUser(user.id, { confirmationSentAt: new Date() });
      });
    },

    /** POST /otp: a sign-in link by email (unknown addresses: an account is made and confirmed by that link, unless create_user is false). */
    async sendSignInLink(
      input: { email?: string | null; create_user?: boolean | null; data?: Record<string, unknown> | null },
      ip?: string,
      redirect?: string,
    ): Promise<void> {
      await limit('otp', ip);
      const email = emailOf(input.email);
      const redirectTo = allowedRedirect(redirect);
      const user = await store.userByEmail(email);
      if (user) {
        if (user.emailConfirmedAt) {
          const sent = await limiter.hit(SIGN_IN_LINK_MAILS, user.id);
          if (!sent.allowed) throw mailCooldown(sent.retryAfterSeconds);
          await db.transaction((tx) => sendLink(tx, user, 'magiclink', redirectTo));
          return;
        }
        // Not confirmed yet: the link confirms the address, so it shares the confirmation mail's cooldown.
        cooldown(user.confirmationSentAt);
        await db.transaction(async (tx) => {
          await sendLink(tx, user, 'confirmation', redirectTo);
          await createAuthStore(tx).updateUser(user.id, { confirmationSentAt: new Date() });
        });
        return;
      }
      // GoTrue answers 422 here, which tells who has an account; we answer as for a known address.
      if (input.create_user === false) return;
      await db.transaction(async (tx) => {
        const user = await insertAccount(tx, { email, confirmed: false }, callerData(input.data));
        if (user) await sendLink(tx, user, 'confirmation', redirectTo);
      });
    },

    /**
     * Verifies an emailed token (by its hash, or by email + 6-digit code) and opens a session:
     * confirms the address on sign-up, and on recovery and sign-in links too (the mail proves it).
     */
    async verify(
      input: { type?: string | null; tokenHash?: string | null; email?: string | null; code?: string | null },
      ip?: string,
    ): Promise<{ session: Session; type: VerifyType } | { message: string }> {
      await limit('verify', ip);
      if (!input.type) throw validation('Verify requires a verification type');
      if (!isVerifyType(input.type)) throw validation('Invalid email verification type');
      const type = input.type;
      let tokenHash = input.tokenHash ?? undefined;
      const byCode = !tokenHash;
      // A code typed by hand is six digits: its account gets a few wrong tries per code and per day.
      let account: AuthUserRow | undefined;
      if (byCode) {
        if (!input.email || !input.code) throw validation('Verify requires either a token or a token hash');
        const email = input.email.trim().toLowerCase();
        tokenHash = codeHash(email, input.code.trim());
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
        if (token.kind === 'email_change_current' || token.kind === 'email_change_new') {
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
          await deps.onEmailChanged?.(tx, user.id, email);
          return { session: await openSession(tx, user, 'otp') };
        }
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
      // The mailbox proved the owner: a password lock on the address (an attacker's tries) is lifted.
      await guessing.cleared(outcome.session.user.email ?? '');
      return { session: outcome.session, type: type === 'email' ? 'magiclink' : type };
    },
  };
}

export type AuthService = ReturnType<typeof createAuthService>;
