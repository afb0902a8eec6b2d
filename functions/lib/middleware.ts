/** Cross-cutting middleware: request context and logging, the URL length limit, cross-site writes. */
import { randomUUID } from 'node:crypto';
import { AppError } from '../errors.ts';
import type { AccessLog } from './access-log.ts';
import type { AppMiddleware } from './context.ts';
import { requestHeader } from './http.ts';
import { runInRequest, type Logger } from './logger.ts';

const REQUEST_ID = /^[A-Za-z0-9._:-]{8,128}$/;

export interface RequestContextOptions {
  accessLog: AccessLog;
  logger: Logger;
  /** Behind trusted proxies the request id they assigned is kept, so lines correlate end to end. */
  trustProxy: number;
}

/**
 * First middleware: gives the request an id (`X-Request-Id` on the answer, in every log line and
 * every error body) and logs one access line with its final status and duration. On Node it logs
 * when the response closes (also for answers written straight to the socket) without touching
 * `c.res`, which would turn the adapter's cheap cached response into a full Fetch Response.
 */
export function requestContext({ accessLog, logger, trustProxy }: RequestContextOptions): AppMiddleware {
  return (c, next) => {
    const given = trustProxy > 0 ? requestHeader(c, 'x-request-id') : undefined;
    const requestId = given && REQUEST_ID.test(given) ? given : randomUUID();
    c.set('requestId', requestId);
    c.set('logger', logger);
    const start = performance.now();
    const log = (status: number) =>
      accessLog.record(c.req.method, c.req.path, status, Math.round((performance.now() - start) * 10) / 10, requestId);
    const outgoing = c.env?.outgoing;
    if (outgoing) {
      outgoing.setHeader('X-Request-Id', requestId);
      // 499: the client closed the connection before the answer was complete.
      outgoing.once('close', () => log(outgoing.writableFinished ? outgoing.statusCode : 499));
      return runInRequest(requestId, next);
    }
    return runInRequest(requestId, async () => {
      await next();
      c.res.headers.set('X-Request-Id', requestId);
      log(c.res.status);
    });
  };
}

const MAX_URL_LENGTH = 2048;

/** Rejects absurdly long URLs before any routing work. */
export function urlLengthLimit(): AppMiddleware {
  return (c, next) => {
    const length = c.env?.incoming?.url?.length ?? c.req.url.length;
    if (length > MAX_URL_LENGTH) throw new AppError('uri_too_long', `The address is longer than ${MAX_URL_LENGTH} characters.`);
    return next();
  };
}

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * Refuses writes that a browser marks as cross-site: `Sec-Fetch-Site` other than same-origin (or
 * none, a user's own navigation), or an `Origin` that is neither the site's nor the request's own
 * host. Clients that send neither header (server-side SDKs, signed webhooks) are judged by their
 * credentials as before. With no auth cookies this is defence in depth, and it keeps the forms from
 * being posted from other sites on a visitor's behalf.
 */
export function refuseCrossSiteWrites(siteUrl: string): AppMiddleware {
  const siteOrigin = new URL(siteUrl).origin;
  return (c, next) => {
    if (SAFE_METHODS.has(c.req.method)) return next();
    const fetchSite = requestHeader(c, 'sec-fetch-site');
    if (fetchSite && fetchSite !== 'same-origin' && fetchSite !== 'none') throw crossSite();
    const origin = requestHeader(c, 'origin');
    if (origin !== undefined && origin !== siteOrigin && !sameHost(origin, requestHeader(c, 'host') ?? new URL(c.req.url).host)) {
      throw crossSite();
    }
    return next();
  };
}

function sameHost(origin: string, host: string): boolean {
  if (origin === 'null') return false;
  try {
    return new URL(origin).host === host.toLowerCase();
  } catch {
    return false;
  }
}

const crossSite = () => new AppError('forbidden', 'Requests from other sites are not accepted.');
