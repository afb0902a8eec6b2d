/**
 * Runs the outbox worker on its own: `npm run worker` (or `node functions/worker.ts`).
 * Useful to scale sending apart from the web servers (set EMAIL_WORKER=false on those).
 * Needs Postgres (DATABASE_URL) when a server runs at the same time, since PGlite is single-process.
 * Its first act is to take SIGTERM and SIGINT, before its modules load, as the server's entry does:
 * a stop asked for at any moment of the start is then graceful (exit 0), not Node's kill (exit 143).
 */
import process from 'node:process';

const shutdown = new AbortController();
process.on('SIGTERM', () => shutdown.abort('SIGTERM'));
process.on('SIGINT', () => shutdown.abort('SIGINT'));

const { runWorker } = await import('./worker-run.ts');
await runWorker(shutdown.signal);
