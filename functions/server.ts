/**
 * Node entry: `node functions/server.ts`. Validates configuration, starts the product on one port,
 * prints the URL and shuts down gracefully on SIGTERM/SIGINT. Start-up problems (configuration,
 * unreachable database, invalid content, missing build) print one clear message and exit non-zero.
 */
import { adapterRows, formatAdapterTable } from './adapters.ts';
import { ConfigError, loadConfig } from './config.ts';
import { ContentFileError } from './content/mdx-source.ts';
import { DatabaseUnavailableError } from './platform/db/client.ts';
import { createLogger } from './platform/logger.ts';
import { startServer } from './main.ts';
import { DEMO_ACCOUNTS, DEMO_PASSWORD } from './users/demo.ts';
import { MissingBuildError } from './platform/site/handler.ts';

const EXPECTED = [ConfigError, DatabaseUnavailableError, ContentFileError, MissingBuildError];

async function main() {
  const config = loadConfig();
  const logger = createLogger(config.logLevel);
  const running = await startServer(config, logger);
  const adapters = adapterRows(config);
  logger.info({ url: running.url, adapters: Object.fromEntries(adapters.map((a) => [a.part, a.adapter])) }, 'server listening');
  console.log(`\n  Beacon Growth is running at ${running.url}\n`);
  console.log(`  Parts in use:\n${formatAdapterTable(adapters)}\n`);
  if (config.preview) console.log(`  Deploy preview of ${config.preview.branch}: see ${running.url}/preview\n`);
  if (config.auth.seedDemo && !config.auth.hosted) {
    console.log(`  Demo accounts (password "${DEMO_PASSWORD}"):`);
    for (const a of DEMO_ACCOUNTS)
      console.log(`    ${a.email.padEnd(34)} ${a.role === 'member' ? a.accessLevel : `${a.role}, ${a.accessLevel}`}`);
    console.log('');
  }

  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, 'shutting down');
    running.close().then(
      () => process.exit(0),
      (err: unknown) => {
        logger.error({ err }, 'shutdown failed');
        process.exit(1);
      },
    );
  };
  process.on('SIGTERM', () => stop('SIGTERM'));
  process.on('SIGINT', () => stop('SIGINT'));
}

main().catch((err: unknown) => {
  const code = (err as NodeJS.ErrnoException).code;
  if (EXPECTED.some((E) => err instanceof E)) console.error(`\n${(err as Error).message}\n`);
  else if (code === 'EADDRINUSE' || code === 'EACCES') {
    const { address, port } = err as NodeJS.ErrnoException & { address?: string; port?: number };
    console.error(`\nCannot listen on ${address ?? ''}:${port ?? ''} (${code}). Set PORT (and HOST) to a free address.\n`);
  } else console.error(err);
  process.exit(1);
});
