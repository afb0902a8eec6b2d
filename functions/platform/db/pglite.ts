/**
 * The embedded database: PGlite (Postgres compiled to WebAssembly) in a folder under DATA_DIR. A new
 * folder starts from the bundle's migrated cluster when there is one (client.ts, PGLITE_TEMPLATE).
 */
import { existsSync } from 'node:fs';
import { chmod, cp, mkdir, readdir } from 'node:fs/promises';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import type { Logger } from '../logger.ts';
import { runCommitHooks } from './commit-hooks.ts';
import { DatabaseUnavailableError, MIGRATIONS_DIR, PGLITE_TEMPLATE, type Database, type Db } from './client.ts';

/**
 * PGlite's settings with a smaller buffer pool: Postgres's default 128 MB is touched as it starts and
 * stays in the server's memory (about 100 MiB of its idle RSS). 16 MB holds an embedded site's hot
 * pages several times over; a bigger database is what DATABASE_URL is for.
 */
export const PGLITE_START_PARAMS = [...PGlite.defaultStartParams, '-c', 'shared_buffers=16MB'];

/** A copy of the bundle's cluster in `dataDir`, writable whatever the bundle's own modes (it may be read-only). */
async function copyTemplate(dataDir: string): Promise<void> {
  await cp(PGLITE_TEMPLATE, dataDir, { recursive: true });
  await chmod(dataDir, 0o700);
  for (const entry of await readdir(dataDir, { recursive: true, withFileTypes: true }))
    await chmod(path.join(entry.parentPath, entry.name), entry.isDirectory() ? 0o700 : 0o600);
}

export async function openPglite(dataDir: string, logger: Logger, migrate: boolean, template?: Blob): Promise<Database> {
  const onDisk = !dataDir.startsWith('memory://');
  if (onDisk) await mkdir(dataDir, { recursive: true });
  let client: PGlite;
  try {
    const empty = !onDisk || !existsSync(path.join(dataDir, 'PG_VERSION'));
    const fresh = onDisk && empty && !template && existsSync(PGLITE_TEMPLATE);
    if (fresh) await copyTemplate(dataDir);
    client = await PGlite.create(dataDir, { startParams: PGLITE_START_PARAMS, ...(empty && template ? { loadDataDir: template } : {}) });
    if (fresh) logger.info({ dataDir }, 'new embedded database copied from the bundled cluster');
  } catch (err) {
    throw new DatabaseUnavailableError(`${dataDir} (embedded PGlite)`, err);
  }
  const db = runCommitHooks(drizzlePglite({ client }) as unknown as Db);
  if (migrate) await migratePglite(db as never, { migrationsFolder: MIGRATIONS_DIR });
  return {
    kind: 'pglite',
    db,
    ping: async () => void (await client.query('select 1')),
    listen: (channel, onNotify) => client.listen(channel, onNotify).then((stop) => () => stop()),
    close: () => client.close(),
  };
}
