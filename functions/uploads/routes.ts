/**
 * POST /api/upload (editors and admins, from a live session): one multipart `file` field, answering `{ url }` (the spec's
 * upload response). `?area=protected` puts a member file for a gated item in the protected area and
 * answers its key. This route has its own size limit (UPLOAD_MAX_BYTES), checked while streaming,
 * and its own pace (UPLOAD_MIN_BYTES_PER_SECOND) instead of the fixed request time; the app's 1 MB
 * body limit does not apply to it.
 * POST /api/upload/presign and /api/upload/complete: the same upload sent straight to the bucket
 * (direct.ts); on local disk presign checks type and size and answers `{ direct: false }`.
 * GET /uploads/:key serves public media kept by the app (local disk, or a bucket without a public
 * URL), with single byte ranges so videos seek.
 */
import { Readable } from 'node:stream';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';
import { Hono } from 'hono';
import { z } from 'zod';
import { AppError } from '../platform/errors.ts';
import { parseRange } from '../files/index.ts';
import { allowSlowBody } from '../platform/http/body-deadline.ts';
import type { AppEnv } from '../platform/http/context.ts';
import { requestHeader } from '../platform/http/http.ts';
import { jsonBody, queryOf } from '../platform/http/validators.ts';
import { sendStream } from '../platform/http/respond.ts';
import type { Guards } from '../users/index.ts';
import { requireViewer } from '../users/index.ts';
import type { DirectUploads } from './direct.ts';
import { isStorageKey } from '../platform/storage/port.ts';
import type { UploadService } from './service.ts';

export const UPLOAD_PATH = '/api/upload';

const Area = z.enum(['public', 'protected']).default('public');

const PresignBody = z
  .object({
    area: Area,
    contentType: z
      .string()
      .max(100)
      .regex(/^[\w.+-]+\/[\w.+-]+$/, 'Must be a media type such as image/png'),
    size: z.number().int().min(1, 'The file is empty.').max(Number.MAX_SAFE_INTEGER),
  })
  .strict();

/** `?area`: where the file goes, public by default; anything else is refused before a byte is read. */
const areaQuery = queryOf(z.object({ area: z.enum(['public', 'protected'], { error: 'Must be public or protected' }).default('public') }), {
  code: 'validation_failed',
  message: 'area must be public or protected.',
});

const CompleteBody = z.object({ key: z.string().max(200).refine(isStorageKey, 'Not an upload key') }).strict();

export function createUploadRoutes(deps: { uploads: UploadService; directUploads: DirectUploads; guards: Guards }) {
  const { uploads, directUploads, guards } = deps;
  const { identify: who, live } = guards;
  const staff = guards.staff('upload files');
  return new Hono<AppEnv>()
    .post(UPLOAD_PATH, who, live, staff, areaQuery, async (c) => {
      const { area } = c.req.valid('query');
      // Staff from a live session only: their body may arrive slowly, at a pace rather than within a fixed time.
      allowSlowBody(c.env?.incoming, uploads.minBytesPerSecond);
      const length = requestHeader(c, 'content-length');
      // On Node the socket's own stream (a cut connection errors it); elsewhere the request's web stream.
      const body = c.env?.incoming ? undefined : c.req.raw.body;
      const source = c.env?.incoming ?? (body ? Readable.fromWeb(body as WebReadableStream<Uint8Array>) : Readable.from([]));
      const result = await uploads.receive(
        source,
        requestHeader(c, 'content-type') ?? '',
        area,
        length === undefined ? undefined : Number(length),
      );
      return c.json({ url: result.url }, 201);
    })
    .post(`${UPLOAD_PATH}/presign`, who, live, staff, jsonBody(PresignBody), async (c) => {
      const offer = await directUploads.register(requireViewer(c).id, c.req.valid('json'));
      return c.json(offer, offer.direct ? 201 : 200);
    })
    .post(`${UPLOAD_PATH}/complete`, who, live, staff, jsonBody(CompleteBody), async (c) =>
      c.json(await directUploads.complete(requireViewer(c).id, c.req.valid('json').key), 201),
    );
}

/** The upload API as the browser's typed client sees it (mounted at the root: its paths are whole). */
export type UploadRoutes = ReturnType<typeof createUploadRoutes>;

export function createMediaRoutes(uploads: UploadService, mediaPath: string) {
  return new Hono<AppEnv>().get(`${mediaPath}/:key`, async (c) => {
    const key = c.req.param('key');
    if (!isStorageKey(key)) throw new AppError('not_found', 'No such file.');
    const rangeHeader = requestHeader(c, 'range');
    // A range needs the size first; a whole file is one read.
    const info = rangeHeader ? await uploads.stat(key) : undefined;
    const range = info && parseRange(rangeHeader, info.size);
    if (range === 'unsatisfiable') {
      throw new AppError('range_not_satisfiable', 'The requested range is outside the file.', {
        headers: { 'Content-Range': `bytes */${info!.size}` },
      });
    }
    const found = await uploads.open(key, range);
    if (!found) throw new AppError('not_found', 'No such file.');
    const head: Record<string, string> = {
      'Content-Type': found.contentType,
      'Content-Length': String(range ? range.end - range.start + 1 : found.size),
      'Accept-Ranges': 'bytes',
      // Names are random and never reused.
      'Cache-Control': 'public, max-age=31536000, immutable',
      'X-Content-Type-Options': 'nosniff',
      // Uploaded bytes never run as a page of this site.
      'Content-Security-Policy': found.contentType === 'application/pdf' ? "default-src 'none'" : "default-src 'none'; sandbox",
    };
    if (range) head['Content-Range'] = `bytes ${range.start}-${range.end}/${found.size}`;
    return sendStream(c, range ? 206 : 200, head, found.body);
  });
}
