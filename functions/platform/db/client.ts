/**
 * Opens the database: embedded PGlite (a folder under DATA_DIR) by default, or any Postgres through
 * DATABASE_URL. Both run the same migrations; callers see one `Database`. The tables live with their
 * domains (functions/<domain>/tables.ts) and each store imports its own, so the client is given no
 * schema: nothing here uses drizzle's relational `db.query` API, and infrastructure imports no domain.
 * Each driver is loaded only when it is the one configured (pglite.ts, postgres.ts): PGlite's
 * JavaScript is never loaded on Postgres, nor `pg` on PGlite.
 * Its `transaction` runs the caller's commit hook, when one is set (commit-hooks.ts).
 */
import type { ServerSettings } from '../config/server.ts';
import type { Logger } from '../logger.ts';
import type { Database } from './database.ts';
import type { PgliteFiles } from './pglite-files.ts';

export {
  DatabaseBehindError,
  DatabaseUnavailableError,
  MIGRATIONS_DIR,
  PGLITE_TEMPLATE,
  PGLITE_TEMPLATE_SIZES,
  type Database,
  type Db,
  type DbOrTx,
  type Tx,
} from './database.ts';

export interface OpenOptions {
  /**
   * Apply pending migrations (default). Read-only users such as the build pass false; 'verify'
   * applies none and refuses a Postgres database that is behind (DatabaseBehindError).
   */
  migrate?: boolean | 'verify';
  /**
   * A PGlite cluster (a `dumpDataDir` tarball) that a new embedded database starts from instead of
   * an empty one; pending migrations still run on it. The test suites pass one migrated once per
   * run. Ignored for Postgres and for a folder that already holds a database.
   */
  pgliteTemplate?: Blob;
  /** The embedded database's files, prepared from the start of the process (pglite-files.ts, server.ts). */
  pgliteFiles?: PgliteFiles;
  /**
   * How this process hears of other instances' changes: a LISTEN connection (default), or by reading
   * the change log at requests (`sync`), for a serverless instance, which holds no connection open
   * between requests. Postgres only.
   */
  changes?: 'listen' | 'poll';
}

/** Opens the configured database and applies pending migrations. */
export async function openDatabase(
  config: ServerSettings['database'],
  logger: Logger,
  { migrate = true, pgliteTemplate, pgliteFiles, changes = 'listen' }: OpenOptions = {},
): Promise<Database> {
  if (config.kind === 'postgres') {
    const { openPostgres } = await import('./postgres.ts');
    return openPostgres(config, logger, { migrate, changes });
  }
  const { openPglite } = await import('./pglite.ts');
  return openPglite(config.dataDir, logger, migrate !== false, pgliteTemplate, pgliteFiles);
}
