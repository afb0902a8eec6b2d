/** The caller the guards know, and what the users service asks of the services built after it. */
import type { AccessLevel, Role } from '#shared/access.ts';
import type { DbOrTx } from '../platform/db/client.ts';
import type { AccountLookup } from './profiles.ts';
import type { ProfileRow } from './tables.ts';

/** Who is asking: set by the identity middleware from a verified access token. */
export interface Viewer {
  id: string;
  email: string;
  role: Role;
  accessLevel: AccessLevel;
  /** The auth session of the token (signed-out sessions are refused where it matters). */
  sessionId?: string;
  /** Whether they get the members' newsletter (their choice, or their level's default), as the profile said. */
  newsletter?: boolean;
  /** The API key the call came with (an integration acting as the admin who made it); no session then. */
  apiKey?: string;
}

/** What the users service asks of the auth service and of billing, connected by compose.ts once all exist (`users.connect`). */
export interface UserHooks {
  /** The auth service's own record of an account (see AccountLookup). */
  lookupAccount: AccountLookup;
  /** Deletes the account at the auth service (embedded: ours; hosted: the project's admin API). */
  deleteAccount: (userId: string) => Promise<void>;
  /** Runs first when a member deletes their account (billing ends their paid subscriptions). */
  beforeDelete: (userId: string) => Promise<void>;
  /**
   * The grants ledger (billing owns it): sets the locked member's level by comps (theirs end; one is
   * made when the level is above what their other grants give) and answers the derived level.
   */
  compTo: (tx: DbOrTx, profile: ProfileRow, level: AccessLevel, actorId: string, note?: string) => Promise<AccessLevel>;
  /** Derives the locked member's level again (their role changed), audited as the actor's. */
  deriveLevel: (tx: DbOrTx, profile: ProfileRow, actorId: string) => Promise<AccessLevel>;
  /** Derives a member's level again now: a profile read after its `access_until` (a grant ended or started). */
  refreshAccess: (userId: string) => Promise<unknown>;
}
