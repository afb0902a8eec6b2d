/**
 * The profile behind each account, as the identity middleware reads it: created at sign-up in
 * embedded mode, on the first authenticated call otherwise, and kept a few seconds in memory so a
 * member's burst of calls costs one query. The account changes that drop entries are in account.ts.
 */
import { signupAttribution } from '#shared/signup-attribution.ts';
import { withoutInvisible } from '#shared/visible-text.ts';
import type { DbOrTx } from '../platform/db/client.ts';
import type { ProfileRow } from './tables.ts';
import { AppError } from '../platform/errors.ts';
import { createUserStore, type UserStore } from './store.ts';

/** What the auth service itself recorded about an account: its address, and whether that address is proven. */
export interface AccountRecord {
  email: string;
  /** The address was proven through a mailed link (or the account was made by the server). */
  proven: boolean;
  /** The sign-up metadata's attribution (hosted: `user_metadata.signup`), unchecked. */
  signup?: unknown;
}

/**
 * Asks the auth service about the account behind a verified token (embedded: our own users table;
 * hosted: GET /auth/v1/user with the token). Undefined when it no longer knows the account.
 */
export type AccountLookup = (userId: string, token: string) => Promise<AccountRecord | undefined>;

export interface ProfilesDeps {
  /** The database `store` is on. */
  db: DbOrTx;
  store: UserStore;
  adminEmails: readonly string[];
  /** The auth service's record (connected late: called only when a profile is read). */
  lookupAccount: AccountLookup;
  /** Derives the member's level again (the grants ledger), for a profile read after its `accessUntil`. */
  refreshAccess: (userId: string) => Promise<unknown>;
  /** Told of each profile made, on the database or transaction that made it (the member.created webhook). */
  created: (db: DbOrTx, profile: ProfileRow) => Promise<void>;
}

/**
 * Profiles read by the identity middleware are kept this long, so a member's burst of calls costs
 * one query. Changes made here drop the entry at once; every instance drops it when any instance's
 * change commits (a trigger on `profiles` notifies PROFILE_CHANNEL; compose.ts listens), so the
 * time is only the bound while that listener is reconnecting (it then drops every entry).
 */
const PROFILE_TTL_MS = 5_000;
const PROFILE_CACHE_SIZE = 10_000;

/** An admin, at the level the grants ledger derives for staff (payments/grants/ledger.ts). */
const ADMIN = { role: 'admin', accessLevel: 'premium' } as const;

/** The longest display name (PATCH /api/users/me refuses a longer one). */
export const MAX_NAME_CHARS = 100;

/**
 * The name a new account's sign-up metadata gives (`data.name`, which the caller writes) as the
 * display name other members see: without the characters that make it read backwards
 * (`#shared/visible-text.ts`), on one line, at most MAX_NAME_CHARS characters; null when nothing is left.
 */
export function displayName(raw: string | undefined): string | null {
  const name = withoutInvisible(raw ?? '')
    .replace(/\s+/g, ' ')
    .trim();
  // Cut as the PATCH limit counts (UTF-16 units), never inside a surrogate pair.
  const cut = name
    .slice(0, MAX_NAME_CHARS)
    .replace(/[\ud800-\udbff]$/, '')
    .trim();
  return cut || null;
}

const gone = () =>
  new AppError('unauthorized', 'This account no longer exists. Please sign up again.', { headers: { 'WWW-Authenticate': 'Bearer' } });

