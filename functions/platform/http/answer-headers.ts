/**
 * Headers that middleware adds to the answer (part of the one response path, see respond.ts): set
 * per request copy-on-write, marked private once per shared set, and put on a Fetch Response by
 * `finishAnswer`. The paths that write Node's response themselves (node-answers.ts,
 * cached-answers.ts) carry the same set.
 */
import { isPerCaller, PRIVATE_NO_STORE } from './cache-control.ts';
import type { AnswerHeaders, AppContext, AppMiddleware } from './context.ts';

/**
 * Every answer names its request. On Node it is written by whoever writes the head (node-answers.ts,
 * cached-answers.ts, the site handler, the adapter via `finishAnswer` below), not set up front: a header set before `writeHead` makes
 * Node merge the whole head header by header, which costs a fifth of the cached answers' throughput.
 */
export const REQUEST_ID_HEADER = 'X-Request-Id';

/** Sets a header on this request's answer (copy on write: the shared base set is never changed). */
export function setAnswerHeader(c: AppContext, name: string, value: string): void {
  c.set('answerHeaders', { ...c.get('answerHeaders'), [name]: value });
}

/** Joins Vary lists without duplicates ("Accept-Encoding" + "Authorization"). */
export function mergeVary(...lists: (string | undefined)[]): string {
  const names = new Map<string, string>();
  for (const list of lists) for (const n of (list ?? '').split(',')) if (n.trim()) names.set(n.trim().toLowerCase(), n.trim());
  return [...names.values()].join(', ');
}

/** Marks the answer as varying on a request header (e.g. Authorization). */
export function varyOn(c: AppContext, header: string): void {
  setAnswerHeader(c, 'Vary', mergeVary(c.get('answerHeaders').Vary, header));
}

/** The private form of each header set, made once, so private answers share prepared heads too. */
const privateSets = new WeakMap<AnswerHeaders, AnswerHeaders>();

/** The private form of a header set (private, no-store, Vary: Authorization), made once per set. */
export function privateForm(base: AnswerHeaders): AnswerHeaders {
  let marked = privateSets.get(base);
  if (!marked) {
    marked = Object.freeze({ ...base, 'Cache-Control': PRIVATE_NO_STORE, Vary: mergeVary(base.Vary, 'Authorization') });
    privateSets.set(base, marked);
  }
  return marked;
}

/** Marks the answer as depending on the viewer: private, never stored by shared caches or ours. */
export function markPrivate(c: AppContext): void {
  c.set('answerHeaders', privateForm(c.get('answerHeaders')));
}

/** Whether a header set marks the answer per-viewer (see cache-control.ts). */
export function isPrivate(headers: AnswerHeaders): boolean {
  return isPerCaller(headers['Cache-Control']);
}

/** Middleware: makes `base` the answer's headers (the API's or the pages' security headers). */
export function answerHeaders(base: Record<string, string>): AppMiddleware {
  const frozen: AnswerHeaders = Object.freeze({ ...base });
  return (c, next) => {
    c.set('answerHeaders', frozen);
    return next();
  };
}

/**
 * Called by the first middleware once the handler has returned: puts the answer headers and the
 * request id on an answer that is still a Fetch Response. On Node they go onto the outgoing message
 * before the adapter writes it (a handler's own header of the same name wins, Vary lists are
 * merged); elsewhere onto the Response. Answers written straight to Node carried them already.
 */
export function finishAnswer(c: AppContext): void {
  const outgoing = c.env?.outgoing;
  if (outgoing?.headersSent) return;
  if (c.res.headers.has('x-hono-already-sent')) return;
  const headers = c.get('answerHeaders') ?? {};
  if (outgoing) {
    outgoing.setHeader(REQUEST_ID_HEADER, c.get('requestId'));
    for (const name in headers) outgoing.setHeader(name, headers[name]!);
    if (headers.Vary && c.res.headers.has('vary')) c.res.headers.set('Vary', mergeVary(c.res.headers.get('vary')!, headers.Vary));
    return;
  }
  c.res.headers.set(REQUEST_ID_HEADER, c.get('requestId'));
  for (const name in headers) {
    if (name === 'Vary') c.res.headers.set('Vary', mergeVary(c.res.headers.get('vary') ?? undefined, headers.Vary));
    else if (!c.res.headers.has(name)) c.res.headers.set(name, headers[name]!);
  }
}
