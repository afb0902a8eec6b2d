/**
 * A member's paid access, as the payments domain reaches it: the profile read or locked (billing
 * derives the level under the profile's lock, as an admin's change does), the provider customer
 * claimed once, the level the grants ledger derives set and audited, and the audit entries billing keeps
 * about a checkout session. Payments never imports the users store; the SQL stays in store.ts.
 */
import type { AccessLevel } from '#shared/access.ts';
import type { DbOrTx } from '../platform/db/client.ts';
import { createUserStore } from './store.ts';
import type { ProfileRow } from './tables.ts';

/** An audit log entry: who (`actorId`) did what to whom, with what detail. */
export interface AuditEntry {
  actorId: string;
  action: string;
  targetId: string;
  detail: Record<string, unknown>;
}

/** The member's access on `db` (a transaction, for the locks and writes that must commit together). */
export function memberAccess(db: DbOrTx) {
  const store = createUserStore(db);
  return {
    /** The member's profile. */
    byId: (id: string): Promise<ProfileRow | undefined> => store.byId(id),
    /** The profile, locked until the transaction ends. */
    lock: (id: string): Promise<ProfileRow | undefined> => store.lockById(id),
    /** The profile of a provider customer, locked until the transaction ends. */
    lockByCustomer: (customerId: string): Promise<ProfileRow | undefined> => store.lockByCustomerId(customerId),
    /** Sets the provider customer unless one is set; answers it when this call set it (undefined: another request won). */
    claimCustomer: (id: string, customerId: string): Promise<string | undefined> => store.claimCustomerId(id, customerId),
    /** Records the customer a subscription came with, on a profile that had none. */
    setCustomer: (id: string, customerId: string): Promise<void> => store.setBilling(id, { customerId }),
    /**
     * Writes the level the grants ledger derived (payments/grants/ledger.ts, its only caller) and when
     * it may next change; a moved level is audited as `action`, by `actorId`, with `detail`.
     */
    async setDerivedLevel(
      profile: ProfileRow,
      derived: { level: AccessLevel; until: Date | null },
      cause: { actorId: string; action: string; detail?: Record<string, unknown> },
    ): Promise<void> {
      await store.setBilling(profile.id, { accessLevel: derived.level, accessUntil: derived.until });
      if (derived.level === profile.accessLevel) return;
      await store.audit({
        actorId: cause.actorId,
        action: cause.action,
        targetId: profile.id,
        detail: { from: profile.accessLevel, to: derived.level, ...cause.detail },
      });
    },
    /** Writes an audit entry about the member. */
    audit: (entry: AuditEntry): Promise<void> => store.audit(entry),
    /** The member's audit entries with one of `actions` about one checkout session. */
    auditOfSession: (targetId: string, actions: string[], sessionId: string) => store.auditOfSession(targetId, actions, sessionId),
  };
}

export type MemberAccess = ReturnType<typeof memberAccess>;
