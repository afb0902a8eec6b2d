/**
 * The one response path. Most answers are Fetch Responses that the Node adapter writes; three kinds
 * are written straight to Node's response instead: cached public answers (the hottest path of the
 * site), pages and files (written by sirv and Astro), and file downloads (streamed). This module
 * owns the rules all of them share:
 * - every answer carries the headers middleware asked for (`setAnswerHeader`, `varyOn`,
 *   `markPrivate`), whichever path writes it;
 * - a handler that wrote the Node response itself returns `alreadySent()`, and `nodeFetch` reports
 *   whatever was written as sent (Hono's HEAD handling re-wraps responses and would lose the marker);
 * - a failure after the head went out is logged and the connection closed: never a second head;
 * - per-user answers never go through the public answer cache.
 */
import { createHash } from 'node:crypto';
import type { ServerResponse } from 'node:http';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { Readable as NodeReadable } from 'node:stream';
import { brotliCompressSync, constants as zlib, gzipSync } from 'node:zlib';
import type { Http2Bindings, HttpBindings } from '@hono/node-server';
import { RESPONSE_ALREADY_SENT } from '@hono/node-server/utils/response';
import type { Hono, TypedResponse } from 'hono';
import type { JSONParsed } from 'hono/utils/types';
import { localPath } from '#shared/redirect.ts';
import { isPerCaller, PRIVATE_NO_STORE, REVALIDATE } from './cache-control.ts';
import type { AnswerHeaders, AppContext, AppEnv, AppMiddleware } from './context.ts';
import { etagMatches, pickEncoding, requestHeader } from './http.ts';

// ---------------------------------------------------------------------------------------------
// Headers that middleware adds to the answer

/**
 * Every answer names its request. On Node it is written by whoever writes the head (below, the site
 * handler, the adapter via `answerHeaders`), not set up front: a header set before `writeHead` makes
 * Node merge the whole head header by header, which costs a fifth of the cached answers' throughput.
 */
export const REQUEST_ID_HEADER = 'X-Request-Id';

/** Sets a header on this request's answer (copy on write: the shared base set is never changed). */
export function setAnswerHeader(c: AppContext, name: string, value: string): void {
  c.set('answerHeaders', { ...c.get('answerHeaders'), [name]: value });
}

