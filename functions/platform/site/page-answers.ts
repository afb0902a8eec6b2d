/**
 * Pages kept in memory as finished answers: the bytes with a validator and their compressed forms,
 * written straight to Node's response with 304 for a current copy. Both the prebuilt text files
 * (static-pages.ts) and the pages rendered per request (rendered-pages.ts) are served this way, so
 * every page answers with `ETag` and `Content-Encoding` whichever way it was made, and every
 * instance gives the same page the same ETag (a hash of its bytes).
 */
import { createHash } from 'node:crypto';
import type { IncomingMessage, OutgoingHttpHeaders, ServerResponse } from 'node:http';
import { brotliCompressSync, constants as zlib, gzipSync } from 'node:zlib';
import { mergeVary } from '../http/answer-headers.ts';
import { etagMatches, pickEncoding } from '../http/http.ts';

type Encoding = 'br' | 'gzip';

/** A finished page: status, the page's own headers, its bytes and (lazily) their compressed forms. */
export interface PageAnswer {
  status: number;
  /** The page's own headers (Content-Type, and any it set itself); the request's security headers are added when sent. */
  headers: Readonly<Record<string, string>>;
  bytes: Buffer;
  etag: string;
  /** The compressed bytes, made on first use; undefined when the page is too small to gain from it. */
  encoded(encoding: Encoding): Buffer | undefined;
  /** Bytes it may hold in memory with its compressed forms (for the cache's bound). */
  size: number;
}

const COMPRESS_MIN_BYTES = 1024;
const COMPRESSIBLE = /^(text\/|application\/(xml|json|rss\+xml|atom\+xml|manifest\+json|javascript)|image\/svg\+xml)/i;

export interface PageAnswerInput {
  status: number;
  headers: Record<string, string>;
  bytes: Buffer;
  /** Compressed forms made at build time (the .br and .gz files beside a prebuilt page). */
  precompressed?: Partial<Record<Encoding, Buffer>>;
}

export function createPageAnswer({ status, headers, bytes, precompressed = {} }: PageAnswerInput): PageAnswer {
  const etag = `"${createHash('sha1').update(bytes).digest('base64url')}"`;
  const compressible = bytes.length >= COMPRESS_MIN_BYTES && COMPRESSIBLE.test(headers['Content-Type'] ?? '');
  const encodings = new Map<Encoding, Buffer>(Object.entries(precompressed) as [Encoding, Buffer][]);
  return {
    status,
    headers: Object.freeze({ ...headers }),
    bytes,
    etag,
    encoded(encoding) {
      if (!compressible) return undefined;
      let out = encodings.get(encoding);
      if (!out) {
        // Quality 9: most of brotli's gain at a few milliseconds a page, paid once per page and content change.
        out = encoding === 'br' ? brotliCompressSync(bytes, { params: { [zlib.BROTLI_PARAM_QUALITY]: 9 } }) : gzipSync(bytes, { level: 9 });
        encodings.set(encoding, out);
      }
      return out;
    },
    // Fixed when made, so the cache's count holds: text compresses to well under half, so both
    // encodings together take less than the bytes themselves.
    size: bytes.length * (compressible ? 2 : 1),
  };
}

/**
 * Writes a page answer to Node: 304 when the request's If-None-Match names it (a 200 only), else the
 * bytes, compressed when accepted and worth it (none for HEAD). Headers already set on `res` (the
 * security headers and the shared-cache policy) stay unless the page named its own; an error status
 * is never stored by a cache.
 */
export function writePage(req: IncomingMessage, res: ServerResponse, answer: PageAnswer, noStore: string): void {
  const fresh = answer.status === 200 && etagMatches(header(req, 'if-none-match'), answer.etag);
  const encoding = fresh ? undefined : pickEncoding(header(req, 'accept-encoding'));
  const body = encoding ? answer.encoded(encoding) : undefined;
  const head: OutgoingHttpHeaders = { ...answer.headers };
  if (answer.status >= 400 && !answer.headers['Cache-Control']) head['Cache-Control'] = noStore;
  if (answer.status === 200) head.ETag = answer.etag;
  head.Vary = mergeVary(String(res.getHeader('vary') ?? ''), answer.headers.Vary, 'Accept-Encoding');
  if (fresh) {
    delete head['Content-Type'];
    res.writeHead(304, head);
    res.end();
    return;
  }
  if (body) head['Content-Encoding'] = encoding;
  head['Content-Length'] = (body ?? answer.bytes).length;
  res.writeHead(answer.status, head);
  res.end(req.method === 'HEAD' ? undefined : (body ?? answer.bytes));
}

function header(req: IncomingMessage, name: string): string | undefined {
  const value = req.headers[name];
  return Array.isArray(value) ? value.join(', ') : value;
}

/**
 * Page answers by URL, least recently used first out once `maxBytes` is held, so any number of
 * distinct addresses (query strings are part of the key) costs at most that much memory.
 */
export function createPageCache(maxBytes: number) {
  const entries = new Map<string, PageAnswer>();
  let held = 0;
  const drop = (key: string) => {
    const old = entries.get(key);
    if (old) {
      held -= old.size;
      entries.delete(key);
    }
  };
  return {
    get(key: string): PageAnswer | undefined {
      const answer = entries.get(key);
      if (answer) {
        entries.delete(key);
        entries.set(key, answer);
      }
      return answer;
    },
    set(key: string, answer: PageAnswer): void {
      drop(key);
      if (answer.size > maxBytes) return;
      entries.set(key, answer);
      held += answer.size;
      for (const oldest of entries.keys()) {
        if (held <= maxBytes) break;
        drop(oldest);
      }
    },
    clear(): void {
      entries.clear();
      held = 0;
    },
    get count() {
      return entries.size;
    },
  };
}

export type PageCache = ReturnType<typeof createPageCache>;
