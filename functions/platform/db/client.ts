/**
 * Opens the database: embedded PGlite (a folder under DATA_DIR) by default, or any Postgres through
 * DATABASE_URL. Both run the same migrations; callers see one `Database`. The tables live with their
 * domains (functions/<domain>/tables.ts) and each store imports its own, so the client is given no
 * schema: nothing here uses drizzle's relational `db.query` API, and infrastructure imports no domain.
 * Its `transaction` runs the caller's commit hook, when one is set (commit-hooks.ts).
 */
import { existsSync } from 'node:fs';
import { mkdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { PGlite } from '@electric-sql/pglite';
import { sql } from 'drizzle-orm';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import pg from 'pg';
import type { ServerSettings } from '../config/server.ts';
import type { Logger } from '../logger.ts';
import { runCommitHooks } from './commit-hooks.ts';

export type Db = PgDatabase<PgQueryResultHKT>;
/** A transaction handle; services accept it so that related writes commit together. */
export type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];
export type DbOrTx = Db | Tx;

export interface Database {
  kind: 'pglite' | 'postgres';
  db: Db;
  /** Cheap round trip used by the readiness check. */
  ping(): Promise<void>;
  /** Subscribes to NOTIFY on a channel; `onReset` runs when notifications may have been missed. */
  listen(channel: string, onNotify: (payload: string) => void, onReset?: () => void): Promise<() => Promise<void>>;
  close(): Promise<void>;
}

export class DatabaseUnavailableError extends Error {
  constructor(where: string, cause: unknown) {
    super(`Cannot reach the database at ${where}: ${cause instanceof Error ? cause.message : String(cause)}`);
    this.name = 'DatabaseUnavailableError';
  }
}

const MIGRATIONS_DIR = fileURLToPath(new URL('./migrations', import.meta.url));
/**
 * An empty PGlite cluster as initdb leaves it, made by `npm run bundle` with the bundle's own PGlite
 * (absent in a checkout). A fresh DATA_DIR starts from it: unpacking takes a third of initdb's time.
 */
export const PGLITE_TEMPLATE = fileURLToPath(new URL('./pglite-initdb.tar.gz', import.meta.url));
const MIGRATION_LOCK_KEY = 7_311_024;

/** Postgres URL without its password, for messages. */
function describeUrl(url: string): string {
  try {
    const u = new URL(url);
    if (u.password) u.password = '***';
    return u.toString();
  } catch {
    return 'DATABASE_URL (unparseable)';
  }
}

async function openPglite(dataDir: string, logger: Logger, migrate: boolean, template?: Blob): Promise<Database> {
  const onDisk = !dataDir.startsWith('memory://');
  if (onDisk) await mkdir(dataDir, { recursive: true });
  let client: PGlite;
  try {
    const empty = !onDisk || !existsSync(path.join(dataDir, 'PG_VERSION'));
    const fresh = onDisk && empty && !template && existsSync(PGLITE_TEMPLATE);
    const start = empty && template ? template : fresh ? new Blob([await readFile(PGLITE_TEMPLATE)]) : undefined;
    client = await PGlite.create(dataDir, start ? { loadDataDir: start } : {});
    if (fresh) logger.info({ dataDir }, 'new embedded database unpacked from the bundled empty cluster');
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

async function migratePostgres(pool: pg.Pool): Promise<void> {
  // One session holds an advisory lock so that instances starting together migrate one at a time.
  const session = await pool.connect();
  try {
    await session.query('select pg_advisory_lock($1)', [MIGRATION_LOCK_KEY]);
    await migratePg(drizzlePg({ client: session }), { migrationsFolder: MIGRATIONS_DIR });
  } finally {
    await session.query('select pg_advisory_unlock($1)', [MIGRATION_LOCK_KEY]).catch(() => undefined);
    session.release();
  }
}

function listenPostgres(url: string, logger: Logger) {
  return async (channel: string, onNotify: (payload: string) => void, onReset?: () => void) => {
    let client: pg.Client | undefined;
    let stopped = false;
    let delay = 500;
    const connect = async (): Promise<void> => {
      const c = new pg.Client({ connectionString: url });
      c.on('notification', (msg) => msg.channel === channel && onNotify(msg.payload ?? ''));
      c.on('error', (err) => {
        logger.warn({ err, channel }, 'database listener lost its connection; reconnecting');
        c.end().catch(() => undefined);
        if (!stopped) setTimeout(() => void reconnect(), delay);
      });
      await c.connect();
      await c.query(`listen "${channel.replace(/"/g, '')}"`);
      client = c;
      delay = 500;
    };
    const reconnect = async () => {
      try {
        await connect();
        onReset?.();
      } catch {
        delay = Math.min(delay * 2, 30_000);
        if (!stopped) setTimeout(() => void reconnect(), delay);
      }
    };
    await connect();
    return async () => {
      stopped = true;
      await client?.end().catch(() => undefined);
    };
  };
}

async function openPostgres(url: string, poolSize: number, logger: Logger, migrate: boolean): Promise<Database> {
  const pool = new pg.Pool({ connectionString: url, max: poolSize, connectionTimeoutMillis: 5000 });
  pool.on('error', (err) => logger.error({ err }, 'idle database connection failed'));
  try {
    await pool.query('select 1');
  } catch (err) {
    await pool.end().catch(() => undefined);
    throw new DatabaseUnavailableError(`${describeUrl(url)} (DATABASE_URL)`, err);
  }
  if (migrate) await migratePostgres(pool);
  const db = runCommitHooks(drizzlePg({ client: pool }) as unknown as Db);
  return {
    kind: 'postgres',
    db,
    ping: async () => void (await db.execute(sql`select 1`)),
    listen: listenPostgres(url, logger),
    close: () => pool.end(),
  };
}

export interface OpenOptions {
  /** Apply pending migrations (default). Read-only users such as the build pass false. */
  migrate?: boolean;
  /**
   * A PGlite cluster (a `dumpDataDir` tarball) that a new embedded database starts from instead of
   * an empty one; pending migrations still run on it. The test suites pass one migrated once per
   * run. Ignored for Postgres and for a folder that already holds a database.
   */
  pgliteTemplate?: Blob;
}

/** Opens the configured database and applies pending migrations. */
export async function openDatabase(
  config: ServerSettings['database'],
  logger: Logger,
  { migrate = true, pgliteTemplate }: OpenOptions = {},
): Promise<Database> {
  return config.kind === 'postgres'
    ? openPostgres(config.url, config.poolSize, logger, migrate)
    : openPglite(config.dataDir, logger, migrate, pgliteTemplate);
}
