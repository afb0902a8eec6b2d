/**
 * Members: the profile behind each account (created at sign-up in embedded mode, on the first
 * authenticated call otherwise), the user API's rules (spec point 7, with real authorisation), and
 * the member's own data: export and deletion, which ask every domain keeping some of it through the
 * hooks registered in `personalData` (personal-data.ts).
 */
import type { AccessLevel, Role } from '#shared/access.ts';
import type { Db, DbOrTx } from '../platform/db/client.ts';
import type { Language, ProfileRow } from './tables.ts';
import type { EmailService } from '../email/service.ts';
import { AppError } from '../platform/errors.ts';
import { createPersonalDataRegistry } from './personal-data.ts';
import { createUserStore } from './store.ts';

/** Who is asking: set by the identity middleware from a verified access token. */
export interface Viewer {
  id: string;
  email: string;
  role: Role;
  accessLevel: AccessLevel;
  /** The auth session of the token (signed-out sessions are refused where it matters). */
  sessionId?: string;
}

/** What the auth service itself recorded about an account: its address, and whether that address is proven. */
export interface AccountRecord {
  email: string;
  /** The address was proven through a mailed link (or the account was made by the server). */
  proven: boolean;
}

/**
 * Asks the auth service about the account behind a verified token (embedded: our own users table;
 * hosted: GET /auth/v1/user with the token). Undefined when it no longer knows the account.
 */
export type AccountLookup = (userId: string, token: string) => Promise<AccountRecord | undefined>;

