/** Small HTTP helpers shared by routes. */
import type { HttpBindings } from '@hono/node-server';
import { RESPONSE_ALREADY_SENT } from '@hono/node-server/utils/response';
import type { Context } from 'hono';
import type { CachedAnswer } from '../content/cache.ts';
import { RESPONSE_HEADERS } from './middleware.ts';

/**
 * A request header, read from Node's already-parsed headers when running on Node: going through
 * `c.req.header()` there builds a full Fetch Headers object per request, which costs more than
 * serving a cached answer.
 */
export function requestHeader(c: Context, name: string): string | undefined {
  const incoming = (c.env as Partial<HttpBindings> | undefined)?.incoming;
  if (incoming) {
    const value = incoming.headers[name];
    return Array.isArray(value) ? value.join(', ') : value;
  }
  return c.req.header(name);
}

/** Whether an If-None-Match header lists this ETag (or *). */
export function etagMatches(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  return header.split(',').some((t) => {
    const tag = t.trim().replace(/^W\//, '');
    return tag === '*' || tag === etag;
  });
}

/** Picks br or gzip when the client accepts it (q=0 excluded). */
export function pickEncoding(acceptEncoding: string | undefined): 'br' | 'gzip' | undefined {
  if (!acceptEncoding) return undefined;
  const accepted = new Set(
    acceptEncoding
      .split(',')
      .map((part) => part.trim().split(';'))
      .filter(([, q]) => !q || !/^q=0(\.0*)?$/i.test(q.trim()))
      .map(([name]) => name!.trim().toLowerCase()),
  );
  if (accepted.has('br')) return 'br';
  if (accepted.has('gzip')) return 'gzip';
  return undefined;
}

const COMPRESS_MIN_BYTES = 1024;
const CACHE_CONTROL = 'public, max-age=0, must-revalidate';

type Head = Record<string, string | number>;
const NO_HEADERS: Record<string, string> = {};

/** Prepared heads per answer, per header set (one per app), per status and encoding. */
const heads = new WeakMap<CachedAnswer, WeakMap<object, Map<string, Head>>>();

function headFor(answer: CachedAnswer, status: 200 | 304, encoding: 'br' | 'gzip' | undefined, extra: Record<string, string>): Head {
  let perAnswer = heads.get(answer);
  if (!perAnswer) heads.set(answer, (perAnswer = new WeakMap()));
  let perHeaders = perAnswer.get(extra);
  if (!perHeaders) perAnswer.set(extra, (perHeaders = new Map()));
  const key = `${status}:${encoding ?? 'identity'}`;
  let head = perHeaders.get(key);
  if (!head) {
    head = { ...extra, ETag: answer.etag, 'Cache-Control': CACHE_CONTROL, Vary: 'Accept-Encoding' };
    if (status === 200) {
      head['Content-Type'] = 'application/json; charset=utf-8';
      head['Content-Length'] = encoding ? answer.encoded(encoding).length : Buffer.byteLength(answer.body);
      if (encoding) head['Content-Encoding'] = encoding;
    }
    perHeaders.set(key, head);
  }
  return head;
}

/**
 * Sends a cached JSON answer with validators: 304 when the client's copy is current, otherwise the
 * body, compressed when it is worth it and the client accepts it. Shared caches must revalidate.
 * On Node the prepared head and bytes are written straight to the socket: this is the hottest path
 * of the site, and going through a Fetch Response would double its cost.
 */
export function sendCachedJson(c: Context, answer: CachedAnswer): Response {
  const fresh = etagMatches(requestHeader(c, 'if-none-match'), answer.etag);
  const encoding = !fresh && answer.body.length >= COMPRESS_MIN_BYTES ? pickEncoding(requestHeader(c, 'accept-encoding')) : undefined;
  const outgoing = (c.env as Partial<HttpBindings> | undefined)?.outgoing;
  if (outgoing) {
    const extra = (c.get(RESPONSE_HEADERS as never) as Record<string, string> | undefined) ?? NO_HEADERS;
    outgoing.writeHead(fresh ? 304 : 200, headFor(answer, fresh ? 304 : 200, encoding, extra));
    outgoing.end(fresh || c.req.method === 'HEAD' ? undefined : encoding ? answer.encoded(encoding) : answer.body);
    return RESPONSE_ALREADY_SENT;
  }
  const headers: Record<string, string> = { ETag: answer.etag, 'Cache-Control': CACHE_CONTROL, Vary: 'Accept-Encoding' };
  if (fresh) return c.body(null, 304, headers);
  headers['Content-Type'] = 'application/json; charset=utf-8';
  if (encoding) {
    return c.body(answer.encoded(encoding) as unknown as ArrayBuffer, 200, { ...headers, 'Content-Encoding': encoding });
  }
  return c.body(answer.body, 200, headers);
}
