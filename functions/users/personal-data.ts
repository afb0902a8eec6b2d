/**
 * A member's export and deletion ask every domain that keeps their data through one hook each,
 * instead of one store reaching into every table. Each domain implements the hook in its own store
 * (`personalData` and `erase` on the store's object), and compose.ts registers the stores once every
 * service is built, in the order the export lists their parts.
 */
import type { DbOrTx } from '../platform/db/client.ts';

/** Whose data is asked for: the member's id, and the address the data kept by address is filed under. */
export interface DataSubject {
  id: string;
  email: string;
}

/** One domain's part of a member's data. */
export interface PersonalDataHook {
  /** What the domain keeps about the member, under the export keys it answers (`{ messages: [...] }`). */
  personalData(subject: DataSubject): Promise<Record<string, unknown>>;
  /**
   * Deletes it; runs inside the account deletion's transaction. What lies outside the database
   * (stored files) is answered as work for after the commit, so a failing store never rolls the
   * deletion back once the sign-in is gone.
   */
  erase(subject: DataSubject): Promise<void | AfterCommit>;
}

/** Work an erase leaves for after the deletion's transaction committed. */
export type AfterCommit = () => Promise<void>;

/** A domain's hook on a database or a transaction: a store factory fits as it is. */
export type PersonalDataSource = (db: DbOrTx) => PersonalDataHook;

export function createPersonalDataRegistry() {
  const sources: PersonalDataSource[] = [];
  return {
    /** Adds a domain; the export lists the parts, and deletion erases them, in registration order. */
    register(...more: PersonalDataSource[]): void {
      sources.push(...more);
    },

    /** Every domain's part of the member's data, merged in registration order. */
    async collect(db: DbOrTx, subject: DataSubject): Promise<Record<string, unknown>> {
      const parts = await Promise.all(sources.map((source) => source(db).personalData(subject)));
      return Object.assign({}, ...parts) as Record<string, unknown>;
    },

    /** Deletes every domain's part, one domain after another, inside `tx`; answers what is left for after the commit. */
    async erase(tx: DbOrTx, subject: DataSubject): Promise<AfterCommit[]> {
      const after: AfterCommit[] = [];
      for (const source of sources) {
        const left = await source(tx).erase(subject);
        if (left) after.push(left);
      }
      return after;
    },
  };
}

export type PersonalDataRegistry = ReturnType<typeof createPersonalDataRegistry>;
