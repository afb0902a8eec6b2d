/**
 * The whole app as one fetch handler, for a serverless function instance (netlify/functions/api.ts).
 * Made once per instance, on its first request, from the environment: Postgres only (DATABASE_URL),
 * whose migrations are the deploy's step (`npm run migrate`), so an instance only checks that none is
 * pending; no site pages (the CDN serves the prebuilt ones) and no background work (the long-lived
 * server's timers; scheduled functions are to run it). A start that fails (configuration, database,
 * content) answers 503 with nothing of the cause, logs its one clear message, and is tried again on
 * the next request.
 */
import { createApp } from './app.ts';
import { loadConfig } from './config.ts';
import { createServices } from './compose.ts';
import { createLogger } from './platform/logger.ts';

/** A request and, when the platform reports it, the client's address. `close()`: for tests (an instance is never closed). */
export type FunctionHandler = ((request: Request, client?: { ip?: string | undefined }) => Promise<Response>) & {
  close(): Promise<void>;
};

interface Instance {
  app: ReturnType<typeof createApp>;
  /** Reads the change log if due (platform/changes/poller.ts). */
  sync(): Promise<void>;
  close(): Promise<void>;
}

const UNAVAILABLE = { error: { code: 'unavailable', message: 'The service is not available right now. Please try again shortly.' } };

export function createFunctionHandler(env: Record<string, string | undefined> = process.env, cwd = process.cwd()): FunctionHandler {
  let started: Promise<Instance> | undefined;
  const start = async (): Promise<Instance> => {
    const config = loadConfig(env, cwd, { role: 'function' });
    const logger = createLogger(config.logLevel);
    // Other instances' changes come from the change log, read at requests (no LISTEN between them).
    const services = await createServices(config, logger, { migrate: 'verify', changes: 'poll' });
    return {
      app: createApp({ config, logger, services }),
      sync: async () => services.database.sync?.(),
      close: () => services.close(),
    };
  };
  const handle = async (request: Request, client?: { ip?: string | undefined }) => {
    started ??= start();
    let instance: Instance;
    try {
      instance = await started;
    } catch (err) {
      started = undefined;
      console.error(err instanceof Error ? err.message : err);
      return Response.json(UNAVAILABLE, { status: 503, headers: { 'Cache-Control': 'no-store', 'Retry-After': '5' } });
    }
    // What other instances changed since the last request (read at most once a second; a failed read
    // is logged): a content write or a profile's change is heard before this request is answered.
    await instance.sync();
    return instance.app.fetch(request, { clientAddress: client?.ip });
  };
  return Object.assign(handle, {
    close: async () => {
      const running = await started?.catch(() => undefined);
      started = undefined;
      await running?.close();
    },
  });
}
