/**
 * A member's private feed link as the feeds domain reaches it: the version each link carries (bumping
 * it revokes every earlier link) and what the feed may show the member now. Read from the database,
 * never from the profile cache, so a revoked link stops at once. The SQL stays in store.ts.
 */
import type { DbOrTx } from '../platform/db/client.ts';
import { createUserStore } from './store.ts';

export function memberFeedLinks(db: DbOrTx) {
  const store = createUserStore(db);
  return {
    /** The member's level, role and current link version (`v`); undefined when the member is gone. */
    member: (id: string) => store.feedMember(id),
    /** Bumps the link version and answers the new one (undefined when the member is gone). */
    bump: (id: string) => store.bumpFeedVersion(id),
  };
}

export type MemberFeedLinks = ReturnType<typeof memberFeedLinks>;
