/** Cross-cutting middleware: request logging, security headers and the URL length limit. */
import type { HttpBindings } from '@hono/node-server';
import type { MiddlewareHandler } from 'hono';
import { errorBody } from '../errors.ts';
import type { Logger } from './logger.ts';

type Bindings = Partial<HttpBindings>;

/** Logs one line per request with its final status, including responses written by the site layer. */
export function requestLogger(logger: Logger): MiddlewareHandler<{ Bindings: Bindings }> {
  return async (c, next) => {
    const start = performance.now();
    await next();
    const raw = c.env?.outgoing;
    const status = raw?.headersSent ? raw.statusCode : c.res.status;
    const ms = Math.round((performance.now() - start) * 10) / 10;
    const line = { method: c.req.method, path: c.req.path, status, ms };
    if (status >= 500) logger.error(line, 'request');
    else logger.info(line, 'request');
  };
}

/** Adds the given headers to every Hono response (raw Node responses get them in the site layer). */
export function withHeaders(headers: Record<string, string>): MiddlewareHandler {
  return async (c, next) => {
    await next();
    if (c.res.headers.has('x-hono-already-sent')) return;
    for (const [name, value] of Object.entries(headers)) if (!c.res.headers.has(name)) c.res.headers.set(name, value);
  };
}

const MAX_URL_LENGTH = 2048;

/** Rejects absurdly long URLs before any routing work. */
export function urlLengthLimit(): MiddlewareHandler {
  return async (c, next) => {
    if (c.req.url.length > MAX_URL_LENGTH) {
      return c.json(errorBody('bad_request', `The address is longer than ${MAX_URL_LENGTH} characters.`), 414);
    }
    await next();
  };
}