/** The profile cache and the reads and creations that fill it. */
export function createProfiles({ db, store, adminEmails, lookupAccount, refreshAccess, created }: ProfilesDeps) {
  const admins = new Set(adminEmails);
  const cache = new Map<string, { profile: ProfileRow; until: number }>();
  const remember = (profile: ProfileRow) => {
    if (cache.size >= PROFILE_CACHE_SIZE) cache.delete(cache.keys().next().value!);
    // Kept no longer than the level holds: past `accessUntil` the next read derives it again.
    const until = Math.min(Date.now() + PROFILE_TTL_MS, profile.accessUntil?.getTime() ?? Infinity);
    cache.set(profile.id, { profile, until });
    return profile;
  };
  // When each member was last marked seen by this process: the write goes out at most once an hour each.
  const seen = new Map<string, number>();
  const markSeen = (id: string) => {
    const now = Date.now();
    if ((seen.get(id) ?? 0) > now - 3_600_000) return;
    if (seen.size >= PROFILE_CACHE_SIZE) seen.clear();
    seen.set(id, now);
    store.touchSeen(id).catch(() => seen.delete(id));
  };
  /** The stored profile, its level derived again first when a grant ended or started since it was written. */
  const current = async (id: string): Promise<ProfileRow | undefined> => {
    markSeen(id);
    const row = await store.byId(id);
    if (!row?.accessUntil || row.accessUntil.getTime() > Date.now()) return row;
    await refreshAccess(id);
    return store.byId(id);
  };
  // Bumped by every drop: a read that started before a change committed is answered but not kept.
  let drops = 0;
  const forget = (id: string) => {
    drops += 1;
    cache.delete(id);
  };

  /**
   * ADMIN_EMAILS makes an address admin only once it is proven (confirmed through a mailed link, as
   * the auth service itself recorded it, never a claim the member could write): otherwise anyone
   * could sign up with a listed address before its owner.
   */
  const provenAdmin = (email: string, verified: boolean) => verified && admins.has(email.toLowerCase());

  /**
   * A new account's profile: admin for a proven listed address (staff get premium access), else a
   * free member; with where they came from (`signup`, the sign-up metadata's, each bad value dropped).
   */
  function newProfile(id: string, email: string, verified: boolean, name?: string, signup?: unknown) {
    return {
      id,
      email: email.toLowerCase(),
      name: displayName(name),
      ...signupAttribution(signup),
      ...(provenAdmin(email, verified) ? ADMIN : { role: 'member' as const, accessLevel: 'free' as const }),
    };
  }

  return {
    /** Creates the profile of a new account inside the sign-up's transaction (embedded mode). */
    async createProfile(tx: DbOrTx, id: string, email: string, verified: boolean, name?: string, signup?: unknown): Promise<ProfileRow> {
      const made = await createUserStore(tx).ensure(newProfile(id, email, verified, name, signup));
      if (made.created) await created(tx, made.row);
      return made.row;
    },

    /** The profile when it is cached and fresh, without waiting; undefined otherwise (then use profileFor). */
    peekProfile(id: string): ProfileRow | undefined {
      const cached = cache.get(id);
      return cached && cached.until > Date.now() ? cached.profile : undefined;
    },

    /**
     * The profile behind a verified token. Made on the first call only for an account the auth
     * service still knows (hosted mode; embedded sign-up makes it in its own transaction), so the
     * still-valid token of a deleted account never brings its profile back: 401. A member whose
     * listed address (ADMIN_EMAILS) the auth service records as proven becomes admin.
     */
    async profileFor(id: string, token: string): Promise<ProfileRow> {
      const cached = cache.get(id);
      if (cached && cached.until > Date.now()) return cached.profile;
      const before = drops;
      const existing = await current(id);
      if (existing) {
        if (existing.role === 'member' && admins.has(existing.email) && (await lookupAccount(id, token))?.proven)
          return remember((await store.update(id, ADMIN))!);
        return drops === before ? remember(existing) : existing;
      }
      const account = await lookupAccount(id, token);
      if (!account) throw gone();
      const made = await store.ensure(newProfile(id, account.email, account.proven, undefined, account.signup));
      // Hosted auth: the profile is made on the first call, outside a sign-up transaction; the event follows its insert.
      if (made.created) await created(db, made.row);
      return remember(made.row);
    },

    /** Drops one cached profile. */
    forget,

    /** Drops every cached profile. */
    forgetAll: () => {
      drops += 1;
      cache.clear();
    },
  };
}

export type Profiles = ReturnType<typeof createProfiles>;
