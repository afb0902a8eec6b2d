/**
 * Cached answers (part of the one response path, see respond.ts): a value serialised once with its
 * validator and compressed forms, and prepared heads so the site's busiest answers are written to
 * Node's socket with no per-request head building. Per-user answers never go through the public
 * answer cache.
 */
import { createHash } from 'node:crypto';
import type { ServerResponse } from 'node:http';
import { brotliCompressSync, constants as zlib, gzipSync } from 'node:zlib';
import { RESPONSE_ALREADY_SENT } from '@hono/node-server/utils/response';
import type { TypedResponse } from 'hono';
import type { JSONParsed } from 'hono/utils/types';
import { isPrivate, mergeVary, REQUEST_ID_HEADER } from './answer-headers.ts';
import { REVALIDATE } from './cache-control.ts';
import type { AnswerHeaders, AppContext } from './context.ts';
import { etagMatches, pickEncoding, requestHeader } from './http.ts';

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
  /** The same with text values (a web Response's head). */
  record: Record<string, string>;
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
    const record = Object.fromEntries(Object.entries(headers).map(([name, value]) => [name, String(value)]));
    prepared = { headers, flat: Object.entries(record).flat(), record };
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
 * The same answer as a web Response (the answer lane of a serverless function): the prepared head's
 * fields as they are, so no per-request head is built beyond the request id.
 */
export function answerResponse(
  request: AnswerRequest,
  answer: CachedAnswer,
  extra: AnswerHeaders,
  requestId: string,
  scope: AnswerScope,
): Response {
  const { status, encoding } = negotiate(request, answer, scope);
  const head = headFor(answer, status, encoding, extra, scope);
  // A plain record, not a Headers object: a runtime may write it as it is (Hono's Node adapter does).
  const headers = { ...head.record, [REQUEST_ID_HEADER]: requestId };
  const body = status === 304 || request.method === 'HEAD' ? null : encoding ? answer.encoded(encoding) : answer.bytes;
  // A Buffer made by Buffer.from or zlib (never on shared memory), passed as it is.
  return new Response(body as Uint8Array<ArrayBuffer> | null, { status, headers });
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
