/**
 * The databases every integration suite runs against: embedded PGlite (in memory) and a real
 * Postgres server (a fresh database per call, on the server the test set-up started, used through
 * PgBouncer in transaction mode). Both start from the copy the integration set-up migrated once per
 * run (tests/support/vitest-global.ts).
 */
import { cp, readFile } from 'node:fs/promises';
import { inject } from 'vitest';
import { loadConfig } from '../../functions/config.ts';
import { openDatabase, type Database } from '../../functions/platform/db/client.ts';
import { quietLogger } from './fixtures.ts';
import { createTestDatabase } from './postgres.ts';
import { tempDir } from './temp.ts';

export type TestDatabaseKind = 'pglite' | 'postgres';
/**
 * Both, except where the suites call the app as a serverless function answers (TEST_APP_THROUGH=function,
 * tests/support/app.ts): a function runs on Postgres only.
 */
export const DATABASE_KINDS: TestDatabaseKind[] = process.env.TEST_APP_THROUGH === 'function' ? ['postgres'] : ['pglite', 'postgres'];

/** URL of the test Postgres server: from the runner's environment or the vitest global set-up. */
export function pgAdminUrl(): string {
  const url = process.env.TEST_PG_URL ?? inject('testEnv')?.pgAdminUrl;
  if (!url) throw new Error('No test Postgres: run through `npm test` or the vitest integration project.');
  return url;
}

let template: Promise<Blob | undefined> | undefined;
/** The migrated PGlite cluster of the integration set-up, read once per test file (none elsewhere: initdb and migrations). */
function pgliteTemplate(): Promise<Blob | undefined> {
  const file = inject('testEnv')?.pgliteTemplate;
  return (template ??= file ? readFile(file).then((bytes) => new Blob([bytes])) : Promise.resolve(undefined));
}

/**
 * The same database through the integration set-up's PgBouncer in transaction mode (pgbouncer.ts);
 * outside the integration project, the URL itself.
 */
export function pooledUrl(directUrl: string): string {
  const pooler = inject('testEnv')?.pgPoolerUrl;
  if (!pooler) return directUrl;
  const url = new URL(directUrl);
  url.host = new URL(pooler).host;
  return url.toString();
}

/**
 * A server's database settings for a test database made by createTestDatabase: through the pooler
 * (DATABASE_URL) and direct (DATABASE_DIRECT_URL, for its migrations and LISTEN), as a deployment
 * behind a transaction-mode pooler sets them.
 */
export function pooledEnv(directUrl: string): { DATABASE_URL: string; DATABASE_DIRECT_URL: string } {
  return { DATABASE_URL: pooledUrl(directUrl), DATABASE_DIRECT_URL: directUrl };
}

/** A test database; on Postgres, `url` goes through the transaction-mode pooler and `directUrl` does not (DATABASE_DIRECT_URL). */
export async function openTestDatabase(kind: TestDatabaseKind): Promise<Database & { url?: string; directUrl?: string }> {
  if (kind === 'pglite')
    return openDatabase({ kind: 'pglite', dataDir: 'memory://' }, quietLogger(), { pgliteTemplate: await pgliteTemplate() });
  const directUrl = await createTestDatabase(pgAdminUrl(), 'test', inject('testEnv')?.pgTemplate);
  const url = pooledUrl(directUrl);
  const database = await openDatabase({ kind: 'postgres', url, directUrl, poolSize: 5 }, quietLogger());
  return Object.assign(database, { url, directUrl });
}

/**
 * A server's DATA_DIR whose embedded database is already made: a copy of the integration set-up's
 * migrated cluster (half a server start's CPU: no initdb, no migrations). For servers whose new
 * database is not what they test; the start-up and site suites start theirs from nothing, so that
 * path stays tested. Outside the integration project it is an empty folder (a database from nothing).
 */
export async function migratedDataDir(prefix: string): Promise<string> {
  const dir = await tempDir(prefix);
  const cluster = inject('testEnv')?.pgliteCluster;
  // Where a server on this DATA_DIR keeps its embedded database, as the configuration says.
  const { database } = loadConfig({ DATA_DIR: dir });
  if (cluster && database.kind === 'pglite') await cp(cluster, database.dataDir, { recursive: true });
  return dir;
}
