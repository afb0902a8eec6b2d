/**
 * GET /api/files/download?token=...: streams a protected file (an attachment, or inline for lesson
 * media, with single byte ranges so players can seek: a ranged read of the storage port, S3's
 * GetObject with Range for uploads in a bucket), or redirects to an outside URL whose host is
 * on DOWNLOAD_HOSTS (checked by the file service when the link is opened).
 */
import { Hono } from 'hono';
import { AppError } from '../platform/errors.ts';
import type { AppEnv } from '../platform/http/context.ts';
import { requestHeader } from '../platform/http/http.ts';
import { linkToken } from '../platform/http/request.ts';
import { sendStream } from '../platform/http/respond.ts';
import type { FileService } from './service.ts';

/**
 * The one byte range a `Range` header asks for; undefined to send the whole file (no header, a unit
 * other than bytes, several ranges); 'unsatisfiable' when it lies outside the file.
 */
export function parseRange(header: string | undefined, size: number): { start: number; end: number } | 'unsatisfiable' | undefined {
  const match = header && /^bytes=(\d*)-(\d*)$/.exec(header.trim());
  if (!match || (match[1] === '' && match[2] === '')) return undefined;
  let start: number;
  let end: number;
  if (match[1] === '') {
    const suffix = Number(match[2]);
    if (suffix === 0) return 'unsatisfiable';
    start = Math.max(0, size - suffix);
    end = size - 1;
  } else {
    start = Number(match[1]);
    end = match[2] === '' ? size - 1 : Math.min(Number(match[2]), size - 1);
  }
  if (!Number.isSafeInteger(start) || !Number.isSafeInteger(end) || start >= size || start > end) return 'unsatisfiable';
  return { start, end };
}

export function createFileRoutes(files: FileService) {
  return new Hono<AppEnv>().get('/download', async (c) => {
    const token = linkToken.safeParse(c.req.query('token'));
    if (!token.success) throw new AppError('not_found', 'This download link is not valid.');
    const found = await files.resolve(token.data);
    if (found.kind === 'redirect') return c.redirect(found.url, 302);
    const name = found.name.replace(/[^\w.-]/g, '_');
    const head: Record<string, string> = {
      'Content-Type': found.contentType,
      'Content-Disposition': `${found.inline ? 'inline' : 'attachment'}; filename="${name}"`,
      'Accept-Ranges': 'bytes',
      'Cache-Control': 'private, no-store',
      'X-Robots-Tag': 'noindex',
      'Referrer-Policy': 'no-referrer',
    };
    const range = parseRange(requestHeader(c, 'range'), found.size);
    if (range === 'unsatisfiable') {
      throw new AppError('range_not_satisfiable', 'The requested range is outside the file.', {
        headers: { 'Content-Range': `bytes */${found.size}` },
      });
    }
    // Opened before the head goes out, so a file deleted meanwhile is still a clean 404.
    const body = await found.open(range);
    if (!body) throw new AppError('not_found', 'The file is no longer available.');
    if (range) {
      head['Content-Range'] = `bytes ${range.start}-${range.end}/${found.size}`;
      head['Content-Length'] = String(range.end - range.start + 1);
      return sendStream(c, 206, head, body);
    }
    head['Content-Length'] = String(found.size);
    return sendStream(c, 200, head, body);
  });
}
