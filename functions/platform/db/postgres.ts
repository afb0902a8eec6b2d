/**
 * Postgres through DATABASE_URL (node-postgres): a pool for queries, and either a connection of its
 * own per NOTIFY channel (reconnecting) or the change log read at requests (serverless), and
 * migrations under an advisory lock. The pool's URL may go through a transaction-mode pooler: it
 * carries no session state (no named prepared statements, no SET, no session lock); the lock and
 * LISTEN, which need a session, take DATABASE_DIRECT_URL when it is set.
 */
import { readFile } from 'node:fs/promises';
import { sql } from 'drizzle-orm';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import pg from 'pg';
import { recentChanges } from '../changes/store.ts';
import { createChangePoller } from '../changes/poller.ts';
import type { DatabaseSettings } from '../config/server.ts';
import type { Logger } from '../logger.ts';
import { runCommitHooks } from './commit-hooks.ts';
import { DatabaseBehindError, DatabaseUnavailableError, MIGRATIONS_DIR, type Database, type Db } from './database.ts';

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

/** Migrates on a session of its own (the direct URL): its advisory lock makes instances starting together migrate one at a time. */
async function migratePostgres(url: string): Promise<void> {
  const session = new pg.Client({ connectionString: url, connectionTimeoutMillis: 5000 });
  await session.connect();
  try {
    await session.query('select pg_advisory_lock($1)', [MIGRATION_LOCK_KEY]);
    await migratePg(drizzlePg({ client: session }), { migrationsFolder: MIGRATIONS_DIR });
  } finally {
    await session.query('select pg_advisory_unlock($1)', [MIGRATION_LOCK_KEY]).catch(() => undefined);
    await session.end().catch(() => undefined);
  }
}

/** Postgres's codes for a missing table and a missing schema: drizzle's record was never made. */
const NEVER_MIGRATED = new Set(['42P01', '3F000']);

/**
 * Whether every migration of this build is applied: drizzle records each by its journal time and
 * applies one only when it is later than the last recorded. Any failure but a missing record (no
 * right to read it, say) is thrown, not taken for "behind".
 */
async function migrated(pool: pg.Pool): Promise<boolean> {
  const journal = JSON.parse(await readFile(`${MIGRATIONS_DIR}/meta/_journal.json`, 'utf8')) as { entries: { when: number }[] };
  const latest = Math.max(0, ...journal.entries.map((entry) => entry.when));
  const applied = await pool.query<{ at: string | null }>('select max(created_at) as at from drizzle.__drizzle_migrations').then(
    (result) => Number(result.rows[0]?.at ?? 0),
    (err: unknown) => {
      if (NEVER_MIGRATED.has((err as { code?: string }).code ?? '')) return 0;
      throw err;
    },
  );
  return applied >= latest;
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

type PostgresSettings = Extract<DatabaseSettings, { kind: 'postgres' }>;

export async function openPostgres(
  { url, poolSize, directUrl = url }: PostgresSettings,
  logger: Logger,
  { migrate, changes }: { migrate: boolean | 'verify'; changes: 'listen' | 'poll' },
): Promise<Database> {
  const pool = new pg.Pool({ connectionString: url, max: poolSize, connectionTimeoutMillis: 5000 });
  pool.on('error', (err) => logger.error({ err }, 'idle database connection failed'));
  try {
    await pool.query('select 1');
  } catch (err) {
    await pool.end().catch(() => undefined);
    throw new DatabaseUnavailableError(`${describeUrl(url)} (DATABASE_URL)`, err);
  }
  if (migrate === 'verify') {
    const upToDate = await migrated(pool).catch(async (err: unknown) => {
      await pool.end().catch(() => undefined);
      throw new DatabaseUnavailableError(`${describeUrl(url)} (DATABASE_URL)`, err);
    });
    if (!upToDate) {
      await pool.end().catch(() => undefined);
      throw new DatabaseBehindError(describeUrl(url));
    }
  }
  if (migrate === true) {
    await migratePostgres(directUrl).catch(async (err: unknown) => {
      await pool.end().catch(() => undefined);
      throw err;
    });
  }
  const db = runCommitHooks(drizzlePg({ client: pool }) as unknown as Db);
  const poller = changes === 'poll' ? createChangePoller((seconds) => recentChanges(db, seconds), logger) : undefined;
  return {
    kind: 'postgres',
    db,
    ping: async () => void (await db.execute(sql`select 1`)),
    ...(poller ? { listen: poller.listen, sync: poller.sync } : { listen: listenPostgres(directUrl, logger) }),
    close: () => pool.end(),
  };
}
