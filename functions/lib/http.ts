/** Small HTTP helpers shared by routes. */
import type { Context } from 'hono';
import type { CachedAnswer } from '../content/cache.ts';

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

/**
 * Sends a cached JSON answer with validators: 304 when the client's copy is current, otherwise the
 * body, compressed when it is worth it and the client accepts it. Shared caches must revalidate.
 */
export function sendCachedJson(c: Context, answer: CachedAnswer): Response {
  const headers: Record<string, string> = {
    ETag: answer.etag,
    'Cache-Control': 'public, max-age=0, must-revalidate',
    Vary: 'Accept-Encoding',
  };
  if (etagMatches(c.req.header('if-none-match'), answer.etag)) return c.body(null, 304, headers);
  headers['Content-Type'] = 'application/json; charset=utf-8';
  const encoding = answer.body.length >= COMPRESS_MIN_BYTES ? pickEncoding(c.req.header('accept-encoding')) : undefined;
  if (encoding) {
    const bytes = answer.encoded(encoding);
    return c.body(bytes as unknown as ArrayBuffer, 200, { ...headers, 'Content-Encoding': encoding });
  }
  return c.body(answer.body, 200, headers);
}
