/**
 * The embedded database: PGlite (Postgres compiled to WebAssembly) in a folder under DATA_DIR. A new
 * folder starts from the bundle's migrated cluster when there is one (client.ts, PGLITE_TEMPLATE).
 */
import { existsSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import v8 from 'node:v8';
import { Worker } from 'node:worker_threads';
import { PGlite } from '@electric-sql/pglite';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import type { Logger } from '../logger.ts';
import { runCommitHooks } from './commit-hooks.ts';
import { DatabaseUnavailableError, MIGRATIONS_DIR, PGLITE_TEMPLATE, PGLITE_TEMPLATE_SIZES, type Database, type Db } from './client.ts';

/**
 * V8 compiles PGlite's WebAssembly (about 9 MB of Postgres) with its baseline compiler only. Its
 * optimizing tier recompiled the functions a start runs hot on background threads: measured on this
 * project's machine kind, that was about a CPU-second of each start and 40 MiB of idle RSS (135 MiB
 * over a few thousand queries), for no difference in query throughput (a PGlite query's time goes
 * to the protocol and Postgres's executor, not to tight loops). Set as this module loads, before
 * PGlite compiles; the flag concerns WebAssembly only (JavaScript keeps every tier), and this module
 * loads only when the embedded database is the one configured.
 */
v8.setFlagsFromString('--liftoff-only');

/**
 * PGlite's settings with a smaller buffer pool: Postgres's default 128 MB is touched as it starts and
 * stays in the server's memory (about 100 MiB of its idle RSS). 16 MB holds an embedded site's hot
 * pages several times over; a bigger database is what DATABASE_URL is for.
 */
export const PGLITE_START_PARAMS = [...PGlite.defaultStartParams, '-c', 'shared_buffers=16MB'];

/**
 * A copy of the bundle's cluster in `dataDir`, writable whatever the bundle's own modes (it may be
 * read-only), its files kept shorter in the bundle back to their size (PGLITE_TEMPLATE_SIZES). Made on
 * a worker thread with Node's synchronous copy: the server's thread loads the content meanwhile
 * (compose.ts), and Node's promise-based copy of the cluster's files took over a second of a start.
 */
const COPY_TEMPLATE = `
const { cpSync, chmodSync, existsSync, readdirSync, readFileSync, truncateSync } = require('node:fs');
const path = require('node:path');
const { from, sizes, to } = require('node:worker_threads').workerData;
cpSync(from, to, { recursive: true });
if (existsSync(sizes))
  for (const [file, size] of Object.entries(JSON.parse(readFileSync(sizes, 'utf8')))) truncateSync(path.join(to, file), size);
chmodSync(to, 0o700);
for (const entry of readdirSync(to, { recursive: true, withFileTypes: true }))
  chmodSync(path.join(entry.parentPath, entry.name), entry.isDirectory() ? 0o700 : 0o600);
`;

function copyTemplate(dataDir: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(COPY_TEMPLATE, {
      eval: true,
      workerData: { from: PGLITE_TEMPLATE, sizes: PGLITE_TEMPLATE_SIZES, to: dataDir },
    });
    worker.once('error', reject);
    worker.once('exit', (code) => (code === 0 ? resolve() : reject(new Error(`copying the bundled cluster stopped with ${code}`))));
  });
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
