/**
 * Server-side identity: the one middleware that turns `Authorization: Bearer <access token>` into a
 * typed viewer. The token is verified with jose against the JWKS (ours, or the hosted project's),
 * with issuer, audience and expiry checked; the profile comes from the database (made on the first
 * call when the account was created elsewhere). Authorization comes only from the token: the
 * `apikey` header the browser client sends is never trusted. Every answer behind it depends on the
 * viewer, so it is marked private (`Cache-Control: private`, `Vary: Authorization`).
 */
import { z } from 'zod';
import { receivesNewsletter } from '#shared/newsletter.ts';
import { InvalidTokenError, type AccessClaims, type AccessTokenVerifier } from '../auth/index.ts';
import type { ProfileRow } from './tables.ts';
import { AppError } from '../platform/errors.ts';
import type { AppContext, AppMiddleware } from '../platform/http/context.ts';
import { requestHeader } from '../platform/http/http.ts';
import { markPrivate } from '../platform/http/respond.ts';
import type { UserService, Viewer } from './service.ts';

declare module '../platform/http/context.ts' {
  interface AppVariables {
    /** The signed-in caller, when the request carried a valid access token. */
    viewer?: Viewer;
  }
}

const unauthorized = (message: string) => new AppError('unauthorized', message, { headers: { 'WWW-Authenticate': 'Bearer' } });
const Uuid = z.uuid();

/** The bearer token of the request, undefined when there is no Authorization header; 401 when it is malformed. */
function bearerToken(c: AppContext): string | undefined {
  const header = requestHeader(c, 'authorization');
  if (header === undefined) return undefined;
  const token = /^Bearer +([A-Za-z0-9._~+/=-]+)$/.exec(header)?.[1];
  if (!token) throw unauthorized('Send the access token as "Authorization: Bearer <token>".');
  return token;
}

/** Whether the session a token belongs to is still signed in (checked at the auth service). */
export type SessionCheck = (token: string, sessionId: string | undefined) => Promise<boolean>;

/** The viewer behind an API key (`mk_…`) for this request's route, or a 401/403 (members/keys/guard.ts). */
export type KeyCheck = (c: AppContext, key: string) => Promise<Viewer>;

/** API keys start with this; access tokens never do (a JWT starts with `ey`). */
const KEY_PREFIX = 'Bearer mk_';

export function identify({
  verify,
  users,
  keyViewer,
}: {
  verify: AccessTokenVerifier;
  users: UserService;
  keyViewer?: KeyCheck | undefined;
}): AppMiddleware {
  return async (c, next) => {
    markPrivate(c);
    // Already known (two routers share a prefix): the token is not verified twice.
    if (c.get('viewer')) return next();
    const header = requestHeader(c, 'authorization');
    if (header === undefined) return next();
    if (keyViewer && header.startsWith(KEY_PREFIX)) {
      c.set('viewer', await keyViewer(c, header.slice(7)));
      return next();
    }
    const known = knownViewer(header, verify, users);
    if (known) {
      c.set('viewer', known);
      return next();
    }
    return identifyToken(c, bearerToken(c)!, verify, users).then(next);
  };
}

/**
 * A member's next calls: the viewer behind an Authorization header whose token was verified lately
 * (the exact bytes, not expired) and whose profile was read lately, without waiting on anything;
 * undefined when either is not at hand (then the token is checked in full).
 */
export function knownViewer(
  header: string | undefined,
  verify: AccessTokenVerifier,
  users: Pick<UserService, 'peekProfile'>,
): Viewer | undefined {
  const claims = header?.startsWith('Bearer ') ? verify.peek(header.slice(7)) : undefined;
  const profile = claims?.role === 'authenticated' ? users.peekProfile(claims.sub) : undefined;
  return profile && viewerOf(profile, claims!);
}

async function identifyToken(c: AppContext, token: string, verify: AccessTokenVerifier, users: UserService): Promise<void> {
  let claims;
  try {
    claims = await verify(token);
  } catch (err) {
    if (err instanceof InvalidTokenError)
      throw unauthorized(err.expired ? 'Your session has expired. Please sign in again.' : 'The access token is not valid.');
    throw err;
  }
  if (claims.role !== 'authenticated' || !Uuid.safeParse(claims.sub).success) throw unauthorized('The access token is not valid.');
  c.set('viewer', viewerOf(await users.profileFor(claims.sub, token), claims));
}

/** The viewer an API key acts as: the admin who made it, as their profile says now. */
export function keyViewer(profile: ProfileRow, apiKey: string): Viewer {
  return {
    id: profile.id,
    email: profile.email,
    role: profile.role,
    accessLevel: profile.accessLevel,
    newsletter: receivesNewsletter(profile),
    apiKey,
  };
}

function viewerOf(profile: ProfileRow, claims: AccessClaims): Viewer {
  return {
    id: profile.id,
    email: profile.email,
    role: profile.role,
    accessLevel: profile.accessLevel,
    newsletter: receivesNewsletter(profile),
    ...(typeof claims.session_id === 'string' ? { sessionId: claims.session_id } : {}),
  };
}

/**
 * For what must stop the moment a member signs out (deleting the account, exporting personal data,
 * staff changes): the signed-in caller whose session still exists at the auth service, or 401.
 * Signature checks alone accept a signed-out token until it expires.
 */
export async function requireLiveSession(c: AppContext, isLive: SessionCheck): Promise<Viewer> {
  const viewer = requireViewer(c);
  // An API key was checked live already (a revoked key stops at once); it has no session.
  if (viewer.apiKey) return viewer;
  if (!(await isLive(bearerToken(c)!, viewer.sessionId))) throw unauthorized('Your session has ended. Please sign in again.');
  return viewer;
}

/** The signed-in caller, or 401. */
export function requireViewer(c: AppContext): Viewer {
  const viewer = c.get('viewer');
  if (!viewer) throw unauthorized('Please sign in.');
  return viewer;
}
