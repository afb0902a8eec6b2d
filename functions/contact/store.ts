/** The only module that touches contact_messages. */
import { eq } from 'drizzle-orm';
import type { DbOrTx } from '../platform/db/client.ts';
import type { DataSubject } from '../users/index.ts';
import { contactMessages } from './tables.ts';

export function createContactStore(db: DbOrTx) {
  return {
    /** Stores a message; returns its id and when it was received. */
    async insert(row: typeof contactMessages.$inferInsert): Promise<{ id: string; createdAt: Date }> {
      const [created] = await db
        .insert(contactMessages)
        .values(row)
        .returning({ id: contactMessages.id, createdAt: contactMessages.createdAt });
      return created!;
    },

    /** The member's part of their data export: the messages sent from their address. */
    async personalData({ email }: DataSubject) {
      return { messages: await db.select().from(contactMessages).where(eq(contactMessages.email, email)) };
    },

    /** Deletes the messages sent from the member's address (account deletion). */
    async erase({ email }: DataSubject): Promise<void> {
      await db.delete(contactMessages).where(eq(contactMessages.email, email));
    },
  };
}
