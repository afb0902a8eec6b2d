/** Cross-cutting middleware: request context and logging, the URL length limit, cross-site writes. */
import { randomUUID } from 'node:crypto';
import { AppError, errorResponse } from '../errors.ts';
import type { AccessLog } from './access-log.ts';
import type { AnswerHeaders, AppMiddleware } from './context.ts';
import { finishAnswer } from './respond.ts';
import { requestHeader } from './http.ts';
import type { Logger } from '../logger.ts';

const REQUEST_ID = /^[A-Za-z0-9._:-]{8,128}$/;

export interface RequestContextOptions {
  accessLog: AccessLog;
  logger: Logger;
  /** Behind trusted proxies the request id they assigned is kept, so lines correlate end to end. */
  trustProxy: number;
  /** The answer's headers unless a later middleware names others (answerHeaders): set here, one step fewer per request. */
  headers?: AnswerHeaders;
}

const MAX_URL_LENGTH = 2048;

/** The request's id: the one trusted proxies assigned when well formed, else a new one. */
export function pickRequestId(given: string | string[] | undefined, trustProxy: number): string {
  return trustProxy > 0 && typeof given === 'string' && REQUEST_ID.test(given) ? given : randomUUID();
}

/**
 * First middleware, the edge of every request: gives it an id (`X-Request-Id` on the answer, in its
 * log lines and error bodies), rejects absurdly long URLs before any routing work, finishes the
 * answer's headers (respond.ts) and logs one access line with the final status and duration. Answers
 * written straight to Node are logged without touching `c.res`, which would turn the adapter's cheap
 * response marker into a full Fetch Response.
 */
export function requestContext({ accessLog, logger, trustProxy, headers }: RequestContextOptions): AppMiddleware {
  const base: AnswerHeaders = headers ?? Object.freeze({});
  return (c, next) => {
    c.set('answerHeaders', base);
    const requestId = pickRequestId(requestHeader(c, 'x-request-id'), trustProxy);
    c.set('requestId', requestId);
    let child: Logger | undefined;
    c.set('log', () => (child ??= logger.child({ requestId })));
    const start = performance.now();
    const log = (status: number) =>
      accessLog.record(c.req.method, c.req.path, status, Math.round((performance.now() - start) * 10) / 10, requestId);
    const outgoing = c.env?.outgoing;
    const tooLong = (outgoing ? (c.env?.incoming?.url?.length ?? 0) : c.req.url.length) > MAX_URL_LENGTH;
    const handled = tooLong ? ((c.res = errorResponse(c, 'uri_too_long', URI_TOO_LONG)), Promise.resolve()) : next();
    return handled.then(() => {
      finishAnswer(c);
      if (!outgoing) return log(c.res.status);
      // Answers written straight to the socket (the cached ones) are complete here; the rest are
      // logged when the response closes: 499 when the client left before the answer was complete
      // (at once when it already has, e.g. it hung up mid-body: the close event is past).
      if (outgoing.writableEnded) log(outgoing.statusCode);
      else if (outgoing.closed) log(499);
      else outgoing.once('close', () => log(outgoing.writableFinished ? outgoing.statusCode : 499));
    });
  };
}

const URI_TOO_LONG = `The address is longer than ${MAX_URL_LENGTH} characters.`;

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * Refuses writes that a browser marks as cross-site: `Sec-Fetch-Site` other than same-origin (or
 * none, a user's own navigation), or an `Origin` that is neither the site's nor the request's own
 * host. Clients that send neither header (server-side SDKs, signed webhooks) are judged by their
 * credentials as before. With no auth cookies this is defence in depth, and it keeps the forms from
 * being posted from other sites on a visitor's behalf.
 *
 * `Sec-Fetch-Site: same-origin` is decisive (browsers set it and pages cannot): a page that sends no
 * referrer (the mailed-link pages, whose address holds a token) makes the browser post its form with
 * `Origin: null`, which on its own would look like a sandboxed or cross-site sender. An `Origin: null`
 * without that header is still refused.
 */
export function refuseCrossSiteWrites(siteUrl: string): AppMiddleware {
  const siteOrigin = new URL(siteUrl).origin;
  return (c, next) => {
    if (SAFE_METHODS.has(c.req.method)) return next();
    const fetchSite = requestHeader(c, 'sec-fetch-site');
    if (fetchSite === 'same-origin') return next();
    if (fetchSite && fetchSite !== 'none') throw crossSite();
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
