/**
 * POST /api/upload (editors and admins, from a live session): one multipart `file` field, answering `{ url }` (the spec's
 * upload response). `?area=protected` puts a member file for a gated item in the protected area and
 * answers its key. GET /uploads/:key serves public media kept by the app (local disk, or a bucket
 * without a public URL). This route has its own size limit (UPLOAD_MAX_BYTES), checked while
 * streaming; the app's 1 MB body limit does not apply to it.
 */
import { Readable } from 'node:stream';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';
import { Hono } from 'hono';
import type { AccessTokenVerifier } from '../auth/verify.ts';
import { AppError } from '../errors.ts';
import type { AppEnv } from '../lib/context.ts';
import { requestHeader } from '../lib/http.ts';
import { sendStream } from '../lib/respond.ts';
import { identify, liveSession, requireStaff, type SessionCheck } from '../users/identity.ts';
import type { UserService } from '../users/service.ts';
import { isStorageKey } from './port.ts';
import type { UploadService } from './uploads.ts';

export const UPLOAD_PATH = '/api/upload';

export function createUploadRoutes(deps: {
  uploads: UploadService;
  verify: AccessTokenVerifier;
  users: UserService;
  sessionIsLive: SessionCheck;
}) {
  const { uploads } = deps;
  return new Hono<AppEnv>().post(UPLOAD_PATH, identify(deps), liveSession(deps.sessionIsLive), async (c) => {
    requireStaff(c, 'upload files');
    const area = c.req.query('area') ?? 'public';
    if (area !== 'public' && area !== 'protected')
      throw new AppError('validation_failed', 'area must be public or protected.', { fields: { area: ['Must be public or protected'] } });
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
  });
}

export function createMediaRoutes(uploads: UploadService, mediaPath: string) {
  return new Hono<AppEnv>().get(`${mediaPath}/:key`, async (c) => {
    const key = c.req.param('key');
    const found = isStorageKey(key) ? await uploads.open(key) : undefined;
    if (!found) throw new AppError('not_found', 'No such file.');
    return sendStream(
      c,
      200,
      {
        'Content-Type': found.contentType,
        'Content-Length': String(found.size),
        // Names are random and never reused.
        'Cache-Control': 'public, max-age=31536000, immutable',
        'X-Content-Type-Options': 'nosniff',
        // Uploaded bytes never run as a page of this site.
        'Content-Security-Policy': found.contentType === 'application/pdf' ? "default-src 'none'" : "default-src 'none'; sandbox",
      },
      found.body,
    );
  });
}
