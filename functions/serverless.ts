/**
 * The app for serverless function instances: the whole API as one fetch handler
 * (netlify/functions/api.ts) and the background work as a scheduled round
 * (netlify/functions/background.ts). Each is made once per instance, on its first call, from the
 * environment: Postgres only (DATABASE_URL), whose migrations are the deploy's step (`npm run
 * migrate`), so an instance only checks that none is pending; other instances' changes come from the
 * change log, read before each request (platform/changes); the pages no CDN file answers through the
 * Node server's own site handler (made on the first page asked for); no timers (nothing runs between calls). A start that fails (configuration,
 * database, content) answers 503 with nothing of the cause, logs its one clear message, and is tried
 * again on the next call.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { getRequestListener } from '@hono/node-server';
import { createApp } from './app.ts';
import { drainOutbox, runBackgroundRound, type RoundReport } from './background.ts';
import { loadConfig } from './config.ts';
import { createServices, type Services } from './compose.ts';
import { targetOf } from './platform/http/answer-lane.ts';
import type { AppContext } from './platform/http/context.ts';
import { nodeFetch } from './platform/http/node-answers.ts';
import { injectRequest } from './platform/http/node-inject.ts';
import { functionEnvironment } from './platform/deploy/netlify.ts';
import { createLogger, type Logger } from './platform/logger.ts';
import { createSite } from './site.ts';

/**
 * The largest request body a function is given (Netlify's, as AWS Lambda's, is 6 MB): a larger one
 * is refused here with the way round it, files straight to the bucket, never with a platform page.
 */
export const FUNCTION_BODY_LIMIT = 6 * 1024 * 1024;
/** How long the outbox is drained after a write (the platform keeps the instance for `waitUntil`). */
const DRAIN_AFTER_WRITE_MS = 10_000;
/** A scheduled round's time: Netlify stops a scheduled function at 30 s. */
const ROUND_BUDGET_MS = 20_000;

/** What the platform tells a call: the client's address, and how to keep work going after the answer. */
export interface PlatformContext {
  ip?: string | undefined;
  waitUntil?: ((promise: Promise<unknown>) => void) | undefined;
}

/** `close()`: for tests (an instance is never closed). */
export type FunctionHandler = ((request: Request, platform?: PlatformContext) => Promise<Response>) & { close(): Promise<void> };
export type ScheduledHandler = (() => Promise<RoundReport | undefined>) & { close(): Promise<void> };

interface Instance {
  app: ReturnType<typeof createApp>;
  /** One request answered (answerAsFunction). */
  answer: (request: Request, ip?: string) => Promise<Response>;
  /** With the site's build beside the function: pages, answered by the Node listener through an injected request. */
  pages?: Parameters<typeof injectRequest>[0] | undefined;
  services: Services;
  logger: Logger;
}

/** Paths the API answers: what is not one of them, read with GET or HEAD, is a page. */
const API_PATHS = /^\/(api|auth|openai|feeds|uploads)\/|^\/(healthz|readyz)(\?|$)|^\/events\/[^/?]+\.ics(\?|$)/;
const isPage = (request: Request) => (request.method === 'GET' || request.method === 'HEAD') && !API_PATHS.test(targetOf(request.url));

const UNAVAILABLE = { error: { code: 'unavailable', message: 'The service is not available right now. Please try again shortly.' } };
const TOO_LARGE = {
  error: {
    code: 'payload_too_large',
    message: `The request body is larger than the ${FUNCTION_BODY_LIMIT / 1024 / 1024} MB this service accepts. Files go straight to storage: POST /api/upload/presign gives the address to send one to.`,
  },
};
const WRITES = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/** One instance's app and services, made on first use; a failed start is forgotten, so the next call tries again. */
function lazyInstance(env: Record<string, string | undefined>, cwd: string) {
  let started: Promise<Instance> | undefined;
  const start = async (): Promise<Instance> => {
    const config = loadConfig(env, cwd, { role: 'function' });
    const logger = createLogger(config.logLevel);
    const services = await createServices(config, logger, { migrate: 'verify', changes: 'poll' });
    await services.connectEvents();
    // A preview's demo accounts (the server seeds them as it starts its timers, which a function has none of).
    await services.seedDemo();
    // The pages no CDN file answers (rendered per request, or kept snapshots), as the Node server serves them.
    // Made on the first page asked for (an instance answering the API only never reads the build).
    let handler: ReturnType<typeof createSite> | undefined;
    const site = existsSync(path.join(config.distDir, 'server', 'entry.mjs'))
      ? async (c: AppContext) => {
          handler ??= createSite(config, services).catch((err: unknown) => {
            handler = undefined;
            throw err;
          });
          return (await handler)(c);
        }
      : undefined;
    const app = createApp({ config, logger, services, site });
    // Global Request and Response stay the platform's (Hono's adapter would put its own in place).
    const pages = site ? getRequestListener(nodeFetch(app), { overrideGlobalObjects: false }) : undefined;
    return { app, pages, services, logger, answer: answerAsFunction({ app, pages, services }) };
  };
  return {
    async get(): Promise<Instance | undefined> {
      try {
        return await (started ??= start());
      } catch (err) {
        started = undefined;
        console.error(err instanceof Error ? err.message : err);
        return undefined;
      }
    },
    async close(): Promise<void> {
      const running = await started?.catch(() => undefined);
      started = undefined;
      await running?.services.close();
    },
  };
}

