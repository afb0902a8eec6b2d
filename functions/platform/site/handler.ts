/**
 * Serves the Astro build on the API's port. Prebuilt text files (pages, robots) and pages rendered
 * per request are answered from memory as page answers (page-answers.ts: an ETag with 304, br or
 * gzip), with the run-time SITE_URL in place of the build's origin (static-pages.ts) and a page that
 * read only public content kept until the next content write (rendered-pages.ts). Home and the lists
 * are answered from the build's snapshot while their content is the build's (page-snapshots.ts);
 * Astro's server runtime is loaded on the first page that must be rendered. Other files
 * (hashed assets cached for a year, images) come from dist/client through sirv; anything no file or
 * page answers gets the prebuilt 404 page. Pages carry the Cache-Control of the answer headers (the
 * shared policy: a CDN keeps them within the staleness bound, browsers revalidate); an answer with
 * an error status is never stored (`no-store`), whichever page wrote it.
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
import { injectPreview, type PreviewInfo } from './preview.ts';
import { alreadySent, REQUEST_ID_HEADER } from '../http/respond.ts';
import { IMMUTABLE, NO_STORE } from '../http/cache-control.ts';
import { writePage } from './page-answers.ts';
import { createRenderedPages } from './rendered-pages.ts';
import { createStaticPages } from './static-pages.ts';
import { createPageSnapshots } from './page-snapshots.ts';
import type { PublicContentReader } from '#shared/content/reader.ts';
import { BUILD_ORIGIN_FILE } from '../../../src/integrations/build-origin.ts';

const PAGE_METHODS = 'GET, HEAD';

type AstroHandler = (req: IncomingMessage, res: ServerResponse, next: (err?: unknown) => void, locals?: object) => Promise<void>;

export interface SiteHandlerOptions {
  distDir: string;
  /** Builds Astro.locals for one request (on-demand pages read server data from it). */
  locals: (c: AppContext) => PageLocals;
  /** The run-time SITE_URL: prebuilt files are served with its origin in place of the build's. */
  siteUrl: string;
  /** The public content pages show (the snapshots are answered while it is the build's). */
  content: PublicContentReader;
  /** The pages' header policy (as in the locals), appended to a snapshot's own. */
  pageCsp: string;
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

export class MissingBuildError extends Error {
  constructor(distDir: string) {
    super(`No site build in ${distDir}. Run "npm run build" (npm start builds automatically).`);
    this.name = 'MissingBuildError';
  }
}

/** Throws MissingBuildError unless `distDir` holds a complete site build. */
export function assertBuild(distDir: string): void {
  const parts = [path.join('server', 'entry.mjs'), 'client', BUILD_ORIGIN_FILE];
  if (parts.some((part) => !existsSync(path.join(distDir, part)))) {
    throw new MissingBuildError(distDir);
  }
}

/** The not-found page with a status: 404, or 400/405 for requests no page can answer. */
function sendErrorPage(
  notFoundPage: Buffer,
  req: IncomingMessage,
  res: ServerResponse,
  status: number,
  extra: Record<string, string> = {},
): void {
  res.writeHead(status, {
    'Content-Type': 'text/html; charset=utf-8',
    'Content-Length': notFoundPage.length,
    'Cache-Control': NO_STORE,
    ...extra,
  });
  res.end(req.method === 'HEAD' ? undefined : notFoundPage);
}

/**
 * Answers a request no page may take (a bad path 400, a method but GET or HEAD 405) or one whose
 * path is not canonical ("/blog/" redirects to "/blog", built from the raw path); false when the
 * request goes on to the pages.
 */
function refusedOrRedirected(
  notFoundPage: Buffer,
  incoming: IncomingMessage,
  outgoing: ServerResponse,
  raw: string,
  rawPath: string,
): boolean {
  if (!isSafePath(rawPath) || !decodable(rawPath)) {
    sendErrorPage(notFoundPage, incoming, outgoing, 400);
    return true;
  }
  if (incoming.method !== 'GET' && incoming.method !== 'HEAD') {
    sendErrorPage(notFoundPage, incoming, outgoing, 405, { Allow: PAGE_METHODS });
    return true;
  }
  if (rawPath.length > 1 && rawPath.endsWith('/')) {
    const location = withoutTrailingSlash(raw);
    if (!location) sendErrorPage(notFoundPage, incoming, outgoing, 400);
    else {
      outgoing.writeHead(301, { Location: location, 'Content-Length': 0 });
      outgoing.end();
    }
    return true;
  }
  return false;
}