export interface UserServiceDeps {
  db: Db;
  outbox: EmailService;
  adminEmails: readonly string[];
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

/** The spec's "User data" plus role and language. */
function profileJson(p: ProfileRow) {
  return {
    id: p.id,
    email: p.email,
    name: p.name,
    avatar: p.avatar,
    accessLevel: p.accessLevel,
    role: p.role,
    customerId: p.customerId,
    language: p.language,
    createdAt: p.createdAt.toISOString(),
  };
}
export type ProfileJson = ReturnType<typeof profileJson>;

const forbidden = () => new AppError('forbidden', 'You do not have access to this user.');

/**
 * Profiles read by the identity middleware are kept this long, so a member's burst of calls costs
 * one query. Changes made here drop the entry at once; every instance drops it when any instance's
 * change commits (a trigger on `profiles` notifies PROFILE_CHANNEL; services.ts listens), so the
 * time is only the bound while that listener is reconnecting (it then drops every entry).
 */
const PROFILE_TTL_MS = 5_000;
const PROFILE_CACHE_SIZE = 10_000;

export function createUserService({ db, outbox, adminEmails }: UserServiceDeps) {
  let hooks: UserHooks | undefined;
  /** The connected hooks; using one before compose.ts connected them is a wiring mistake. */
  const hook = (): UserHooks => {
    if (!hooks) throw new Error('users: a hook was used before compose.ts connected them');
    return hooks;
  };
  const store = createUserStore(db);
  const personalData = createPersonalDataRegistry();
  const admins = new Set(adminEmails);
  const cache = new Map<string, { profile: ProfileRow; until: number }>();
  const remember = (profile: ProfileRow) => {
    if (cache.size >= PROFILE_CACHE_SIZE) cache.delete(cache.keys().next().value!);
    cache.set(profile.id, { profile, until: Date.now() + PROFILE_TTL_MS });
    return profile;
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
  const gone = () =>
    new AppError('unauthorized', 'This account no longer exists. Please sign up again.', { headers: { 'WWW-Authenticate': 'Bearer' } });
  const ADMIN = { role: 'admin', accessLevel: 'premium' } as const;

  /** A new account's profile: admin for a proven listed address (staff get premium access), else a free member. */
  function newProfile(id: string, email: string, verified: boolean, name?: string) {
    return {
      id,
      email: email.toLowerCase(),
      name: name ?? null,
      ...(provenAdmin(email, verified) ? ADMIN : { role: 'member' as const, accessLevel: 'free' as const }),
    };
  }

  async function setAccess(viewer: Viewer, id: string, change: { accessLevel?: AccessLevel; role?: Role }): Promise<ProfileJson> {
    if (viewer.role !== 'admin') throw new AppError('forbidden', 'Only administrators can change access levels and roles.');
    if (id === viewer.id && change.role !== undefined && change.role !== 'admin')
      throw new AppError('conflict', 'You cannot remove your own admin role; ask another administrator.');
    return db.transaction(async (tx) => {
      const txStore = createUserStore(tx);
      // Locked like billing's recompute, so a webhook and this change never decide the level on stale rows.
      const before = await txStore.lockById(id);
      if (!before) throw new AppError('not_found', 'No such user.');
      const role = change.role ?? before.role;
      // Staff read at premium; staff made members again keep what they pay for, not the role's premium.
      const demoted = role === 'member' && before.role !== 'member';
      const accessLevel =
        change.accessLevel ??
        (role !== 'member' && change.role !== undefined ? 'premium' : demoted ? await hook().paidLevel(tx, id) : before.accessLevel);
      const after = (await txStore.update(id, { role, accessLevel }))!;
      forget(id);
      if (accessLevel !== before.accessLevel || change.accessLevel !== undefined)
        await txStore.audit({
          actorId: viewer.id,
          action: 'access_level.set',
          targetId: id,
          detail: { from: before.accessLevel, to: accessLevel },
        });
      if (change.role !== undefined)
        await txStore.audit({ actorId: viewer.id, action: 'role.set', targetId: id, detail: { from: before.role, to: role } });
      return profileJson(after);
    });
  }

  return {
    /** The auth service's and billing's side of accounts, connected once every service exists. */
    connect(next: UserHooks): void {
      hooks = next;
    },
    /** Where each domain keeping a member's data registers its export and erase hook (compose.ts). */
    personalData: { register: personalData.register },

    /** Creates the profile of a new account inside the sign-up's transaction (embedded mode). */
    createProfile: (tx: DbOrTx, id: string, email: string, verified: boolean, name?: string) =>
      createUserStore(tx).ensure(newProfile(id, email, verified, name)),

    /**
     * The profile behind a verified token. Made on the first call only for an account the auth
     * service still knows (hosted mode; embedded sign-up makes it in its own transaction), so the
     * still-valid token of a deleted account never brings its profile back: 401. A member whose
     * listed address (ADMIN_EMAILS) the auth service records as proven becomes admin.
     */
    /** The profile when it is cached and fresh, without waiting; undefined otherwise (then use profileFor). */
    peekProfile(id: string): ProfileRow | undefined {
      const cached = cache.get(id);
      return cached && cached.until > Date.now() ? cached.profile : undefined;
    },

    async profileFor(id: string, token: string): Promise<ProfileRow> {
      const cached = cache.get(id);
      if (cached && cached.until > Date.now()) return cached.profile;
      const before = drops;
      const existing = await store.byId(id);
      if (existing) {
        if (existing.role === 'member' && admins.has(existing.email) && (await hook().lookupAccount(id, token))?.proven)
          return remember((await store.update(id, ADMIN))!);
        return drops === before ? remember(existing) : existing;
      }
      const account = await hook().lookupAccount(id, token);
      if (!account) throw gone();
      return remember(await store.ensure(newProfile(id, account.email, account.proven)));
    },

    /** Keeps the profile's address in step with the account's (an email change completed). */
    async changeEmail(tx: DbOrTx, id: string, email: string): Promise<void> {
      await createUserStore(tx).update(id, { email });
      forget(id);
    },

    /** The language a member chose for their emails. */
    async languageOf(tx: DbOrTx, id: string): Promise<Language | undefined> {
      return (await createUserStore(tx).byId(id))?.language;
    },

    /** Drops the cached profile after another domain, or another instance, changed it (billing moved the access level). */
    forget,

    /** Drops every cached profile (the change notices may have been missed). */
    forgetAll: () => {
      drops += 1;
      cache.clear();
    },

    /** Sets a profile's role and access level directly (demo seeding). */
    async assign(id: string, role: Role, accessLevel: AccessLevel): Promise<void> {
      await store.update(id, { role, accessLevel });
      forget(id);
    },

    /** GET /api/users/byEmail/{email}: your own profile; admins may read anyone's. No answer tells whether an address exists. */
    async byEmail(viewer: Viewer, email: string): Promise<ProfileJson> {
      const wanted = email.trim().toLowerCase();
      if (viewer.role !== 'admin' && wanted !== viewer.email) throw forbidden();
      const profile = await store.byEmail(wanted);
      if (!profile) throw new AppError('not_found', 'No user with that email address.');
      return profileJson(profile);
    },

    /** PUT /api/users/{id}/accessLevel: admins only, written to the audit log. */
    setAccessLevel: (viewer: Viewer, id: string, accessLevel: AccessLevel): Promise<ProfileJson> => setAccess(viewer, id, { accessLevel }),

    /**
     * PATCH /api/admin/users/{id}: a member's access level and/or role, admins only, each change
     * written to the audit log in the same transaction. Promoting to a staff role grants premium
     * unless a level is given; an admin cannot take their own admin role away (lock-out).
     */
    setAccess,

    /** PATCH /api/users/me: name and language. */
    async updateMe(viewer: Viewer, patch: { name?: string | null; language?: Language }): Promise<ProfileJson> {
      const updated = await store.update(viewer.id, patch);
      forget(viewer.id);
      if (!updated) throw new AppError('not_found', 'No such user.');
      return profileJson(updated);
    },

    /** GET /api/users/me/export: everything we keep about the member. */
    async exportMe(viewer: Viewer) {
      const profile = await store.byId(viewer.id);
      if (!profile) throw new AppError('not_found', 'No such user.');
      const data = await personalData.collect(db, { id: profile.id, email: profile.email });
      return { exportedAt: new Date().toISOString(), profile: profileJson(profile), ...data };
    },

    /** DELETE /api/users/me: the account and every domain's data of the member (registered hooks); a confirmation mail goes out. */
    async deleteMe(viewer: Viewer): Promise<void> {
      const profile = await store.byId(viewer.id);
      const email = profile?.email ?? viewer.email;
      // Paid subscriptions end first, then the sign-in: if either fails, nothing is lost and the
      // member can try again.
      await hook().beforeDelete(viewer.id);
      await hook().deleteAccount(viewer.id);
      forget(viewer.id);
      await db.transaction(async (tx) => {
        await personalData.erase(tx, { id: viewer.id, email });
        await createUserStore(tx).remove(viewer.id);
        await outbox.enqueue(tx, { to: email, template: 'account-deleted', data: { language: profile?.language ?? 'en' } });
      });
    },
  };
}

export type UserService = ReturnType<typeof createUserService>;
