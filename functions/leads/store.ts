/** The only module that touches the leads table. */
import type { DbOrTx } from '../platform/db/client.ts';
import { leads } from '../platform/db/schema.ts';

export function createLeadStore(db: DbOrTx) {
  return {
    async insert(row: typeof leads.$inferInsert): Promise<void> {
      await db.insert(leads).values(row);
    },
  };
}