export async function createSiteHandler({ distDir, locals, siteUrl, content, pageCsp, preview }: SiteHandlerOptions) {
  assertBuild(distDir);
  const clientDir = path.join(distDir, 'client');
  const entry = path.join(distDir, 'server', 'entry.mjs');
  let astro: Promise<{ handler: AstroHandler }> | undefined;
  const astroHandler = () => (astro ??= import(pathToFileURL(entry).href) as Promise<{ handler: AstroHandler }>);
  const notFoundPage = await readFile(path.join(clientDir, '404.html')).catch(() => Buffer.from('<h1>404</h1>'));
  const { origin: buildOrigin } = JSON.parse(await readFile(path.join(distDir, BUILD_ORIGIN_FILE), 'utf8')) as { origin: string };
  const transformHtml = preview ? (html: string) => injectPreview(html, preview) : undefined;
  const staticPages = await createStaticPages({ clientDir, buildOrigin, siteOrigin: new URL(siteUrl).origin, transformHtml });
  const renderedPages = createRenderedPages({ transformHtml });
  const snapshots = await createPageSnapshots({
    distDir,
    reader: content,
    buildOrigin,
    siteOrigin: new URL(siteUrl).origin,
    pageCsp,
    transformHtml,
  });

  // Made on the first request no page answers: sirv reads the whole build's file list as it is made.
  let files: ReturnType<typeof sirv> | undefined;
  const fileServer = () =>
    (files ??= sirv(clientDir, {
      etag: true,
      gzip: true,
      brotli: true,
      // Other files keep the pages' policy, set from the answer headers before sirv runs.
      setHeaders: (res, pathname) => {
        if (pathname.startsWith('/_astro/')) res.setHeader('Cache-Control', IMMUTABLE);
      },
    }));

  /** Another file of the build (assets, images) through sirv, else the page rendered on request. */
  const serveFileOrPage = (req: IncomingMessage, res: ServerResponse, pageLocals: PageLocals) =>
    new Promise<void>((resolve, reject) => {
      const toAstro = () => {
        // Astro's handler calls `next` for a path no page has: the 404 page, written into the capture too.
        const run = async () => {
          const { handler: render } = await astroHandler();
          await new Promise<void>((rendered, failed) => {
            render(req, res, (err) => (err ? failed(err) : sendErrorPage(notFoundPage, req, res, 404)), pageLocals).then(rendered, failed);
          });
        };
        renderedPages
          .render(req, res, run, () => !pageLocals.readBeyondContent)
          .then((answer) => writePage(req, res, answer, NO_STORE), reject);
      };
      res.once('finish', resolve);
      res.once('close', resolve);
      fileServer()(req, res, toAstro);
    });

  const handler = async (c: AppContext) => {
    const { incoming, outgoing } = c.env;
    if (!incoming || !outgoing) throw new Error('The site handler runs on the Node adapter only.');
    outgoing.setHeader(REQUEST_ID_HEADER, c.get('requestId'));
    for (const [name, value] of Object.entries(c.get('answerHeaders'))) outgoing.setHeader(name, value);
    const raw = incoming.url ?? '/';
    const rawPath = raw.split('?')[0]!;
    if (refusedOrRedirected(notFoundPage, incoming, outgoing, raw, rawPath)) return alreadySent();
    try {
      const page = renderedPages.kept(raw) ?? (await staticPages.answer(decodeURIComponent(rawPath))) ?? (await snapshots.answer(raw));
      if (page) writePage(incoming, outgoing, page, NO_STORE);
      else await serveFileOrPage(incoming, outgoing, locals(c));
    } catch (err) {
      c.get('log')().error({ err, path: rawPath }, 'page rendering failed');
      if (outgoing.headersSent) outgoing.destroy();
      else {
        outgoing.writeHead(500, { 'Content-Type': 'text/plain; charset=utf-8', 'Cache-Control': NO_STORE });
        outgoing.end('Something went wrong on our side. Please try again.');
      }
    }
    return alreadySent();
  };
  /** Forgets the pages kept from renders and the snapshots' decisions (public content changed). */
  const clearRendered = () => {
    renderedPages.clear();
    snapshots.clear();
  };
  return Object.assign(handler, { clearRendered });
}
