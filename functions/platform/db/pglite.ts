/**
 * The embedded database: PGlite (Postgres compiled to WebAssembly) in a folder under DATA_DIR. A new
 * folder starts from the bundle's migrated cluster when there is one (client.ts, PGLITE_TEMPLATE).
 */
import { existsSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import type { Logger } from '../logger.ts';
import { runCommitHooks } from './commit-hooks.ts';
import { DatabaseUnavailableError, MIGRATIONS_DIR, type Database, type Db } from './database.ts';
import { preparePglite, type PgliteFiles } from './pglite-files.ts';

/**
 * PGlite's settings with a smaller buffer pool: Postgres's default 128 MB is touched as it starts and
 * stays in the server's memory (about 100 MiB of its idle RSS). 16 MB holds an embedded site's hot
 * pages several times over; a bigger database is what DATABASE_URL is for.
 */
export const PGLITE_START_PARAMS = [...PGlite.defaultStartParams, '-c', 'shared_buffers=16MB'];

/**
 * Opens the embedded database in `dataDir`. `files`: its preparation begun earlier (server.ts), else
 * begun here; `template`: a cluster tarball a new database starts from instead (the test suites').
 */
export async function openPglite(
  dataDir: string,
  logger: Logger,
  migrate: boolean,
  template?: Blob,
  files?: PgliteFiles,
): Promise<Database> {
  const onDisk = !dataDir.startsWith('memory://');
  let client: PGlite;
  try {
    if (onDisk && !template) {
      const prepared = files?.dataDir === dataDir ? files : preparePglite(dataDir);
      await prepared.ready;
      client = await PGlite.create(dataDir, {
        startParams: PGLITE_START_PARAMS,
        pgliteWasmModule: await prepared.wasmModule,
        fsBundle: await prepared.fsBundle,
      });
      if (prepared.copied) logger.info({ dataDir }, 'new embedded database copied from the bundled cluster');
    } else {
      if (onDisk) await mkdir(dataDir, { recursive: true });
      const empty = !onDisk || !existsSync(path.join(dataDir, 'PG_VERSION'));
      client = await PGlite.create(dataDir, { startParams: PGLITE_START_PARAMS, ...(empty && template ? { loadDataDir: template } : {}) });
    }
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
