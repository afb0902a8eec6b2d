/**
 * Runs the outbox worker on its own: `npm run worker` (or `node functions/worker.ts`).
 * Useful to scale sending apart from the web servers (set EMAIL_WORKER=false on those).
 * Needs Postgres (DATABASE_URL) when a server runs at the same time, since PGlite is single-process.
 */
import { ConfigError, loadConfig } from './config.ts';
import { DatabaseUnavailableError, openDatabase } from './platform/db/client.ts';
import { createLogger } from './platform/logger.ts';
import { createMailDelivery } from './compose.ts';

async function main() {
  // The worker sends mail and takes no payments: it needs no payment provider.
  const config = loadConfig(process.env, process.cwd(), { role: 'worker' });
  const logger = createLogger(config.logLevel);
  const database = await openDatabase(config.database, logger);
  const running = createMailDelivery(config, database, logger);
  await running.worker.start();
  console.log(`email worker ${running.worker.owner} started (${running.transport.kind})`);

  const stop = async () => {
    await running.stop();
    await database.close();
    process.exit(0);
  };
  process.once('SIGTERM', () => void stop());
  process.once('SIGINT', () => void stop());
}

main().catch((err: unknown) => {
  if (err instanceof ConfigError || err instanceof DatabaseUnavailableError) console.error(`\n${err.message}\n`);
  else console.error(err);
  process.exit(1);
});
