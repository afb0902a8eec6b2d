/**
 * Node entry: `node functions/server.ts`. Its first act is to take SIGTERM and SIGINT, before the
 * server's modules load (about half a second): a stop asked for at any moment of the start is then
 * graceful (what is open closes, exit 0) instead of Node's default kill (exit 143). Its second, on
 * the embedded database, is to begin that database's files (a fresh folder's copy of the bundled
 * cluster, PGlite's WebAssembly compiled) on other threads while those modules load
 * (platform/db/pglite-files.ts), and to load ICU's data on another thread (platform/icu-warm.ts).
 * The rest of the start is `run()` (functions/run.ts), which also
 * reports a configuration this entry could not read (it reads it once, here, when it can).
 */
import process from 'node:process';

const shutdown = new AbortController();
process.on('SIGTERM', () => shutdown.abort('SIGTERM'));
process.on('SIGINT', () => shutdown.abort('SIGINT'));

/** The configuration, read once here, and the database's files begun; nothing when it cannot be read. */
async function startEarly() {
  let config;
  try {
    config = (await import('./config.ts')).loadConfig();
  } catch {
    return undefined; // run() reads it again and reports what is wrong
  }
  const { database } = config;
  if (database.kind !== 'pglite' || database.dataDir.startsWith('memory://')) return { config };
  try {
    const { preparePglite } = await import('./platform/db/pglite-files.ts');
    return { config, pgliteFiles: preparePglite(database.dataDir) };
  } catch {
    return { config }; // opening the database begins it again and reports what is wrong
  }
}

(await import('./platform/icu-warm.ts')).warmIcu();
const early = await startEarly();
const { run } = await import('./run.ts');
await run(shutdown.signal, early);
