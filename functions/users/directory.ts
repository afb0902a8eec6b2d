/**
 * The members as staff's dashboard reads them (functions/admin): profile search by address or name,
 * and the audit trail with the actor's and target's current addresses. Other domains reach the
 * profiles through small modules like this one, never through the users store.
 */
import type { DbOrTx } from '../platform/db/client.ts';
import { createUserStore } from './store.ts';

export function memberDirectory(db: DbOrTx) {
  const store = createUserStore(db);
  return {
    /** One page of profiles whose email or name contains `q` (all when empty), newest first, and the total. */
    search: (q: string | undefined, offset: number, limit: number) => store.search(q, offset, limit),
    /** The profiles among `ids` (an event's registrants), missing ones left out. */
    byIds: (ids: string[]) => store.byIds(ids),
    /** Every editor and admin (whom a support request may be assigned to). */
    staff: () => store.staff(),
    /** Newest audit entries (about one member when given), with the actor's and target's current addresses. */
    auditTrail: (targetId: string | undefined, limit: number) => store.auditTrail(targetId, limit),
  };
}

export type MemberDirectory = ReturnType<typeof memberDirectory>;
