/**
 * Wires the product together and starts listening: services (database migrated, content sources,
 * caches), the site build and the HTTP server. Returns a handle whose `close()` shuts it all down
 * gracefully. Used by the Node entry and by the integration and browser test set-ups.
 */
import { mkdir, rm, writeFile } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import { createApp } from './app.ts';
import type { Config } from './config.ts';
import { lockFile } from './platform/db/lock.ts';
import type { PgliteFiles } from './platform/db/pglite-files.ts';
import { listen } from './platform/http/http-server.ts';
import type { Logger } from './platform/logger.ts';
import { createServices } from './compose.ts';
import { assertBuild } from './platform/site/handler.ts';
import { createSite } from './site.ts';

export interface RunningServer {
  url: string;
  port: number;
  close(): Promise<void>;
}

export interface StartOptions {
  /** Serve the API only, without the site build. */
  withoutSite?: boolean;
  /** A stop asked for during the start: what is open closes and the start rejects with StartAbortedError. */
  signal?: AbortSignal;
  /** The embedded database's files, prepared from the start of the process (server.ts). */
  pgliteFiles?: PgliteFiles;
}

/** The start was stopped (its signal aborted) before the server was ready; nothing is left open. */
export class StartAbortedError extends Error {
  constructor() {
    super('The start was stopped before the server was ready.');
    this.name = 'StartAbortedError';
  }
}

/** Stops accepting connections and lets in-flight requests finish (up to `graceMs`). */
function closeHttp(server: Server, graceMs = 10_000): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(() => {
      server.closeAllConnections();
      resolve();
    }, graceMs);
    timer.unref();
    server.close(() => {
      clearTimeout(timer);
      resolve();
    });
    server.closeIdleConnections();
  });
}

/**
 * Starts everything and only then listens: the first connection accepted (and so the first 200 from
 * /readyz) finds the demo accounts seeded and the background work running. `options.signal` is looked
 * at between the steps, so a stop during the start closes what is open and rejects.
 */
export async function startServer(config: Config, logger: Logger, options: StartOptions = {}): Promise<RunningServer> {
  const { signal } = options;
  const closers: (() => Promise<unknown>)[] = [];
  const closeAll = async (onError: (err: unknown) => void) => {
    for (const close of closers) await close().catch(onError);
  };
  const checkpoint = () => {
    if (signal?.aborted) throw new StartAbortedError();
  };
  try {
    checkpoint();
    if (!options.withoutSite) assertBuild(config.distDir);
    const services = await createServices(config, logger, { pgliteFiles: options.pgliteFiles });
    closers.push(() => services.close());
    checkpoint();
    const site = options.withoutSite ? undefined : await createSite(config, services);
    const app = createApp({ config, logger, services, site });
    checkpoint();
    await services.start();
    checkpoint();
    if (config.database.kind === 'pglite') {
      await mkdir(config.dataDir, { recursive: true });
      await writeFile(lockFile(config), String(process.pid));
      closers.push(() => rm(lockFile(config), { force: true }));
    }
    const server = await listen(app, config);
    // Services close after the HTTP server has drained, so mail queued by the last requests is still sent.
    closers.unshift(() => closeHttp(server));
    checkpoint();

    const port = (server.address() as AddressInfo).port;
    const shownHost = config.host === '0.0.0.0' || config.host === '::' ? 'localhost' : config.host;
    return {
      url: `http://${shownHost}:${port}`,
      port,
      close: () => closeAll((err) => logger.warn({ err }, 'shutdown step failed')),
    };
  } catch (err) {
    await closeAll(() => undefined);
    throw err;
  }
}
