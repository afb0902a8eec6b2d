/** The caller the guards know, and what the users service asks of the services built after it. */
import type { AccessLevel, Role } from '#shared/access.ts';
import type { DbOrTx } from '../platform/db/client.ts';
import type { AccountLookup } from './profiles.ts';

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
}

/** What the users service asks of the auth service and of billing, connected by compose.ts once all exist (`users.connect`). */
export interface UserHooks {
  /** The auth service's own record of an account (see AccountLookup). */
  lookupAccount: AccountLookup;
  /** Deletes the account at the auth service (embedded: ours; hosted: the project's admin API). */
  deleteAccount: (userId: string) => Promise<void>;
  /** Runs first when a member deletes their account (billing ends their paid subscriptions). */
  beforeDelete: (userId: string) => Promise<void>;
  /** The level a member's own subscriptions grant now (billing), for staff who become members again. */
  paidLevel: (tx: DbOrTx, userId: string) => Promise<AccessLevel>;
}
