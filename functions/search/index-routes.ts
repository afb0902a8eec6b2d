/**
 * `GET /pagefind/{file}`: the public index's files (public-index.ts), as files: an ETag with 304,
 * br or gzip for the text ones (Pagefind's own index files are compressed already), hashed names
 * kept for a year and the entry under the shared policy. Anything else under the folder is 404.
 */
import { Hono } from 'hono';
import { SEARCH_INDEX_PATH } from '#shared/search.ts';
import { AppError } from '../platform/errors.ts';
import type { AppEnv } from '../platform/http/context.ts';
import { etagMatches, pickEncoding, requestHeader } from '../platform/http/http.ts';
import type { PublicIndex } from './public-index.ts';

export function createSearchIndexRoutes(index: PublicIndex) {
  return new Hono<AppEnv>().get(`${SEARCH_INDEX_PATH}*`, async (c) => {
    const answer = await index.answer(c.req.path.slice(SEARCH_INDEX_PATH.length));
    if (!answer) throw new AppError('not_found', 'No such file.');
    const headers: Record<string, string> = {
      ...answer.headers,
      ETag: answer.etag,
      Vary: 'Accept-Encoding',
      'X-Content-Type-Options': 'nosniff',
    };
    if (etagMatches(requestHeader(c, 'if-none-match'), answer.etag)) return c.body(null, 304, headers);
    const encoding = pickEncoding(requestHeader(c, 'accept-encoding'));
    const encoded = encoding ? answer.encoded(encoding) : undefined;
    if (encoded) headers['Content-Encoding'] = encoding!;
    return c.body(new Uint8Array(encoded ?? answer.bytes), 200, headers);
  });
}