/**
 * The request as the app may read it, or the 413 answer: a body over the limit is refused by its
 * declared length, or, sent without one, once that much of it has arrived.
 */
async function withinLimit(request: Request): Promise<Request | Response> {
  // Reads have no body (and asking a lazy Request for one would build it).
  if (request.method === 'GET' || request.method === 'HEAD') return request;
  const tooLarge = () => Response.json(TOO_LARGE, { status: 413, headers: { 'Cache-Control': 'no-store', Connection: 'close' } });
  const declared = request.headers.get('content-length');
  if (declared !== null) return Number(declared) > FUNCTION_BODY_LIMIT ? tooLarge() : request;
  if (!request.body) return request;
  const chunks: Uint8Array[] = [];
  let size = 0;
  for await (const chunk of request.body) {
    size += chunk.byteLength;
    if (size > FUNCTION_BODY_LIMIT) return tooLarge();
    chunks.push(chunk);
  }
  return new Request(request.url, {
    method: request.method,
    headers: request.headers,
    body: Buffer.concat(chunks),
    signal: request.signal,
  });
}

/**
 * A Netlify function's environment: what was set on purpose, over Netlify's own variables and the
 * deploy record its build wrote (platform/deploy/netlify.ts: the site's address, a preview's branch).
 */
export function netlifyEnvironment(env: Record<string, string | undefined> = process.env, cwd = process.cwd()) {
  return functionEnvironment(env, path.resolve(cwd, env.DIST_DIR ?? 'dist'));
}

/**
 * How a function instance answers one request once it has started: a body over the platform's limit
 * is refused; other instances' changes are heard; a page goes to the site handler, the busiest answers
 * come from memory (the answer lane), and the app answers the rest. The suites' role tables call the
 * app this way too (tests/support/app.ts, the `integration-function` project).
 */
export function answerAsFunction({ app, services, pages }: Pick<Instance, 'app' | 'services' | 'pages'>) {
  return async (incoming: Request, ip?: string): Promise<Response> => {
    const request = await withinLimit(incoming);
    if (request instanceof Response) return request;
    // What other instances changed since the last request (read at most once a second; a failed read
    // is logged): a content write or a profile's change is heard before this request is answered.
    await services.database.sync?.();
    if (pages && isPage(request)) return injectRequest(pages, request, ip);
    // The busiest answers (public lists and details, a member's loaded gated body) straight from memory.
    return app.answerLane.answer(request) ?? (await app.fetch(request, { clientAddress: ip }));
  };
}

export function createFunctionHandler(env: Record<string, string | undefined> = process.env, cwd = process.cwd()): FunctionHandler {
  const instance = lazyInstance(env, cwd);
  // Drains under way when the platform gives no waitUntil (tests): close() waits for them.
  const later = new Set<Promise<unknown>>();
  const handle = async (request: Request, platform: PlatformContext = {}) => {
    const running = await instance.get();
    if (!running) return Response.json(UNAVAILABLE, { status: 503, headers: { 'Cache-Control': 'no-store', 'Retry-After': '5' } });
    const { services, logger } = running;
    const response = await running.answer(request, platform.ip);
    if (WRITES.has(request.method) && response.status !== 413) {
      // Mail this write queued (a confirmation, a reset link, a receipt) leaves now, not at the next round.
      const drain = drainOutbox(services, Date.now() + DRAIN_AFTER_WRITE_MS).catch((err: unknown) =>
        logger.warn({ err }, 'sending queued mail after a write failed; the next round sends it'),
      );
      if (platform.waitUntil) platform.waitUntil(drain);
      else {
        const tracked: Promise<unknown> = drain.finally(() => later.delete(tracked));
        later.add(tracked);
      }
    }
    return response;
  };
  return Object.assign(handle, {
    close: async () => {
      await Promise.all(later);
      await instance.close();
    },
  });
}

/** The scheduled function's call: one bounded round of the background work (background.ts); undefined when the instance cannot start. */
export function createScheduledHandler(env: Record<string, string | undefined> = process.env, cwd = process.cwd()): ScheduledHandler {
  const instance = lazyInstance(env, cwd);
  const run = async () => {
    const running = await instance.get();
    if (!running) return undefined;
    await running.services.database.sync?.();
    const report = await runBackgroundRound(running.services, running.logger, ROUND_BUDGET_MS);
    running.logger.info({ report }, 'background round');
    return report;
  };
  return Object.assign(run, { close: () => instance.close() });
}
