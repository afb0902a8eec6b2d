/** The `app_secrets` table: named secrets the server generates once and every instance shares. */
import { eq } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { appSecrets } from './tables.ts';

export function createSecretStore(db: Db) {
  return {
    /** The secret called `name`, stored as `generate()` first if there is none (the first writer wins). */
    async getOrCreate(name: string, generate: () => string): Promise<string> {
      await db.insert(appSecrets).values({ name, value: generate() }).onConflictDoNothing();
      const [row] = await db.select().from(appSecrets).where(eq(appSecrets.name, name));
      return row!.value;
    },
  };
}

export type SecretStore = ReturnType<typeof createSecretStore>;
