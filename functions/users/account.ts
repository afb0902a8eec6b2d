/**
 * Changes to an account (spec point 7, with real authorisation): access level and role (admins
 * only, audited), the member's own name and language, and their data: export and deletion, which
 * ask every domain keeping some of it through the hooks registered in `personalData`
 * (personal-data.ts). Each change drops the profile's cache entry (profiles.ts).
 */
import type { AccessLevel, Role } from '#shared/access.ts';
import { newsletterIncluded, receivesNewsletter } from '#shared/newsletter.ts';
import type { Db } from '../platform/db/client.ts';
import type { Logger } from '../platform/logger.ts';
import type { Language, ProfileRow } from './tables.ts';
import type { EmailService } from '../email/index.ts';
import type { PersonalDataRegistry } from './personal-data.ts';
import type { UserHooks, Viewer } from './viewer.ts';
import { AppError } from '../platform/errors.ts';
import { createUserStore, type UserStore } from './store.ts';
import { memberData, type WebhookEmitter } from '../outbound/index.ts';

/** The spec's "User data" plus role, language and the newsletter setting. */
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
    /** Whether they get the members' newsletter: their choice, or what their level includes. */
    newsletter: receivesNewsletter(p),
    createdAt: p.createdAt.toISOString(),
  };
}
export type ProfileJson = ReturnType<typeof profileJson>;

const forbidden = () => new AppError('forbidden', 'You do not have access to this user.');

export interface AccountDeps {
  db: Db;
  outbox: EmailService;
  store: UserStore;
  personalData: PersonalDataRegistry;
  /** The connected hooks (throws before compose.ts connected them). */
  hook: () => UserHooks;
  /** Drops a profile's cache entry after a change. */
  forget: (id: string) => void;
  logger: Logger;
  webhooks: WebhookEmitter;
}

export function createAccountChanges({ db, outbox, store, personalData, hook, forget, logger, webhooks }: AccountDeps) {
  /**
   * PATCH /api/admin/users/{id}: a member's access level and/or role, admins only, each change
   * written to the audit log in the same transaction. A level makes or ends a comp in the grants
   * ledger (never an edit of the column); staff read at premium by their role; an admin cannot take
   * their own admin role away (lock-out).
   */
  async function setAccess(viewer: Viewer, id: string, change: { accessLevel?: AccessLevel; role?: Role }): Promise<ProfileJson> {
    if (viewer.role !== 'admin') throw new AppError('forbidden', 'Only administrators can change access levels and roles.');
    if (id === viewer.id && change.role !== undefined && change.role !== 'admin')
      throw new AppError('conflict', 'You cannot remove your own admin role; ask another administrator.');
    return db.transaction(async (tx) => {
      const txStore = createUserStore(tx);
      // Locked as the grants ledger locks it, so a webhook and this change never derive the level from stale rows.
      const before = await txStore.lockById(id);
      if (!before) throw new AppError('not_found', 'No such user.');
      const role = change.role ?? before.role;
      const profile = role === before.role ? before : { ...(await txStore.update(id, { role }))!, accessLevel: before.accessLevel };
      // A level is a comp (or the end of comps); staff read at premium by their role, members made again
      // of staff keep what their grants give. The ledger audits a moved level as this admin's.
      if (change.accessLevel !== undefined) await hook().compTo(tx, profile, change.accessLevel, viewer.id);
      else await hook().deriveLevel(tx, profile, viewer.id);
      const after = (await txStore.byId(id))!;
      forget(id);
      if (change.role !== undefined)
        await txStore.audit({ actorId: viewer.id, action: 'role.set', targetId: id, detail: { from: before.role, to: role } });
      // A moved level is the grants ledger's event (payments/grants/ledger.ts); a moved role is this one.
      if (role !== before.role)
        await webhooks.emit(tx, 'member.updated', { member: memberData(after), previous: { role: before.role } }, id);
      return profileJson(after);
    });
  }

  return {
    /** GET /api/users/byEmail/{email}: your own profile; admins may read anyone's. No answer tells whether an address exists. */
    async byEmail(viewer: Viewer, email: string): Promise<ProfileJson> {
      const wanted = email.trim().toLowerCase();
      if (viewer.role !== 'admin' && wanted !== viewer.email) throw forbidden();
      const profile = await store.byEmail(wanted);
      if (!profile) throw new AppError('not_found', 'No user with that email address.');
      return profileJson(profile);
    },

    setAccess,

    /** PATCH /api/users/me: name, language and whether they get the newsletter. */
    async updateMe(
      viewer: Viewer,
      { newsletter, ...rest }: { name?: string | null; language?: Language; newsletter?: boolean },
    ): Promise<ProfileJson> {
      // A choice equal to the level's default is stored as no choice (null), so a later upgrade or
      // downgrade follows the new level's default unless the member chose otherwise.
      const level = newsletter === undefined ? undefined : (await store.byId(viewer.id))?.accessLevel;
      const choice = level === undefined ? {} : { newsletter: newsletter === newsletterIncluded(level) ? null : newsletter };
      const updated = await db.transaction(async (tx) => {
        const txStore = createUserStore(tx);
        const before = rest.name === undefined ? undefined : await txStore.byId(viewer.id);
        const after = await txStore.update(viewer.id, { ...rest, ...choice });
        if (before && after && before.name !== after.name)
          await webhooks.emit(tx, 'member.updated', { member: memberData(after), previous: { name: before.name } }, after.id);
        return after;
      });
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
      const afterCommit = await db.transaction(async (tx) => {
        const after = await personalData.erase(tx, { id: viewer.id, email });
        await createUserStore(tx).remove(viewer.id);
        // After the erase, which leaves queued deliveries alone: this one still goes out.
        await webhooks.emit(tx, 'member.deleted', { member: memberData({ id: viewer.id, email, name: profile?.name ?? null }) }, viewer.id);
        await outbox.enqueue(tx, { to: email, template: 'account-deleted', data: { language: profile?.language ?? 'en' } });
        return after;
      });
      // Stored files go once the rows are gone for good; one that cannot be removed now is logged
      // (nothing reaches it any more: its row, the only way to it, is gone) and the deletion stands.
      for (const work of afterCommit)
        await work().catch((err: unknown) => logger.error({ err, userId: viewer.id }, 'removing the files of a deleted account failed'));
    },
  };
}
