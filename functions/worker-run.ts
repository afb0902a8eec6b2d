/**
 * What `node functions/worker.ts` does once it holds the stop signals: reads the configuration, opens
 * the database and starts the outbox worker; a stop (the `shutdown` signal) at any moment of that
 * closes what is open and exits 0, after it stops the worker gracefully (claimed mail finishes or is
 * released). Configuration and database problems print one clear message and exit 1.
 */
import { ConfigError, loadConfig } from './config.ts';
import { createMailDelivery } from './compose.ts';
import { DatabaseUnavailableError, openDatabase, type Database } from './platform/db/client.ts';
import { createLogger } from './platform/logger.ts';

export async function runWorker(shutdown: AbortSignal): Promise<void> {
  let database: Database | undefined;
  let running: ReturnType<typeof createMailDelivery> | undefined;
  const stop = async () => {
    await running?.stop();
    await database?.close();
    process.exit(0);
  };
  try {
    // The worker sends mail and takes no payments: it needs no payment provider.
    const config = loadConfig(process.env, process.cwd(), { role: 'worker' });
    const logger = createLogger(config.logLevel);
    database = await openDatabase(config.database, logger);
    if (shutdown.aborted) return await stop();
    running = createMailDelivery(config, database, logger);
    await running.worker.start();
    console.log(`email worker ${running.worker.owner} started (${running.transport.kind})`);
  } catch (err) {
    if (err instanceof ConfigError || err instanceof DatabaseUnavailableError) console.error(`\n${err.message}\n`);
    else console.error(err);
    await database?.close().catch(() => undefined);
    process.exit(1);
  }
  if (shutdown.aborted) await stop();
  else shutdown.addEventListener('abort', () => void stop(), { once: true });
}
