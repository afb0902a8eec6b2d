/**
 * What the database client and its two drivers share: the handle types every store takes, the
 * errors an open can end in, and where the migrations and the PGlite template are. A module of its
 * own so that the drivers (pglite.ts, postgres.ts, loaded only when configured) need not import the
 * client that loads them.
 */
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { appFile } from '../app-files.ts';

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
