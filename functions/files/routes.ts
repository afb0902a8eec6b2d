/** GET /api/files/download?token=...: streams a protected file as an attachment, or redirects. */
import { Hono } from 'hono';
import { AppError } from '../errors.ts';
import type { AppEnv } from '../lib/context.ts';
import { linkToken } from '../lib/request.ts';
import { sendStream } from '../lib/respond.ts';
import type { FileService } from './service.ts';

export function createFileRoutes(downloads: FileService) {
  return new Hono<AppEnv>().get('/download', async (c) => {
    const token = linkToken.safeParse(c.req.query('token'));
    if (!token.success) throw new AppError('not_found', 'This download link is not valid.');
    const found = await downloads.resolve(token.data);
    if (found.kind === 'redirect') return c.redirect(found.url, 302);
    const head = {
      'Content-Type': found.contentType,
      'Content-Length': String(found.size),
      'Content-Disposition': `attachment; filename="${found.name.replace(/[^\w.-]/g, '_')}"`,
      'Cache-Control': 'private, no-store',
      'X-Robots-Tag': 'noindex',
    };
    return sendStream(c, 200, head, found.stream);
  });
}
