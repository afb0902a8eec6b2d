/**
 * Node entry: `node functions/server.ts`. Its first act is to take SIGTERM and SIGINT, before the
 * server's modules load (about half a second): a stop asked for at any moment of the start is then
 * graceful (what is open closes, exit 0) instead of Node's default kill (exit 143). Its second, on
 * the embedded database, is to begin that database's files (a fresh folder's copy of the bundled
 * cluster, PGlite's WebAssembly compiled) on other threads while those modules load
 * (platform/db/pglite-files.ts), and to load ICU's data on another thread (platform/icu-warm.ts).
 * The rest of the start is `run()` (functions/run.ts), which also
 * reports a configuration this entry could not read.
 */
import process from 'node:process';

const shutdown = new AbortController();
process.on('SIGTERM', () => shutdown.abort('SIGTERM'));
process.on('SIGINT', () => shutdown.abort('SIGINT'));

async function prepareDatabaseFiles() {
  try {
    const { loadConfig } = await import('./config.ts');
    const { database } = loadConfig();
    if (database.kind !== 'pglite' || database.dataDir.startsWith('memory://')) return undefined;
    const { preparePglite } = await import('./platform/db/pglite-files.ts');
    return preparePglite(database.dataDir);
  } catch {
    return undefined; // run() reads the configuration again and reports what is wrong
  }
}

(await import('./platform/icu-warm.ts')).warmIcu();
const pgliteFiles = await prepareDatabaseFiles();
const { run } = await import('./run.ts');
await run(shutdown.signal, pgliteFiles);
