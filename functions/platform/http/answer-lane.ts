/**
 * The answer lane: the busiest answers (the public lists and details every page fetches, a member's
 * gated article) written by the Node listener before the app runs, when everything they need is
 * already in memory. They then cost what a bare `node:http` server costs plus a map lookup: no Fetch
 * objects, no routing, no middleware chain (see docs/decisions/0001-answer-lane.md).
 *
 * The lane answers exactly what the app would, or steps aside. A request target enters it only when
 * the app itself answered that target from memory under the base headers (public) or their private
 * form (per viewer), so the route's checks on the target (type, slug, URL length) have passed. What
 * the route offers is a resolver: the answer itself for a public target; for a per-viewer one, the
 * same in-memory checks the app makes (the token verified lately, the profile read lately, the
 * access rule), answering nothing whenever one of them does not pass, so that the app answers
 * (401, 403, a fresh load) as before. The lane writes through the same writer (head, validators,
 * encodings, request id) and logs the same access line. Its owner clears it in the same step as
 * the answers change (on every content write, local or from another instance); it is bounded, and
 * only requests without a body take it.
 */
import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from 'node:http';
import type { AccessLog } from './access-log.ts';
import { hasBody } from './body-deadline.ts';
import type { AnswerHeaders, AppContext } from './context.ts';
import { pickRequestId } from './middleware.ts';
import { answerResponse, privateForm, writeAnswer, type AnswerScope, type CachedAnswer } from './respond.ts';

const MAX_TARGETS = 2000;

/** The answer for a request with these headers, or undefined to let the app answer it. */
export type LaneResolver = (headers: IncomingHttpHeaders) => CachedAnswer | undefined;

interface Entry {
  resolve: LaneResolver;
  scope: AnswerScope;
  headers: AnswerHeaders;
  /** The request's path as the app logs it. */
  path: string;
}

export interface AnswerLane {
  /** Writes the answer when the lane can give this request one; false to let the app answer. */
  serve(incoming: IncomingMessage, outgoing: ServerResponse): boolean;
  /**
   * The same for a web Request (a serverless function, which has no Node response to write to): the
   * answer as a Response, or undefined to let the app answer.
   */
  answer(request: Request): Response | undefined;
  /**
   * Offers how to answer this request's target from memory, as the app is answering it now (taken
   * only under the base headers or their private form, i.e. when no middleware made this request special).
   */
  offer(c: AppContext, resolve: LaneResolver): void;
  /** Forgets every target (the answers changed). */
  clear(): void;
}

/** The request headers the resolvers and the writer read (a resolver reads the token only). */
function pickHeaders(headers: Headers): IncomingHttpHeaders {
  const picked: IncomingHttpHeaders = {};
  for (const name of ['authorization', 'if-none-match', 'accept-encoding', 'x-request-id'] as const) {
    const value = headers.get(name);
    if (value !== null) picked[name] = value;
  }
  return picked;
}

/** A web Request's target as the lane keys it: path and query (a Request's URL is absolute and normalised). */
export function targetOf(url: string): string {
  const path = url.indexOf('/', url.indexOf('//') + 2);
  const hash = url.indexOf('#');
  return path < 0 ? '/' : hash < 0 ? url.slice(path) : url.slice(path, hash);
}

export function createAnswerLane({
  accessLog,
  trustProxy,
  headers,
}: {
  accessLog: AccessLog;
  trustProxy: number;
  /** The base answer headers (the same object the request context sets). */
  headers: AnswerHeaders;
}): AnswerLane {
  const targets = new Map<string, Entry>();
  const privateHeaders = privateForm(headers);
  return {
    serve(incoming, outgoing) {
      const { method } = incoming;
      if (method !== 'GET' && method !== 'HEAD') return false;
      const entry = targets.get(incoming.url!);
      if (!entry || hasBody(incoming)) return false;
      const start = performance.now();
      const answer = entry.resolve(incoming.headers);
      if (!answer) return false;
      const requestId = pickRequestId(incoming.headers['x-request-id'], trustProxy);
      const request = { method, ifNoneMatch: incoming.headers['if-none-match'], acceptEncoding: incoming.headers['accept-encoding'] };
      const status = writeAnswer(outgoing, request, answer, entry.headers, requestId, entry.scope);
      accessLog.record(method, entry.path, status, Math.round((performance.now() - start) * 10) / 10, requestId);
      return true;
    },
    answer(request) {
      // A GET or HEAD web Request has no body; reading `body` would make a lazy Request build itself.
      const { method } = request;
      if (method !== 'GET' && method !== 'HEAD') return undefined;
      const entry = targets.get(targetOf(request.url));
      if (!entry) return undefined;
      const start = performance.now();
      const requestHeaders = pickHeaders(request.headers);
      const answer = entry.resolve(requestHeaders);
      if (!answer) return undefined;
      const requestId = pickRequestId(requestHeaders['x-request-id'], trustProxy);
      const wanted = { method, ifNoneMatch: requestHeaders['if-none-match'], acceptEncoding: requestHeaders['accept-encoding'] };
      const response = answerResponse(wanted, answer, entry.headers, requestId, entry.scope);
      accessLog.record(method, entry.path, response.status, Math.round((performance.now() - start) * 10) / 10, requestId);
      return response;
    },
    offer(c, resolve) {
      const incoming = c.env?.incoming;
      const current = c.get('answerHeaders');
      const scope = current === headers ? 'public' : current === privateHeaders ? 'private' : undefined;
      // On Node the raw request target; without it (a function's web Request) the URL's path and query.
      const target = incoming ? incoming.url : targetOf(c.req.url);
      if (!scope || !target || (incoming ? hasBody(incoming) : c.req.raw.body)) return;
      if (targets.size >= MAX_TARGETS) targets.clear();
      targets.set(target, { resolve, scope, headers: current, path: c.req.path });
    },
    clear() {
      targets.clear();
    },
  };
}
