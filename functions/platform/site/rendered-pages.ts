/**
 * Pages rendered per request (home, the lists, details of items written at run time, feeds, the
 * sitemap): Astro's Node handler renders into a buffer instead of the socket, and the result is sent
 * as a page answer (page-answers.ts: ETag and 304, br or gzip). A page is the same for every visitor
 * (islands fetch what is per member), so a 200 that read nothing but public content is kept in
 * memory until the next content write (`clear`, called on every instance by the content cache's
 * notifications), like the public API's answers; pages that read other data (the community, the
 * newsletter archive) or say `no-store` are rendered each time.
 */
import type { IncomingMessage, OutgoingHttpHeader, OutgoingHttpHeaders, ServerResponse } from 'node:http';
import { createPageAnswer, createPageCache, type PageAnswer } from './page-answers.ts';

/** What a render wrote: its status, the headers it gave `writeHead`, and its body. */
interface Captured {
  status: number;
  headers: Record<string, string>;
  body: Buffer;
}

const flatten = (value: OutgoingHttpHeader | undefined): string | undefined =>
  value === undefined ? undefined : Array.isArray(value) ? value.join(', ') : String(value);

/** Header names as the page answers spell them (Content-Type, Cache-Control, …). */
const spell = (name: string) => name.replace(/(^|-)([a-z])/g, (_, dash: string, c: string) => dash + c.toUpperCase());

/**
 * Runs `render` with `res` writing into memory; answers what it wrote once it ends. The response's
 * own methods are put back afterwards, so the caller writes the finished answer as usual.
 */
export function capture(res: ServerResponse, render: () => Promise<void>): Promise<Captured> {
  const original = { writeHead: res.writeHead, write: res.write, end: res.end };
  const chunks: Buffer[] = [];
  let status = 200;
  let given: OutgoingHttpHeaders = {};
  const restore = () => Object.assign(res, original);
  let fail: (err: Error) => void = () => undefined;
  const toBuffer = (chunk: unknown) => (Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk as Uint8Array | string));
  return new Promise<Captured>((resolve, reject) => {
    fail = (err) => {
      restore();
      reject(err);
    };
    res.writeHead = ((code: number, ...args: unknown[]) => {
      status = code;
      const headers = args.find((a) => typeof a === 'object' && a !== null);
      if (Array.isArray(headers)) for (let i = 0; i + 1 < headers.length; i += 2) given[String(headers[i])] = headers[i + 1] as string;
      else if (headers) given = { ...given, ...(headers as OutgoingHttpHeaders) };
      return res;
    }) as typeof res.writeHead;
    res.write = ((chunk: unknown, ...rest: unknown[]) => {
      chunks.push(toBuffer(chunk));
      (rest.find((r) => typeof r === 'function') as (() => void) | undefined)?.();
      return true;
    }) as typeof res.write;
    res.end = ((chunk?: unknown, ...rest: unknown[]) => {
      if (chunk !== undefined && typeof chunk !== 'function') chunks.push(toBuffer(chunk));
      restore();
      const headers: Record<string, string> = {};
      // Headers the page set with setHeader (statusCode and all), then those it gave writeHead.
      if (res.statusCode !== 200 && status === 200) status = res.statusCode;
      for (const [name, value] of Object.entries(given)) {
        const text = flatten(value);
        if (text !== undefined) headers[spell(name.toLowerCase())] = text;
      }
      for (const name of ['content-length', 'etag', 'content-encoding']) delete headers[spell(name)];
      resolve({ status, headers, body: Buffer.concat(chunks) });
      (rest.find((r) => typeof r === 'function') as (() => void) | undefined)?.();
      return res;
    }) as typeof res.end;
    render().then(
      () => {
        if (res.end !== original.end) fail(new Error('The page render finished without ending its answer.'));
      },
      (err: unknown) => fail(err instanceof Error ? err : new Error(String(err))),
    );
  });
}

/** Whether a page answer may be kept for every visitor: a 200 whose policy lets caches store it. */
function storable(answer: PageAnswer, policy: string | undefined): boolean {
  const cacheControl = answer.headers['Cache-Control'] ?? policy ?? '';
  return answer.status === 200 && !/no-store|private/i.test(cacheControl);
}

export interface RenderedPagesOptions {
  /** Memory the kept pages may take (least recently served out first). */
  maxBytes?: number;
  /** Added to every HTML page (a deploy preview's marks). */
  transformHtml?: ((html: string) => string) | undefined;
}

export function createRenderedPages({ maxBytes = 32 * 2 ** 20, transformHtml }: RenderedPagesOptions = {}) {
  const cache = createPageCache(maxBytes);
  // A render that began before a clear may show what the write replaced: it is not kept.
  let generation = 0;
  return {
    /** The kept answer for a URL (path and query), if any. */
    kept: (url: string) => cache.get(url),
    /**
     * Renders a page into an answer, keeping it when it is storable and `publicOnly` says the render
     * read nothing but public content (GET only: a HEAD's render is not reused).
     */
    async render(req: IncomingMessage, res: ServerResponse, run: () => Promise<void>, publicOnly: () => boolean): Promise<PageAnswer> {
      const started = generation;
      const { status, headers, body } = await capture(res, run);
      const html = /^text\/html/i.test(headers['Content-Type'] ?? '');
      const bytes = html && transformHtml ? Buffer.from(transformHtml(body.toString('utf8'))) : body;
      const answer = createPageAnswer({ status, headers, bytes });
      const policy = flatten(res.getHeader('cache-control'));
      if (req.method === 'GET' && started === generation && publicOnly() && storable(answer, policy)) cache.set(req.url ?? '/', answer);
      return answer;
    },
    /** Forgets every kept page (public content changed). */
    clear: () => {
      generation += 1;
      cache.clear();
    },
  };
}

export type RenderedPages = ReturnType<typeof createRenderedPages>;
