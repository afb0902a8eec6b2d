/**
 * Wires the product together and starts listening: services (database migrated, content sources,
 * caches), the site build and the HTTP server. Returns a handle whose `close()` shuts it all down
 * gracefully. Used by the Node entry and by the integration and browser test set-ups.
 */
import { mkdir, rm, writeFile } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { serve } from '@hono/node-server';
import { createApp, nodeFetch } from './app.ts';
import type { Config } from './config.ts';
import { lockFile } from './db/lock.ts';
import { createConfiguredWorker } from './email/setup.ts';
import type { Logger } from './lib/logger.ts';
import { securityHeaders } from './lib/security-headers.ts';
import { createServices } from './services.ts';
import { assertBuild, createSiteHandler } from './site/handler.ts';

export interface RunningServer {
  url: string;
  port: number;
  close(): Promise<void>;
}

export interface StartOptions {
  /** Serve the API only, without the site build. */
  withoutSite?: boolean;
}

/** Stops accepting connections and lets in-flight requests finish (up to `graceMs`). */
function closeHttp(server: ReturnType<typeof serve>, graceMs = 10_000): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(() => {
      if ('closeAllConnections' in server) server.closeAllConnections();
      resolve();
    }, graceMs);
    timer.unref();
    server.close(() => {
      clearTimeout(timer);
      resolve();
    });
    if ('closeIdleConnections' in server) server.closeIdleConnections();
  });
}

export async function startServer(config: Config, logger: Logger, options: StartOptions = {}): Promise<RunningServer> {
  if (!options.withoutSite) assertBuild(config.distDir);
  const services = await createServices(config, logger);
  const closers: (() => Promise<unknown>)[] = [() => services.close()];
  try {
    const site = options.withoutSite
      ? undefined
      : await createSiteHandler({
          distDir: config.distDir,
          locals: { content: services.contentCache.reader },
          headers: securityHeaders({ https: config.siteUrl.startsWith('https://') }),
          logger,
        });
    const app = createApp({ config, logger, services, site });

    const server = serve({ fetch: nodeFetch(app), port: config.port, hostname: config.host });
    await new Promise<void>((resolve, reject) => {
      server.once('listening', resolve);
      server.once('error', reject);
    });
    closers.unshift(() => closeHttp(server));
    if (config.email.worker) {
      const mail = createConfiguredWorker(config, services.database, logger);
      await mail.worker.start();
      // After the HTTP server has drained, so mail queued by the last requests is still sent.
      closers.splice(1, 0, () => mail.stop());
    }
    const prune = setInterval(() => void services.limiter.prune().catch(() => undefined), 3_600_000);
    prune.unref();
    closers.unshift(async () => clearInterval(prune));
    if (config.database.kind === 'pglite') {
      await mkdir(config.dataDir, { recursive: true });
      await writeFile(lockFile(config), String(process.pid));
      closers.push(() => rm(lockFile(config), { force: true }));
    }

    const port = (server.address() as AddressInfo).port;
    const shownHost = config.host === '0.0.0.0' || config.host === '::' ? 'localhost' : config.host;
    return {
      url: `http://${shownHost}:${port}`,
      port,
      async close() {
        for (const close of closers) await close().catch((err: unknown) => logger.warn({ err }, 'shutdown step failed'));
      },
    };
  } catch (err) {
    for (const close of closers) await close().catch(() => undefined);
    throw err;
  }
}
