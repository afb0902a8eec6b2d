/**
 * What `node functions/server.ts` does once it holds the stop signals: validates configuration,
 * starts the product on one port, prints the URL and shuts down gracefully when `shutdown` fires,
 * during the start (what is open closes, exit 0) or after it. Start-up problems (configuration,
 * unreachable database, invalid content, missing build) print one clear message and exit non-zero.
 */
import { adapterRows, formatAdapterTable } from './adapters.ts';
import { ConfigError, loadConfig, type Config } from './config.ts';
import { ContentFileError } from './content/mdx-source.ts';
import { DatabaseUnavailableError } from './platform/db/client.ts';
import type { PgliteFiles } from './platform/db/pglite-files.ts';
import { createLogger, type Logger } from './platform/logger.ts';
import { StartAbortedError, startServer, type RunningServer } from './main.ts';
import { DEMO_ACCOUNTS, DEMO_PASSWORD } from './users/demo.ts';
import { MissingBuildError } from './platform/site/handler.ts';

const EXPECTED = [ConfigError, DatabaseUnavailableError, ContentFileError, MissingBuildError];

function announce(config: Config, running: RunningServer) {
  console.log(`\n  Beacon Growth is running at ${running.url}\n`);
  console.log(`  Parts in use:\n${formatAdapterTable(adapterRows(config))}\n`);
  if (config.preview) console.log(`  Deploy preview of ${config.preview.branch}: see ${running.url}/preview\n`);
  if (config.auth.seedDemo && !config.auth.hosted) {
    console.log(`  Demo accounts (password "${DEMO_PASSWORD}"):`);
    for (const a of DEMO_ACCOUNTS)
      console.log(`    ${a.email.padEnd(34)} ${a.role === 'member' ? a.accessLevel : `${a.role}, ${a.accessLevel}`}`);
    console.log('');
  }
}

function fail(err: unknown): never {
  const code = (err as NodeJS.ErrnoException).code;
  if (EXPECTED.some((E) => err instanceof E)) console.error(`\n${(err as Error).message}\n`);
  else if (code === 'EADDRINUSE' || code === 'EACCES') {
    const { address, port } = err as NodeJS.ErrnoException & { address?: string; port?: number };
    console.error(`\nCannot listen on ${address ?? ''}:${port ?? ''} (${code}). Set PORT (and HOST) to a free address.\n`);
  } else console.error(err);
  process.exit(1);
}

/** What the entry read and began before this module loaded (functions/server.ts). */
export interface EarlyStart {
  config: Config;
  /** The embedded database's files, prepared while the server's modules loaded. */
  pgliteFiles?: PgliteFiles | undefined;
}

/**
 * Starts the server and stops it gracefully when `shutdown` aborts (exit 0; 1 when the stop fails).
 * `early`: the configuration the entry already read, with what it began; without it (the entry could
 * not read the configuration) it is read here, and what is wrong with it reported.
 */
export async function run(shutdown: AbortSignal, early?: EarlyStart): Promise<void> {
  let config: Config;
  let logger: Logger | undefined;
  let running: RunningServer;
  const pgliteFiles = early?.pgliteFiles;
  try {
    config = early?.config ?? loadConfig();
    logger = createLogger(config.logLevel);
    running = await startServer(config, logger, { signal: shutdown, pgliteFiles });
  } catch (err) {
    if (!(err instanceof StartAbortedError)) fail(err);
    logger?.info({ signal: shutdown.reason }, 'stopped during start-up');
    process.exit(0);
  }
  const adapters = adapterRows(config);
  logger.info({ url: running.url, adapters: Object.fromEntries(adapters.map((a) => [a.part, a.adapter])) }, 'server listening');
  announce(config, running);

  const stop = () => {
    logger.info({ signal: shutdown.reason }, 'shutting down');
    running.close().then(
      () => process.exit(0),
      (err: unknown) => {
        logger.error({ err }, 'shutdown failed');
        process.exit(1);
      },
    );
  };
  if (shutdown.aborted) stop();
  else shutdown.addEventListener('abort', stop, { once: true });
}
