/** Cross-cutting middleware: request logging, security headers and the URL length limit. */
import type { HttpBindings } from '@hono/node-server';
import type { MiddlewareHandler } from 'hono';
import { errorBody } from '../errors.ts';
import type { AccessLog } from './access-log.ts';

type Bindings = Partial<HttpBindings>;

/**
 * Logs one line per request with its final status and duration. On Node it logs when the response
 * has been written (also for responses the site layer writes itself), without touching `c.res`,
 * which would turn the adapter's cheap cached response into a full Fetch Response.
 */
export function requestLogger(accessLog: AccessLog): MiddlewareHandler<{ Bindings: Bindings }> {
  return async (c, next) => {
    const start = performance.now();
    const log = (status: number) =>
      accessLog.record(c.req.method, c.req.path, status, Math.round((performance.now() - start) * 10) / 10);
    const outgoing = c.env?.outgoing;
    if (outgoing) {
      outgoing.once('finish', () => log(outgoing.statusCode));
      return next();
    }
    await next();
    log(c.res.status);
  };
}

/** Context key under which `withHeaders` leaves its headers for handlers that write raw responses. */
export const RESPONSE_HEADERS = 'responseHeaders';

/**
 * Adds the given headers to every response a handler returns. On Node they go onto the outgoing
 * message just before the adapter writes it (a handler's own header of the same name still wins);
 * handlers that write the response themselves read them from the context. Elsewhere (tests,
 * serverless) they are added to the Response.
 */
export function withHeaders(headers: Record<string, string>): MiddlewareHandler<{ Bindings: Bindings }> {
  const entries = Object.entries(headers);
  return async (c, next) => {
    c.set(RESPONSE_HEADERS as never, headers as never);
    await next();
    const outgoing = c.env?.outgoing;
    if (outgoing) {
      if (!outgoing.headersSent) for (const [name, value] of entries) outgoing.setHeader(name, value);
      return;
    }
    if (c.res.headers.has('x-hono-already-sent')) return;
    for (const [name, value] of entries) if (!c.res.headers.has(name)) c.res.headers.set(name, value);
  };
}

const MAX_URL_LENGTH = 2048;

/** Rejects absurdly long URLs before any routing work. */
export function urlLengthLimit(): MiddlewareHandler<{ Bindings: Bindings }> {
  return (c, next) => {
    const length = c.env?.incoming?.url?.length ?? c.req.url.length;
    if (length > MAX_URL_LENGTH) {
      return Promise.resolve(c.json(errorBody('bad_request', `The address is longer than ${MAX_URL_LENGTH} characters.`), 414));
    }
    return next();
  };
}
