/** GET /api/files/download?token=...: streams a protected file as an attachment, or redirects. */
import { Readable } from 'node:stream';
import { Hono } from 'hono';
import type { Downloads } from './service.ts';

export function createFileRoutes(downloads: Downloads) {
  return new Hono().get('/download', async (c) => {
    const found = await downloads.resolve(c.req.query('token') ?? '');
    if (found.kind === 'redirect') return c.redirect(found.url, 302);
    const body = Readable.toWeb(found.stream as Readable) as unknown as ReadableStream;
    return c.body(body, 200, {
      'Content-Type': found.contentType,
      'Content-Length': String(found.size),
      'Content-Disposition': `attachment; filename="${found.name.replace(/[^\w.-]/g, '_')}"`,
      'Cache-Control': 'private, no-store',
      'X-Robots-Tag': 'noindex',
    });
  });
}
