/**
 * `npm run migrate`: applies this build's pending migrations to DATABASE_URL's database (over
 * DATABASE_DIRECT_URL when set: a pooler's transaction mode would lose the migration's lock) and exits. A deployment of serverless functions runs it as a step
 * of its deploy, before the new functions answer: an instance never migrates at its start, it only
 * refuses a database that is behind (functions/serverless.ts). The Node server still migrates itself.
 */
import { ConfigError, loadConfig } from '../functions/config.ts';
import { DatabaseUnavailableError, openDatabase } from '../functions/platform/db/client.ts';
import { createLogger } from '../functions/platform/logger.ts';

try {
  // The embedded database migrates itself at the server's start; a deploy step without a database
  // server would migrate a throwaway one and pass.
  if (!process.env.DATABASE_URL) throw new ConfigError(['DATABASE_URL: npm run migrate applies migrations to a database server; set it.']);
  // Migrating takes no payments: what a deployment needs for that is not asked here.
  const config = loadConfig(process.env, process.cwd(), { role: 'build' });
  const database = await openDatabase(config.database, createLogger(config.logLevel));
  await database.close();
  console.log('Migrations applied (Postgres).');
} catch (err) {
  if (err instanceof ConfigError || err instanceof DatabaseUnavailableError) console.error(`\n${err.message}\n`);
  else console.error(err);
  process.exit(1);
}
