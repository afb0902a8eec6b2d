/** The only module that touches contact_messages. */
import type { DbOrTx } from '../platform/db/client.ts';
import { contactMessages } from '../platform/db/schema.ts';

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
  };
}
