/**
 * Serves the Astro build on the API's port: prebuilt files from dist/client (hashed assets cached for
 * a year, everything else with the pages' shared-cache policy and an ETag, precompressed variants when
 * present), on-demand pages through Astro's Node handler with per-request locals, and the prebuilt 404
 * page for everything else. Pages carry the Cache-Control of the answer headers (the shared policy:
 * a CDN keeps them within the staleness bound, browsers revalidate); an answer with an error status
 * is never stored (`no-store`), whichever page wrote it.
 * Paths that are not safe to route (control characters, backslashes, broken percent-encoding) get
 * 400, methods other than GET and HEAD get 405, and "/page/" redirects to "/page" on our origin only.
 */
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import type { IncomingMessage, ServerResponse } from 'node:http';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import sirv from 'sirv';
import { isSafePath, withoutTrailingSlash } from '#shared/redirect.ts';
import type { AppContext } from '../http/context.ts';
import type { PageLocals } from './locals.ts';
import { injectPreview, transformHtml, type PreviewInfo } from './preview.ts';
import { abortAfterHead, alreadySent, REQUEST_ID_HEADER } from '../http/respond.ts';
import { IMMUTABLE, NO_STORE } from '../http/cache-control.ts';

const PAGE_METHODS = 'GET, HEAD';

type AstroHandler = (req: IncomingMessage, res: ServerResponse, next: (err?: unknown) => void, locals?: object) => Promise<void>;

export interface SiteHandlerOptions {
  distDir: string;
  /** Builds Astro.locals for one request (on-demand pages read server data from it). */
  locals: (c: AppContext) => PageLocals;
  /** A deploy preview: every page gets the preview's banner and noindex meta (see preview.ts). */
  preview?: PreviewInfo | undefined;
}

/** Whether a request path's percent-encoding is valid (Astro would log an error for it). */
function decodable(rawPath: string): boolean {
  try {
    decodeURIComponent(rawPath);
    return true;
  } catch {
    return false;
  }
}

/**
 * An answer with an error status (a page's 404 or 503, a failure) is stored by no cache: the shared
 * policy set up front is replaced before the head goes out, unless the page named its own.
 */
function neverStoreErrors(res: ServerResponse): void {
  const writeHead = res.writeHead.bind(res) as (status: number, ...rest: unknown[]) => ServerResponse;
  res.writeHead = ((status: number, ...rest: unknown[]) => {
    if (status >= 400) res.setHeader('Cache-Control', NO_STORE);
    return writeHead(status, ...rest);
  }) as typeof res.writeHead;
}

export class MissingBuildError extends Error {
  constructor(distDir: string) {
    super(`No site build in ${distDir}. Run "npm run build" (npm start builds automatically).`);
    this.name = 'MissingBuildError';
  }
}

/** Throws MissingBuildError unless `distDir` holds a complete site build. */
export function assertBuild(distDir: string): void {
  if (!existsSync(path.join(distDir, 'server', 'entry.mjs')) || !existsSync(path.join(distDir, 'client'))) {
    throw new MissingBuildError(distDir);
  }
}

export async function createSiteHandler({ distDir, locals, preview }: SiteHandlerOptions) {
  assertBuild(distDir);
  const clientDir = path.join(distDir, 'client');
  const entry = path.join(distDir, 'server', 'entry.mjs');
  const astro = (await import(pathToFileURL(entry).href)) as { handler: AstroHandler };
  const notFoundPage = await readFile(path.join(clientDir, '404.html')).catch(() => Buffer.from('<h1>404</h1>'));

  const files = sirv(clientDir, {
    etag: true,
    gzip: true,
    brotli: true,
    extensions: ['html'],
    // Other files keep the pages' policy, set from the answer headers before sirv runs.
    setHeaders: (res, pathname) => {
      if (pathname.startsWith('/_astro/')) res.setHeader('Cache-Control', IMMUTABLE);
    },
  });

  /** The not-found page with a status: 404, or 400/405 for requests no page can answer. */
  const sendErrorPage = (req: IncomingMessage, res: ServerResponse, status: number, extra: Record<string, string> = {}) => {
    res.writeHead(status, {
      'Content-Type': 'text/html; charset=utf-8',
      'Content-Length': notFoundPage.length,
      'Cache-Control': NO_STORE,
      ...extra,
    });
    res.end(req.method === 'HEAD' ? undefined : notFoundPage);
  };

  const serve = (req: IncomingMessage, res: ServerResponse, pageLocals: object) =>
    new Promise<void>((resolve, reject) => {
      res.once('finish', resolve);
      res.once('close', resolve);
      const toAstro = () => {
        astro.handler(req, res, (err) => (err ? reject(err) : sendErrorPage(req, res, 404)), pageLocals).catch(reject);
      };
      files(req, res, toAstro);
    });

  return async (c: AppContext) => {
    const { incoming, outgoing } = c.env;
    if (!incoming || !outgoing) throw new Error('The site handler runs on the Node adapter only.');
    outgoing.setHeader(REQUEST_ID_HEADER, c.get('requestId'));
    for (const [name, value] of Object.entries(c.get('answerHeaders'))) outgoing.setHeader(name, value);
    neverStoreErrors(outgoing);
    if (preview) transformHtml(incoming, outgoing, (html) => injectPreview(html, preview));
    const raw = incoming.url ?? '/';
    const rawPath = raw.split('?')[0]!;
    if (!isSafePath(rawPath) || !decodable(rawPath)) {
      sendErrorPage(incoming, outgoing, 400);
      return alreadySent();
    }
    if (incoming.method !== 'GET' && incoming.method !== 'HEAD') {
      sendErrorPage(incoming, outgoing, 405, { Allow: PAGE_METHODS });
      return alreadySent();
    }
    // One canonical form per page: "/blog/" redirects to "/blog", built from the raw path.
    if (rawPath.length > 1 && rawPath.endsWith('/')) {
      const location = withoutTrailingSlash(raw);
      if (!location) sendErrorPage(incoming, outgoing, 400);
      else {
        outgoing.writeHead(301, { Location: location, 'Content-Length': 0 });
        outgoing.end();
      }
      return alreadySent();
    }
    try {
      await serve(incoming, outgoing, locals(c));
    } catch (err) {
      if (outgoing.headersSent) return abortAfterHead(c, err);
      c.get('log')().error({ err, path: rawPath }, 'page rendering failed');
      outgoing.writeHead(500, { 'Content-Type': 'text/plain; charset=utf-8', 'Cache-Control': NO_STORE });
      outgoing.end('Something went wrong on our side. Please try again.');
    }
    return alreadySent();
  };
}
