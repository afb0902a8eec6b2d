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

const UNAVAILABLE = { error: { code: 'unavailable', message: 'The service is not available right now. Please try again shortly.' } };

export function createFunctionHandler(env: Record<string, string | undefined> = process.env, cwd = process.cwd()): FunctionHandler {
  let started: Promise<{ app: ReturnType<typeof createApp>; close: () => Promise<void> }> | undefined;
  const start = async () => {
    const config = loadConfig(env, cwd, { role: 'function' });
    const logger = createLogger(config.logLevel);
    const services = await createServices(config, logger, { migrate: 'verify' });
    return { app: createApp({ config, logger, services }), close: () => services.close() };
  };
  const handle = async (request: Request, client?: { ip?: string | undefined }) => {
    started ??= start();
    let app: ReturnType<typeof createApp>;
    try {
      ({ app } = await started);
    } catch (err) {
      started = undefined;
      console.error(err instanceof Error ? err.message : err);
      return Response.json(UNAVAILABLE, { status: 503, headers: { 'Cache-Control': 'no-store', 'Retry-After': '5' } });
    }
    return app.fetch(request, { clientAddress: client?.ip });
  };
  return Object.assign(handle, {
    close: async () => {
      const running = await started?.catch(() => undefined);
      started = undefined;
      await running?.close();
    },
  });
}
