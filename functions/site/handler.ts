/**
 * Serves the Astro build on the API's port: prebuilt files from dist/client (hashed assets cached for
 * a year, everything else revalidated by ETag, precompressed variants when present), on-demand pages
 * through Astro's Node handler, and the prebuilt 404 page for everything else.
 */
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import type { IncomingMessage, ServerResponse } from 'node:http';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { HttpBindings } from '@hono/node-server';
import { RESPONSE_ALREADY_SENT } from '@hono/node-server/utils/response';
import type { Context } from 'hono';
import sirv from 'sirv';
import type { Logger } from '../lib/logger.ts';

export const IMMUTABLE = 'public, max-age=31536000, immutable';
export const REVALIDATE = 'public, max-age=0, must-revalidate';

type AstroHandler = (
  req: IncomingMessage,
  res: ServerResponse,
  next: (err?: unknown) => void,
  locals?: object,
) => Promise<void>;

export interface SiteHandlerOptions {
  distDir: string;
  /** Passed to on-demand pages as Astro.locals. */
  locals: object;
  /** Headers added to every page and file response. */
  headers: Record<string, string>;
  logger: Logger;
}

/** Whether a request path's percent-encoding is valid (Astro would log an error for it). */
function decodable(url: string): boolean {
  try {
    decodeURIComponent(url.split('?')[0] ?? '');
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
  if (!existsSync(path.join(distDir, 'server', 'entry.mjs')) || !existsSync(path.join(distDir, 'client'))) {
    throw new MissingBuildError(distDir);
  }
}

export async function createSiteHandler({ distDir, locals, headers, logger }: SiteHandlerOptions) {
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
    setHeaders: (res, pathname) => {
      res.setHeader('Cache-Control', pathname.startsWith('/_astro/') ? IMMUTABLE : REVALIDATE);
    },
  });

  const sendNotFound = (req: IncomingMessage, res: ServerResponse, status = 404) => {
    res.writeHead(status, {
      'Content-Type': 'text/html; charset=utf-8',
      'Content-Length': notFoundPage.length,
      'Cache-Control': 'no-store',
    });
    res.end(req.method === 'HEAD' ? undefined : notFoundPage);
  };

  const serve = (req: IncomingMessage, res: ServerResponse) =>
    new Promise<void>((resolve, reject) => {
      res.once('finish', resolve);
      res.once('close', resolve);
      const toAstro = () => {
        astro
          .handler(req, res, (err) => (err ? reject(err) : sendNotFound(req, res)), locals)
          .catch(reject);
      };
      if (req.method === 'GET' || req.method === 'HEAD') files(req, res, toAstro);
      else toAstro();
    });

  return async (c: Context<{ Bindings: HttpBindings }>) => {
    const { incoming, outgoing } = c.env;
    const url = c.req.path;
    // One canonical form per page: "/blog/" redirects to "/blog".
    if (url.length > 1 && url.endsWith('/') && (c.req.method === 'GET' || c.req.method === 'HEAD')) {
      const query = c.req.url.includes('?') ? c.req.url.slice(c.req.url.indexOf('?')) : '';
      return c.redirect(`/${url.replace(/^\/+|\/+$/g, '')}${query}`, 301);
    }
    for (const [name, value] of Object.entries(headers)) outgoing.setHeader(name, value);
    if (!decodable(incoming.url ?? '/')) {
      sendNotFound(incoming, outgoing, 400);
      return RESPONSE_ALREADY_SENT;
    }
    try {
      await serve(incoming, outgoing);
    } catch (err) {
      logger.error({ err, path: url }, 'page rendering failed');
      if (!outgoing.headersSent) {
        outgoing.writeHead(500, { 'Content-Type': 'text/plain; charset=utf-8' });
        outgoing.end('Internal Server Error');
      }
    }
    return RESPONSE_ALREADY_SENT;
  };
}
