/**
 * Sessions of the embedded auth service: opening one (a sign-in on one device) with its ES256 access
 * token (keys.ts) and refresh token, refreshing (single-use refresh tokens rotated on every refresh,
 * with GoTrue's reuse allowances and reuse detection), signing out, and the identity behind a bearer
 * token as GoTrue's `requireAuthentication` checks it.
 */
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { SignJWT } from 'jose';
import { z } from 'zod';
import type { DbOrTx } from '../platform/db/client.ts';
import type { AuthContext } from './context.ts';
import { AuthError, validation } from './errors.ts';
import { SIGNING_ALG } from './keys.ts';
import { userJson, type UserJson } from './schema.ts';
import { createAuthStore } from './store.ts';
import type { AuthUserRow } from './tables.ts';
import { AUDIENCE, InvalidTokenError, type AccessClaims } from './verify.ts';

/** Retired refresh tokens of a session still work this long after their use (concurrent tabs). */
const REUSE_INTERVAL_MS = 10_000;

export interface Session {
  access_token: string;
  token_type: 'bearer';
  expires_in: number;
  expires_at: number;
  refresh_token: string;
  user: UserJson;
  weak_password?: { message: string; reasons: string[] };
}

type Amr = { method: string; timestamp: number }[];

/** A signed access token for the session, GoTrue's claims. */
async function accessToken({ settings, issuer, deps }: AuthContext, user: AuthUserRow, sessionId: string, amr: Amr) {
  const now = Math.floor(Date.now() / 1000);
  const exp = now + settings.jwtExpirySeconds;
  const { kid, privateKey } = deps.keys.signer();
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

/** The user and session behind a bearer token, as GoTrue's `requireAuthentication` checks them. */
async function authenticate(
  { store, deps }: AuthContext,
  authorization: string | undefined,
): Promise<{ user: AuthUserRow; claims: AccessClaims }> {
  const token = /^Bearer\s+(\S+)$/i.exec(authorization ?? '')?.[1];
  if (!token) throw new AuthError(401, 'no_authorization', 'This endpoint requires a valid Bearer token');
  let claims: AccessClaims;
  try {
    claims = await deps.verify(token);
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

/**
 * Takes a refresh token in `tx` and answers the session's next one; a token used again lately (a
 * client's retry) answers the current one, and an older token's reuse signs the whole session out.
 */
async function rotateRefreshToken(tx: DbOrTx, id: string, notFound: () => AuthError) {
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
}

export function createSessions(ctx: AuthContext) {
  const { db, store, deps } = ctx;
  const refreshKey = createHmac('sha256', deps.secret).update('auth refresh tokens').digest();

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

  async function sessionAnswer(user: AuthUserRow, sessionId: string, amr: Amr, refreshId: string): Promise<Session> {
    const { jwt, exp, expiresIn } = await accessToken(ctx, user, sessionId, amr);
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

  return {
    openSession,
    /** The user and session behind a bearer token, as GoTrue's `requireAuthentication` checks them. */
    authenticate: (authorization: string | undefined) => authenticate(ctx, authorization),

    /** POST /token?grant_type=refresh_token (contract 3.3). */
    async refresh(token: string | null | undefined, ip?: string): Promise<Session> {
      await ctx.limit('token', ip);
      if (!token || token.length < 12) throw validation('Refresh token is not valid');
      const id = refreshTokenId(token);
      const notFound = () => new AuthError(400, 'refresh_token_not_found', 'Invalid Refresh Token: Refresh Token Not Found');
      if (!id) throw notFound();
      const outcome = await db.transaction((tx) => rotateRefreshToken(tx, id, notFound));
      if ('error' in outcome) {
        if (outcome.revoked) deps.logger.warn({ sessionId: outcome.revoked }, 'refresh token reused; session revoked');
        throw outcome.error;
      }
      return sessionAnswer(outcome.user, outcome.session.id, outcome.session.amr, outcome.refreshId);
    },

    /** Whether a session is still signed in (the product's check for what must stop at sign-out). */
    async sessionIsLive(sessionId: string | undefined): Promise<boolean> {
      return Boolean(sessionId && z.uuid().safeParse(sessionId).success && (await store.session(sessionId)));
    },

    /** POST /logout?scope= (contract 3.6). */
    async logout(authorization: string | undefined, scope: string) {
      if (!['global', 'local', 'others'].includes(scope)) throw validation(`Unsupported logout scope "${scope}"`);
      const { user, claims } = await authenticate(ctx, authorization);
      if (scope === 'local' && claims.session_id) await store.deleteSession(claims.session_id);
      else if (scope === 'others') await store.deleteSessionsOf(user.id, claims.session_id);
      else await store.deleteSessionsOf(user.id);
    },
  };
}

export type Sessions = ReturnType<typeof createSessions>;
