/**
 * Node entry: `node functions/server.ts`. Its first act is to take SIGTERM and SIGINT, before the
 * server's modules load (about a second): a stop asked for at any moment of the start is then
 * graceful (what is open closes, exit 0) instead of Node's default kill (exit 143). The rest of the
 * start is `run()` (functions/run.ts).
 */
import process from 'node:process';

const shutdown = new AbortController();
process.on('SIGTERM', () => shutdown.abort('SIGTERM'));
process.on('SIGINT', () => shutdown.abort('SIGINT'));

const { run } = await import('./run.ts');
await run(shutdown.signal);