/** Joins Vary lists without duplicates ("Accept-Encoding" + "Authorization"). */
function mergeVary(...lists: (string | undefined)[]): string {
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

function isPrivate(headers: AnswerHeaders): boolean {
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

/**
 * Redirects to a path on our own origin (303 See Other after a form post by default). Every redirect
 * the product makes goes through the one rule of src/lib/shared/redirect.ts; a target that breaks it is a
 * programming error, never an open redirect.
 */
export function redirectLocal(c: AppContext, target: string, status: 301 | 302 | 303 | 307 = 303): Response {
  const location = localPath(target);
  if (!location) throw new Error(`Refusing to redirect off the site: ${JSON.stringify(target)}`);
  return c.redirect(location, status);
}

// ---------------------------------------------------------------------------------------------
// Answers written to Node directly

/** What a handler returns after writing the Node response itself. */
export function alreadySent(): Response {
  return RESPONSE_ALREADY_SENT;
}

/**
 * The app's fetch for @hono/node-server. Handlers that write the Node response return
 * `alreadySent()`, which the adapter leaves alone; Hono answers HEAD by running the GET route and
 * re-wrapping its answer, which loses that marker, so for HEAD whatever has been written is reported
 * as sent here, and the adapter never writes a second head. (Other methods skip the extra await:
 * this is the hottest function of the server.)
 */
export function nodeFetch(app: Hono<AppEnv>) {
  return (request: Request, env: HttpBindings | Http2Bindings): Response | Promise<Response> => {
    const result = app.fetch(request, env);
    if (request.method !== 'HEAD') return result;
    return Promise.resolve(result).then((response) => (env.outgoing.headersSent ? RESPONSE_ALREADY_SENT : response));
  };
}

/**
 * After the head was written nothing can change the status any more: the failure is logged and the
 * connection closed, so the client sees a truncated answer rather than a wrong one.
 */
export function abortAfterHead(c: AppContext, err: unknown): Response {
  c.get('log')().error({ err, method: c.req.method, path: c.req.path }, 'failed after the answer started; connection closed');
  c.env?.outgoing?.destroy();
  return RESPONSE_ALREADY_SENT;
}

/**
 * Streams a Node readable (a file) with the given head. On Node it is piped straight to the
 * response; a read error mid-way is logged and closes the connection.
 */
export function sendStream(c: AppContext, status: number, head: Record<string, string>, stream: Readable): Response {
  const outgoing = c.env?.outgoing;
  const headers = { ...c.get('answerHeaders'), ...head, [REQUEST_ID_HEADER]: c.get('requestId') };
  if (!outgoing) return c.body(NodeReadable.toWeb(stream) as unknown as ReadableStream, status as 200, headers);
  outgoing.writeHead(status, headers);
  if (c.req.method === 'HEAD') {
    stream.destroy();
    outgoing.end();
    return RESPONSE_ALREADY_SENT;
  }
  pipeline(stream, outgoing).catch((err: unknown) => {
    if ((err as NodeJS.ErrnoException).code === 'ERR_STREAM_PREMATURE_CLOSE') return; // the client went away
    c.get('log')().error({ err, path: c.req.path }, 'stream failed after the answer started; connection closed');
    outgoing.destroy();
  });
  return RESPONSE_ALREADY_SENT;
}

// ---------------------------------------------------------------------------------------------
// Cached public answers

/** Type only (never set at run time): the value a cached answer holds. */
declare const answerValue: unique symbol;

/**
 * A serialised public answer with its validator and lazily built compressed forms. `T` is the value
 * it was made from, for types only: routes that send it answer a typed JSON response, which the
 * browser's typed client (hono/client) reads.
 */
export interface CachedAnswer<T = unknown> {
  readonly [answerValue]?: T;
  body: string;
  /** What browsers and shared caches may keep of it when it is sent as a public answer. */
  cacheControl: string;
  /** `body` as UTF-8 bytes (written as is: no encoding per request). */
  bytes: Buffer;
  etag: string;
  encoded(encoding: 'br' | 'gzip'): Buffer;
}

/**
 * Serialises a value once: JSON, a SHA-1 ETag, and brotli/gzip bytes made on first use. Sent as a
 * public answer it carries `cacheControl` (the shared-cache policy, see cache-control.ts; every cache
 * revalidates by default).
 */
export function createAnswer<T>(value: T, { cacheControl = REVALIDATE }: { cacheControl?: string } = {}): CachedAnswer<T> {
  const body = JSON.stringify(value);
  const etag = `"${createHash('sha1').update(body).digest('base64url')}"`;
  const encodings = new Map<string, Buffer>();
  return {
    body,
    cacheControl,
    bytes: Buffer.from(body),
    etag,
    encoded(encoding) {
      let bytes = encodings.get(encoding);
      if (!bytes) {
        bytes = encoding === 'br' ? brotliCompressSync(body, { params: { [zlib.BROTLI_PARAM_QUALITY]: 9 } }) : gzipSync(body, { level: 9 });
        encodings.set(encoding, bytes);
      }
      return bytes;
    },
  };
}

const COMPRESS_MIN_BYTES = 1024;

type Head = Record<string, string | number>;
/** A head as Node's flat [name, value, ...] list, which `writeHead` takes without merging. */
interface PreparedHead {
  headers: Head;
  flat: string[];
}

/**
 * Prepared heads per answer, per header set, per status and encoding. Requests whose middleware
 * added nothing share the app's frozen base set, so the hot path builds no head at all.
 */
const heads = new WeakMap<CachedAnswer, WeakMap<AnswerHeaders, Map<string, PreparedHead>>>();

/** Public answers are the same for everyone (validators, shared-cache policy); private ones belong to one viewer. */
export type AnswerScope = 'public' | 'private';

function headFor(
  answer: CachedAnswer,
  status: 200 | 304,
  encoding: 'br' | 'gzip' | undefined,
  extra: AnswerHeaders,
  scope: AnswerScope,
): PreparedHead {
  let perAnswer = heads.get(answer);
  if (!perAnswer) heads.set(answer, (perAnswer = new WeakMap()));
  let perHeaders = perAnswer.get(extra);
  if (!perHeaders) perAnswer.set(extra, (perHeaders = new Map()));
  const key = `${scope}:${status}:${encoding ?? 'identity'}`;
  let prepared = perHeaders.get(key);
  if (!prepared) {
    // Private answers keep the viewer's headers (private, no-store, Vary: Authorization) and get no validator.
    const headers: Head =
      scope === 'public'
        ? { ...extra, ETag: answer.etag, 'Cache-Control': answer.cacheControl, Vary: mergeVary('Accept-Encoding', extra.Vary) }
        : { ...extra, Vary: mergeVary('Accept-Encoding', extra.Vary) };
    if (status === 200) {
      headers['Content-Type'] = 'application/json; charset=utf-8';
      headers['Content-Length'] = encoding ? answer.encoded(encoding).length : answer.bytes.length;
      if (encoding) headers['Content-Encoding'] = encoding;
    }
    prepared = { headers, flat: Object.entries(headers).flatMap(([name, value]) => [name, String(value)]) };
    perHeaders.set(key, prepared);
  }
  return prepared;
}

/** A sent cached answer, typed as the JSON it carries (what `c.json` would answer for the same value). */
export type JsonAnswer<T> = Response & TypedResponse<JSONParsed<T>, 200, 'json'>;

/**
 * Sends a cached public answer with validators: 304 when the client's copy is current, otherwise the
 * body, compressed when worth it and accepted, with the answer's own Cache-Control (shared caches
 * keep it within the staleness bound; see cache-control.ts). On Node the prepared
 * head and bytes are written straight to the socket: going through a Fetch Response would double
 * the cost of the site's busiest answer. Refuses answers marked per-user (a programming error).
 */
export function sendCachedJson<T>(c: AppContext, answer: CachedAnswer<T>): JsonAnswer<T> {
  if (isPrivate(c.get('answerHeaders'))) throw new Error('A per-user answer must not be served from the public answer cache.');
  return sendAnswer(c, answer, 'public') as JsonAnswer<T>;
}

/**
 * Sends an answer that only some viewers may have, serialised once and shared by all of them (a
 * gated article's HTML after the access check): the request's private headers, no validator,
 * compressed when worth it, written straight to Node like the public answers. Refuses answers not
 * marked per-user (a programming error: they would be cacheable by anyone).
 */
export function sendPrivateJson<T>(c: AppContext, answer: CachedAnswer<T>): JsonAnswer<T> {
  if (!isPrivate(c.get('answerHeaders'))) throw new Error('A gated answer must be marked private before it is sent.');
  return sendAnswer(c, answer, 'private') as JsonAnswer<T>;
}

function sendAnswer(c: AppContext, answer: CachedAnswer, scope: AnswerScope): Response {
  const extra = c.get('answerHeaders');
  const request = {
    method: c.req.method,
    ifNoneMatch: requestHeader(c, 'if-none-match'),
    acceptEncoding: requestHeader(c, 'accept-encoding'),
  };
  const outgoing = c.env?.outgoing;
  if (outgoing) {
    writeAnswer(outgoing, request, answer, extra, c.get('requestId'), scope);
    return RESPONSE_ALREADY_SENT;
  }
  const { status, encoding } = negotiate(request, answer, scope);
  const headers = Object.fromEntries(
    Object.entries(headFor(answer, status, encoding, extra, scope).headers).map(([k, v]) => [k, String(v)]),
  );
  delete headers['Content-Length'];
  if (status === 304) return c.body(null, 304, headers);
  return c.body(encoding ? (answer.encoded(encoding) as unknown as ArrayBuffer) : answer.body, 200, headers);
}

/** What of a request decides how a cached answer is written. */
export interface AnswerRequest {
  method: string;
  ifNoneMatch: string | undefined;
  acceptEncoding: string | undefined;
}

/** Public answers carry validators (304 when the client's copy is current); private ones none. */
function negotiate(request: AnswerRequest, answer: CachedAnswer, scope: AnswerScope) {
  const fresh = scope === 'public' && etagMatches(request.ifNoneMatch, answer.etag);
  const encoding = !fresh && answer.body.length >= COMPRESS_MIN_BYTES ? pickEncoding(request.acceptEncoding) : undefined;
  return { status: fresh ? (304 as const) : (200 as const), encoding };
}

/**
 * Writes a cached answer straight to Node's response: 304 when a public answer's copy at the client
 * is current, else the body (compressed when worth it and accepted; none for HEAD), under a prepared
 * head with `extra` and the request id. Answers the status written. (Shared by the senders above and
 * the answer lane, so both write the same bytes.)
 */
export function writeAnswer(
  outgoing: ServerResponse,
  request: AnswerRequest,
  answer: CachedAnswer,
  extra: AnswerHeaders,
  requestId: string,
  scope: AnswerScope,
): 200 | 304 {
  const { status, encoding } = negotiate(request, answer, scope);
  const head = headFor(answer, status, encoding, extra, scope);
  // One flat list with the request id: nothing was set on `outgoing` before, so Node writes it as is.
  outgoing.writeHead(status, [...head.flat, REQUEST_ID_HEADER, requestId]);
  outgoing.end(status === 304 || request.method === 'HEAD' ? undefined : encoding ? answer.encoded(encoding) : answer.bytes);
  return status;
}
