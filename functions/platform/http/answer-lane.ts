/**
 * The answer lane: the busiest answers (the public lists and details every page fetches, a member's
 * gated article) written by the Node listener before the app runs, when everything they need is
 * already in memory. They then cost what a bare `node:http` server costs plus a map lookup: no Fetch
 * objects, no routing, no middleware chain (see ARCHITECTURE.md, "What each hop costs").
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
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AccessLog } from './access-log.ts';
import { hasBody } from './body-deadline.ts';
import type { AnswerHeaders, AppContext } from './context.ts';
import { pickRequestId } from './middleware.ts';
import { privateForm, writeAnswer, type AnswerScope, type CachedAnswer } from './respond.ts';

const MAX_TARGETS = 2000;

/** The answer for this request, or undefined to let the app answer it. */
export type LaneResolver = (incoming: IncomingMessage) => CachedAnswer | undefined;

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
   * Offers how to answer this request's target from memory, as the app is answering it now (taken
   * only under the base headers or their private form, i.e. when no middleware made this request special).
   */
  offer(c: AppContext, resolve: LaneResolver): void;
  /** Forgets every target (the answers changed). */
  clear(): void;
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
      const answer = entry.resolve(incoming);
      if (!answer) return false;
      const requestId = pickRequestId(incoming.headers['x-request-id'], trustProxy);
      const request = { method, ifNoneMatch: incoming.headers['if-none-match'], acceptEncoding: incoming.headers['accept-encoding'] };
      const status = writeAnswer(outgoing, request, answer, entry.headers, requestId, entry.scope);
      accessLog.record(method, entry.path, status, Math.round((performance.now() - start) * 10) / 10, requestId);
      return true;
    },
    offer(c, resolve) {
      const incoming = c.env?.incoming;
      const current = c.get('answerHeaders');
      const scope = current === headers ? 'public' : current === privateHeaders ? 'private' : undefined;
      if (!scope || !incoming?.url || hasBody(incoming)) return;
      if (targets.size >= MAX_TARGETS) targets.clear();
      targets.set(incoming.url, { resolve, scope, headers: current, path: c.req.path });
    },
    clear() {
      targets.clear();
    },
  };
}
