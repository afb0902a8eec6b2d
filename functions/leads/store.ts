/** The only module that touches the leads table. */
import { eq } from 'drizzle-orm';
import type { DbOrTx } from '../platform/db/client.ts';
import type { DataSubject } from '../users/index.ts';
import { leads } from './tables.ts';

export function createLeadStore(db: DbOrTx) {
  return {
    async insert(row: typeof leads.$inferInsert): Promise<void> {
      await db.insert(leads).values(row);
    },

    /** The member's part of their data export: the downloads requested with their address. */
    async personalData({ email }: DataSubject) {
      return { downloads: await db.select().from(leads).where(eq(leads.email, email)) };
    },

    /** Deletes the leads left with the member's address (account deletion). */
    async erase({ email }: DataSubject): Promise<void> {
      await db.delete(leads).where(eq(leads.email, email));
    },
  };
}
