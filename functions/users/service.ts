/**
 * Members: the profile behind each account (created at sign-up in embedded mode, on the first
 * authenticated call otherwise), the user API's rules (spec point 7, with real authorisation), and
 * the member's own data: export and deletion, which ask every domain keeping some of it through the
 * hooks registered in `personalData` (personal-data.ts). This file assembles the parts, one job
 * each: profiles.ts (the profile cache and the identity reads) and account.ts (access, role, the
 * member's own changes, export and deletion), over one store (store.ts).
 */
import type { AccessLevel, Role } from '#shared/access.ts';
import type { Db, DbOrTx } from '../platform/db/client.ts';
import type { Language } from './tables.ts';
import type { EmailService } from '../email/index.ts';
import type { Logger } from '../platform/logger.ts';
import { createAccountChanges, type ProfileJson } from './account.ts';
import { createPersonalDataRegistry } from './personal-data.ts';
import { createProfiles } from './profiles.ts';
import { createUserStore } from './store.ts';
import type { UserHooks, Viewer } from './viewer.ts';
import { memberData, type WebhookEmitter } from '../outbound/index.ts';

export type { Viewer } from './viewer.ts';

/** The audit log's actor for what the system itself did (the payment provider's changes, demo seeding). */
const SYSTEM_ACTOR = '00000000-0000-0000-0000-000000000000';

export interface UserServiceDeps {
  db: Db;
  outbox: EmailService;
  adminEmails: readonly string[];
  logger: Logger;
  /** Outbound webhooks: member.created, member.updated (name, email, role), member.deleted. */
  webhooks: WebhookEmitter;
}

export function createUserService({ db, outbox, adminEmails, logger, webhooks }: UserServiceDeps) {
  let hooks: UserHooks | undefined;
  /** The connected hooks; using one before compose.ts connected them is a wiring mistake. */
  const hook = (): UserHooks => {
    if (!hooks) throw new Error('users: a hook was used before compose.ts connected them');
    return hooks;
  };
  const store = createUserStore(db);
  const personalData = createPersonalDataRegistry();
  const profiles = createProfiles({
    db,
    store,
    adminEmails,
    lookupAccount: (id, token) => hook().lookupAccount(id, token),
    refreshAccess: (id) => hook().refreshAccess(id),
    created: (tx, p) => webhooks.emit(tx, 'member.created', { member: memberData(p) }, p.id),
  });
  const { forget } = profiles;
  const account = createAccountChanges({ db, outbox, store, personalData, hook, forget, logger, webhooks });

  return {
    /** The auth service's and billing's side of accounts, connected once every service exists. */
    connect(next: UserHooks): void {
      hooks = next;
    },
    /** Where each domain keeping a member's data registers its export and erase hook (compose.ts). */
    personalData: { register: personalData.register },

    /** Creates the profile of a new account inside the sign-up's transaction (embedded mode). */
    createProfile: profiles.createProfile,

    /** The profile when it is cached and fresh, without waiting; undefined otherwise (then use profileFor). */
    peekProfile: profiles.peekProfile,

    /** The profile behind a verified token, cached briefly; 401 for an account the auth service no longer knows (profiles.ts). */
    profileFor: profiles.profileFor,

    /** Keeps the profile's address in step with the account's (an email change completed). */
    async changeEmail(tx: DbOrTx, id: string, email: string): Promise<void> {
      const txStore = createUserStore(tx);
      const before = await txStore.byId(id);
      const after = await txStore.update(id, { email });
      forget(id);
      if (before && after && before.email !== after.email)
        await webhooks.emit(tx, 'member.updated', { member: memberData(after), previous: { email: before.email } }, id);
    },

    /** The language a member chose for their emails. */
    async languageOf(tx: DbOrTx, id: string): Promise<Language | undefined> {
      return (await createUserStore(tx).byId(id))?.language;
    },

    /** Drops the cached profile after another domain, or another instance, changed it (billing moved the access level). */
    forget,

    /** Drops every cached profile (the change notices may have been missed). */
    forgetAll: profiles.forgetAll,

    /**
     * Sets a profile's role, and its level as an open comp made by the system (demo seeding, tests):
     * through the grants ledger like every level, and a no-op when already so.
     */
    async assign(id: string, role: Role, accessLevel: AccessLevel): Promise<void> {
      await db.transaction(async (tx) => {
        const txStore = createUserStore(tx);
        const locked = await txStore.lockById(id);
        if (!locked) throw new Error(`users.assign: no profile ${id}`);
        const profile = locked.role === role ? locked : { ...(await txStore.update(id, { role }))!, accessLevel: locked.accessLevel };
        await hook().compTo(tx, profile, accessLevel, SYSTEM_ACTOR, 'Assigned by the system (demo account or test)');
      });
      forget(id);
    },

    /** A member's stored profile (the admin behind an API key), undefined when there is none. */
    profileById: (id: string) => store.byId(id),

    /** GET /api/users/byEmail/{email}: your own profile; admins may read anyone's. No answer tells whether an address exists. */
    byEmail: account.byEmail,

    /** PUT /api/users/{id}/accessLevel: admins only, a comp (or the end of comps) like PATCH /api/admin/users/{id}. */
    setAccessLevel: (viewer: Viewer, id: string, accessLevel: AccessLevel): Promise<ProfileJson> =>
      account.setAccess(viewer, id, { accessLevel }),

    /**
     * PATCH /api/admin/users/{id}: a member's access level and/or role, admins only, each change
     * written to the audit log in the same transaction. Promoting to a staff role grants premium
     * unless a level is given; an admin cannot take their own admin role away (lock-out).
     */
    setAccess: account.setAccess,

    /** PATCH /api/users/me: name, language and the newsletter setting. */
    updateMe: account.updateMe,

    /** GET /api/users/me/export: everything we keep about the member. */
    exportMe: account.exportMe,

    /** DELETE /api/users/me: the account and every domain's data of the member (registered hooks); a confirmation mail goes out. */
    deleteMe: account.deleteMe,
  };
}

export type UserService = ReturnType<typeof createUserService>;
