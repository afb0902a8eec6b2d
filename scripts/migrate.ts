/**
 * `npm run migrate`: applies this build's pending migrations to the configured database (DATABASE_URL,
 * or the embedded one in DATA_DIR) and exits. A deployment of serverless functions runs it as a step
 * of its deploy, before the new functions answer: an instance never migrates at its start, it only
 * refuses a database that is behind (functions/serverless.ts). The Node server still migrates itself.
 */
import { ConfigError, loadConfig } from '../functions/config.ts';
import { DatabaseUnavailableError, openDatabase } from '../functions/platform/db/client.ts';
import { createLogger } from '../functions/platform/logger.ts';

try {
  // Migrating takes no payments: what a deployment needs for that is not asked here.
  const config = loadConfig(process.env, process.cwd(), { role: 'build' });
  const database = await openDatabase(config.database, createLogger(config.logLevel));
  await database.close();
  console.log(`Migrations applied (${config.database.kind === 'postgres' ? 'Postgres' : `PGlite in ${config.database.dataDir}`}).`);
} catch (err) {
  if (err instanceof ConfigError || err instanceof DatabaseUnavailableError) console.error(`\n${err.message}\n`);
  else console.error(err);
  process.exit(1);
}
