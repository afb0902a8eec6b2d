/**
 * Profiles as a members import (functions/members/csv) writes them: found by address, made in bulk
 * with what the file says (name, newsletter choice, where the member came from, when they joined),
 * and completed where they exist (a field the profile lacks is filled; nothing set is overwritten but
 * the name and the newsletter choice the file gives). The SQL stays in store.ts.
 */
import type { DbOrTx } from '../platform/db/client.ts';
import { createUserStore } from './store.ts';
import type { NewMember } from './store.ts';
export type { NewMemberRow } from './store.ts';
import type { ProfileRow } from './tables.ts';

/** What a file's row gives a profile (the store's new member without its account id). */
export type ImportedProfile = Omit<NewMember, 'id'>;

export function memberImports(db: DbOrTx) {
  const store = createUserStore(db);
  return {
    /** The profiles of these lower-case addresses, by address. */
    async byEmails(emails: string[]): Promise<Map<string, ProfileRow>> {
      return new Map((await store.profilesByEmails(emails)).map((p) => [p.email, p]));
    },

    /** Which member holds each of these payment customers, by customer. */
    async customerHolders(customerIds: string[]): Promise<Map<string, string>> {
      return new Map((await store.customerHolders(customerIds)).map((r) => [r.customerId!, r.id]));
    },

    /** New profiles for new accounts (`id` the account's), free members until a comp says otherwise. */
    create: (rows: (ImportedProfile & { id: string })[]) => store.insertMany(rows),

    /** Completes an existing profile with a row: its name and newsletter choice when given, the rest where empty. */
    async complete(profile: ProfileRow, row: ImportedProfile): Promise<void> {
      const patch: Partial<ProfileRow> = {};
      if (row.name && row.name !== profile.name) patch.name = row.name;
      // A member's own "no" stands: a file never turns the newsletter back on for them.
      if (row.newsletter !== null && row.newsletter !== profile.newsletter && profile.newsletter !== false)
        patch.newsletter = row.newsletter;
      if (row.customerId && !profile.customerId) patch.customerId = row.customerId;
      if (!profile.signupReferrer && !profile.signupUtmSource && !profile.signupUtmMedium && !profile.signupUtmCampaign) {
        for (const key of ['signupReferrer', 'signupUtmSource', 'signupUtmMedium', 'signupUtmCampaign'] as const)
          if (row[key]) patch[key] = row[key];
      }
      if (Object.keys(patch).length) await store.update(profile.id, patch);
    },
  };
}

export type MemberImports = ReturnType<typeof memberImports>;
