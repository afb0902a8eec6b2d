/**
 * Opens the database: embedded PGlite (a folder under DATA_DIR) by default, or any Postgres through
 * DATABASE_URL. Both run the same migrations; callers see one `Database`. The tables live with their
 * domains (functions/<domain>/tables.ts) and each store imports its own, so the client is given no
 * schema: nothing here uses drizzle's relational `db.query` API, and infrastructure imports no domain.
 * Each driver is loaded only when it is the one configured (pglite.ts, postgres.ts): PGlite's
 * JavaScript is never loaded on Postgres, nor `pg` on PGlite.
 * Its `transaction` runs the caller's commit hook, when one is set (commit-hooks.ts).
 */
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { appFile } from '../app-files.ts';
import type { ServerSettings } from '../config/server.ts';
import type { Logger } from '../logger.ts';
import type { PgliteFiles } from './pglite-files.ts';

export type Db = PgDatabase<PgQueryResultHKT>;
/** A transaction handle; services accept it so that related writes commit together. */
export type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];
export type DbOrTx = Db | Tx;

export interface Database {
  kind: 'pglite' | 'postgres';
  db: Db;
  /** Cheap round trip used by the readiness check. */
  ping(): Promise<void>;
  /**
   * Subscribes to a channel's announced changes (platform/changes): by LISTEN, or from the change log
   * when opened with `changes: 'poll'`; `onReset` runs when changes may have been missed.
   */
  listen(channel: string, onNotify: (payload: string) => void, onReset?: () => void): Promise<() => Promise<void>>;
  /** With `changes: 'poll'`: reads the change log if due (a serverless instance, at each request). */
  sync?(): Promise<void>;
  close(): Promise<void>;
}

export class DatabaseUnavailableError extends Error {
  constructor(where: string, cause: unknown) {
    super(`Cannot reach the database at ${where}: ${cause instanceof Error ? cause.message : String(cause)}`);
    this.name = 'DatabaseUnavailableError';
  }
}

/**
 * The database has not had this build's migrations, and this process may not apply them (a
 * serverless function: migrations are the deploy's step, `npm run migrate`).
 */
export class DatabaseBehindError extends Error {
  constructor(where: string) {
    super(`The database at ${where} is behind this build's migrations: run \`npm run migrate\` (the deploy's migration step) first.`);
    this.name = 'DatabaseBehindError';
  }
}

export const MIGRATIONS_DIR = appFile('functions/platform/db/migrations');
/**
 * A PGlite cluster as initdb leaves it with every migration applied, a folder made by `npm run
 * bundle` with the bundle's own PGlite and migrations (absent in a checkout). A fresh DATA_DIR is a
 * copy of it: no initdb, no migration left to run, and nothing unpacked inside PGlite (its unpacking
 * took a second and left 100 MiB in the process).
 */
export const PGLITE_TEMPLATE = appFile('functions/platform/db/pglite-template');
/**
 * Files of PGLITE_TEMPLATE kept shorter than they are, by their path in it and true size: the WAL
 * segment is 16 MiB of which the template uses a few hundred bytes, so the bundle keeps those and a
 * copy extends the file with zeros (what Postgres would read there).
 */
export const PGLITE_TEMPLATE_SIZES = appFile('functions/platform/db/pglite-template-sizes.json');

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
