/**
 * The guards every route group chains, built once (`createGuards` in app.ts) from the identity parts:
 * `identify` reads who is asking (and marks the answer private), `member` needs a signed-in caller,
 * `live` a session still signed in at the auth service, `staff(what)` an editor or admin, `admin` an
 * admin. A route names its guards in the order they apply; the handler reads the caller with
 * `requireViewer(c)`. Route factories take `guards` instead of the token verifier, the user service
 * and the session check.
 */
import { isStaff } from '#shared/access.ts';
import type { AccessTokenVerifier } from '../auth/index.ts';
import { AppError } from '../platform/errors.ts';
import type { AppContext, AppMiddleware } from '../platform/http/context.ts';
import { identify, knownViewer, requireLiveSession, requireViewer, type KeyCheck, type SessionCheck } from './identity.ts';
import type { UserService, Viewer } from './service.ts';

export interface Guards {
  /** Who is asking, when a valid token came; every answer behind it is private. */
  identify: AppMiddleware;
  /** A signed-in caller: 401 otherwise. */
  member: AppMiddleware;
  /** A signed-in caller whose session is still signed in: 401 otherwise (after sign-out the token stops here at once). */
  live: AppMiddleware;
  /** An editor or admin: 401 signed out, 403 otherwise; `what` completes "Only editors and admins can …". */
  staff: (what: string) => AppMiddleware;
  /** An admin: 401 signed out, 403 for anyone else (premium members and editors included). */
  admin: AppMiddleware;
  /** The live-session check inside a handler, for a route that needs it only in some cases. */
  requireLive: (c: AppContext) => Promise<Viewer>;
  /** The viewer behind an Authorization header verified lately, without waiting (the answer lane's check). */
  knownViewer: (header: string | undefined) => Viewer | undefined;
}

export function createGuards(deps: {
  verify: AccessTokenVerifier;
  users: UserService;
  sessionIsLive: SessionCheck;
  /** The admin an API key acts as on the routes keys may call (members/keys/guard.ts). */
  keyViewer?: KeyCheck;
}): Guards {
  const { verify, users, sessionIsLive, keyViewer } = deps;
  const check =
    (test: (viewer: Viewer) => void): AppMiddleware =>
    async (c, next) => {
      test(requireViewer(c));
      await next();
    };
  return {
    identify: identify({ verify, users, keyViewer }),
    member: check(() => {}),
    live: async (c, next) => {
      await requireLiveSession(c, sessionIsLive);
      await next();
    },
    staff: (what) =>
      check((viewer) => {
        if (!isStaff(viewer.role)) throw new AppError('forbidden', `Only editors and admins can ${what}.`);
      }),
    admin: check((viewer) => {
      if (viewer.role !== 'admin') throw new AppError('forbidden', 'Only administrators can use this.');
    }),
    requireLive: (c) => requireLiveSession(c, sessionIsLive),
    knownViewer: (header) => knownViewer(header, verify, users),
  };
}
