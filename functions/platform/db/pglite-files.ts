/**
 * The parts of opening the embedded database that need nothing of the server, begun as early as the
 * caller likes: a fresh folder's copy of the bundle's cluster (on a worker thread), the read of PGlite's
 * WebAssembly and file-system image, and the compilation of that WebAssembly (V8 compiles on threads of
 * its own). The server's entry begins them before its modules load (about half a second of the main
 * thread; functions/server.ts), and openPglite (pglite.ts) then only boots Postgres. A light module:
 * Node built-ins only, so starting it early costs the entry nothing.
 */
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import v8 from 'node:v8';
import { Worker } from 'node:worker_threads';
import { PGLITE_TEMPLATE, PGLITE_TEMPLATE_SIZES } from './database.ts';

/**
 * V8 compiles PGlite's WebAssembly (about 9 MB of Postgres) with its baseline compiler only. Its
 * optimizing tier recompiled the functions a start runs hot on background threads: measured on this
 * project's machine kind, that was about a CPU-second of each start and 40 MiB of idle RSS (135 MiB
 * over a few thousand queries), for no difference in query throughput (a PGlite query's time goes
 * to the protocol and Postgres's executor, not to tight loops). Set as this module loads, before
 * anything compiles; the flag concerns WebAssembly only (JavaScript keeps every tier), and this module
 * loads only when the embedded database is the one configured.
 */
v8.setFlagsFromString('--liftoff-only');

/**
 * A copy of the bundle's cluster in `dataDir`, writable whatever the bundle's own modes (it may be
 * read-only), its files kept shorter in the bundle back to their size (PGLITE_TEMPLATE_SIZES). Made on
 * a worker thread with Node's synchronous copy: Node's promise-based copy of the cluster's files took
 * over a second of a start.
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

/** What an on-disk PGlite needs before it boots, under way (`preparePglite`). */
export interface PgliteFiles {
  dataDir: string;
  /** The folder held no database and got a copy of the bundle's cluster. */
  copied: boolean;
  /** Settles once the folder is ready to boot from (the copy done); rejects when the copy failed. */
  ready: Promise<void>;
  /** PGlite's compiled WebAssembly and its file-system image, as PGlite.create takes them. */
  wasmModule: Promise<WebAssembly.Module>;
  fsBundle: Promise<Blob>;
}

/** `begin()`'s promise, or its throw as a rejection. */
function attempt<T>(begin: () => Promise<T>): Promise<T> {
  try {
    return begin();
  } catch (err) {
    return Promise.reject(err);
  }
}

const pgliteDist = () => path.dirname(createRequire(import.meta.url).resolve('@electric-sql/pglite'));

/**
 * Begins everything an embedded database in `dataDir` (a folder) needs before PGlite boots. With no
 * bundled cluster (run from the sources) or a folder that already holds a database, nothing is copied.
 */
export function preparePglite(dataDir: string): PgliteFiles {
  mkdirSync(dataDir, { recursive: true });
  const copied = !existsSync(path.join(dataDir, 'PG_VERSION')) && existsSync(PGLITE_TEMPLATE);
  const ready = copied ? copyTemplate(dataDir) : Promise.resolve();
  // Read at once (a few milliseconds): a promise-based read would only finish, and the compilation
  // begin, once the thread is free of the module loading this is meant to overlap.
  const dist = pgliteDist();
  const wasmModule = attempt(() => WebAssembly.compile(readFileSync(path.join(dist, 'pglite.wasm'))));
  const fsBundle = attempt(async () => new Blob([readFileSync(path.join(dist, 'pglite.data'))]));
  // Awaited by openPglite: a failure here is reported there, not as an unhandled rejection meanwhile.
  for (const pending of [ready, wasmModule, fsBundle]) pending.catch(() => undefined);
  return { dataDir, copied, ready, wasmModule, fsBundle };
}
