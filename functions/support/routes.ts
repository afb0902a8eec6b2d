/**
 * The support desk's API (`/api/support`). Members: their own requests (list, open, read, reply) and
 * their attachments; staff (editors and admins): every request (the queue), the same reads and
 * replies plus internal notes, the status and the assignee, and who may be assigned. Another member's
 * request answers 404, as an unknown id does. Writes need a live session; members' reads of their own
 * requests accept the token's signature, staff's reads of other people's requests need a live session.
 * Messages may come as JSON or as multipart/form-data with one `attachment` (streamed under its own
 * limit, so the app's JSON body limit does not apply to those bodies: `streamsOwnBody`). With a bucket,
 * the file goes straight to it instead (`POST /attachments` answers a presigned PUT, as staff uploads
 * do) and the JSON message names it; the first message to name it takes it. Every answer is private
 * (`identify`).
 */
import { Readable } from 'node:stream';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';
import { Hono } from 'hono';
import { allowSlowBody } from '../platform/http/body-deadline.ts';
import type { z } from 'zod';
import { isStaff } from '#shared/access.ts';
import { AppError, fieldErrors } from '../platform/errors.ts';
import type { AppContext, AppEnv, AppMiddleware } from '../platform/http/context.ts';
import { requestHeader } from '../platform/http/http.ts';
import { pathId, readBody, WellFormed } from '../platform/http/request.ts';
import { bodyWhenAsked, jsonBody, pathParams, queryOf, type FormText } from '../platform/http/validators.ts';
import { sendStream } from '../platform/http/respond.ts';
import type { ClaimedFile, UploadOffer } from '../uploads/index.ts';
import type { Guards } from '../users/index.ts';
import { requireViewer } from '../users/index.ts';
import type { Viewer } from '../users/index.ts';
import { attachmentDisposition, cleanFileName, type Attachments, type StoredAttachment } from './attachments.ts';
import {
  AttachmentOfferSchema,
  ListQuerySchema,
  OpenRequestJsonSchema,
  OpenRequestSchema,
  ReplyJsonSchema,
  ReplySchema,
  UpdateRequestSchema,
} from './schema.ts';
import type { SupportService } from './service.ts';

/** Where the support API is mounted (functions/app.ts). */
export const SUPPORT_PATH = '/api/support';

const isMultipart = (contentType: string | undefined) => /^multipart\/form-data\b/i.test(contentType ?? '');

/**
 * Whether a write streams its own body under the attachment limit: a multipart message to open a
 * request or reply. The app's body limit skips these; JSON bodies keep it.
 */
export function streamsOwnBody(path: string, contentType: string | undefined): boolean {
  return isMultipart(contentType) && /^\/api\/support\/requests(\/[0-9a-fA-F-]{36}\/messages)?$/.test(path);
}

const requestId = (c: AppContext) => pathId(c, 'id', 'No such support request.');

/** A member's attachments registered per hour (each a row until it is sent or pruned). */
export const ATTACHMENT_OFFER_LIMIT = { name: 'support:attachment-offer:user', max: 60, windowSeconds: 3600 };

/**
 * Attachments sent straight to storage (the uploads domain's direct uploads, in support's own area):
 * where to send a file, or `{ direct: false }` to send it in the message; and the checked file for a
 * key this member registered, taken once.
 */
export interface DirectAttachments {
  offer(userId: string, contentType: string, size: number): Promise<UploadOffer>;
  claim(userId: string, key: string): Promise<ClaimedFile>;
}

/** What reading a message needs: where a multipart attachment is stored, and the files sent straight to storage. */
interface MessageParts {
  attachments: Attachments;
  direct: DirectAttachments;
}

/**
 * A message body as JSON (naming a file already sent straight to storage, or none), or as a
 * multipart form with an attachment (stored at once, removed again when the fields are refused).
 */
async function readMessage<S extends z.ZodType, J extends z.ZodType<z.output<S> & { attachment?: { key: string; name: string } }>>(
  c: AppContext,
  schema: S,
  jsonSchema: J,
  { attachments, direct }: MessageParts,
): Promise<{ input: z.output<S>; attachment?: StoredAttachment }> {
  const type = requestHeader(c, 'content-type');
  if (!isMultipart(type)) {
    const { attachment: ref, ...input } = (await readBody(c, jsonSchema)) as z.output<J>;
    if (!ref) return { input: input as z.output<S> };
    const file = await direct.claim(requireViewer(c).id, ref.key);
    return {
      input: input as z.output<S>,
      attachment: { key: file.key, name: cleanFileName(ref.name, file.contentType), type: file.contentType, size: file.size },
    };
  }
  // A member from a live session, whose request (for a reply) is theirs and who is within their
  // limit: a file may arrive at a pace, like staff uploads, rather than within the fixed time.
  allowSlowBody(c.env?.incoming, attachments.minBytesPerSecond);
  const length = requestHeader(c, 'content-length');
  // On Node the socket's own stream (a cut connection errors it); elsewhere the request's web stream.
  const body = c.env?.incoming ? undefined : c.req.raw.body;
  const source = c.env?.incoming ?? (body ? Readable.fromWeb(body as WebReadableStream<Uint8Array>) : Readable.from([]));
  const form = await attachments.receive(source, type ?? '', length === undefined ? undefined : Number(length));
  const parsed = WellFormed.pipe(schema).safeParse(form.fields);
  if (!parsed.success) {
    if (form.attachment) await attachments.remove([form.attachment.key]).catch(() => undefined);
    throw new AppError('validation_failed', 'Some fields are not valid.', { fields: fieldErrors(parsed.error) });
  }
  return { input: parsed.data, ...(form.attachment ? { attachment: form.attachment } : {}) };
}

/**
 * A message as the route takes it (JSON, or multipart with the file as `attachment`), read when the
 * handler asks: after the checks that keep a file from being stored for nothing.
 */
const messageBody =
  (parts: MessageParts) =>
  <S extends z.ZodType<object>, J extends z.ZodType<z.output<S> & { attachment?: { key: string; name: string } }>>(
    schema: S,
    jsonSchema: J,
  ) =>
    bodyWhenAsked<
      { json?: z.input<J>; form?: FormText<z.input<S>> & { attachment: File } },
      { input: z.output<S>; attachment?: StoredAttachment }
    >((c) => readMessage(c, schema, jsonSchema, parts));

export function createSupportRoutes({
  support,
  attachments,
  direct,
  limiter,
  guards,
}: {
  support: SupportService;
  attachments: Attachments;
  direct: DirectAttachments;
  limiter: { enforce(limits: [typeof ATTACHMENT_OFFER_LIMIT, string][]): Promise<void> };
  guards: Guards;
}) {
  const { identify, member, live } = guards;
  const staff = guards.staff('manage support requests');
  /** Staff reading other members' requests: only from a session still signed in. */
  const reader = async (c: AppContext): Promise<Viewer> => (isStaff(requireViewer(c).role) ? guards.requireLive(c) : requireViewer(c));

  /** `reader` as a guard, before the query is read. */
  const readers: AppMiddleware = async (c, next) => {
    await reader(c);
    await next();
  };
  const message = messageBody({ attachments, direct });

  return new Hono<AppEnv>()
    .get('/requests', identify, member, readers, queryOf(ListQuerySchema), async (c) =>
      c.json(await support.list(requireViewer(c), c.req.valid('query'))),
    )
    .post('/attachments', identify, live, jsonBody(AttachmentOfferSchema), async (c) => {
      const viewer = requireViewer(c);
      const { contentType, size } = c.req.valid('json');
      await limiter.enforce([[ATTACHMENT_OFFER_LIMIT, viewer.id]]);
      const offer = await direct.offer(viewer.id, contentType, size);
      return c.json(offer, offer.direct ? 201 : 200);
    })
    .post('/requests', identify, live, message(OpenRequestSchema, OpenRequestJsonSchema), async (c) => {
      await support.mayOpen(requireViewer(c));
      const { input, attachment } = await c.req.valid('json')();
      return c.json(await support.open(requireViewer(c), input, attachment), 201);
    })
    .get('/requests/:id', identify, member, async (c) => c.json(await support.get(await reader(c), requestId(c))))
    .patch(
      '/requests/:id',
      identify,
      staff,
      live,
      pathParams((c) => ({ id: requestId(c) })),
      jsonBody(UpdateRequestSchema),
      async (c) => c.json(await support.update(requireViewer(c), c.req.valid('param').id, c.req.valid('json'))),
    )
    .post('/requests/:id/messages', identify, live, message(ReplySchema, ReplyJsonSchema), async (c) => {
      const id = requestId(c);
      // Before the body is read: a file is never stored for someone else's request or past the limit.
      await support.mayReply(requireViewer(c), id);
      const { input, attachment } = await c.req.valid('json')();
      return c.json(await support.reply(requireViewer(c), id, input, attachment), 201);
    })
    .get('/requests/:id/messages/:messageId/attachment', identify, member, async (c) => {
      const viewer = await reader(c);
      const file = await support.attachment(viewer, requestId(c), pathId(c, 'messageId', 'No such attachment.'));
      return sendStream(
        c,
        200,
        {
          'Content-Type': file.type,
          'Content-Length': String(file.size),
          // Saved, never shown as a page of this site, whatever the bytes say.
          'Content-Disposition': attachmentDisposition(file.name),
          'X-Content-Type-Options': 'nosniff',
          'Content-Security-Policy': "default-src 'none'; sandbox",
          'Cache-Control': 'private, no-store',
        },
        file.body,
      );
    })
    .get('/staff', identify, staff, live, async (c) => c.json(await support.staff()));
}

/** The support API as the browser's typed client (hono/client) sees it. */
export type SupportRoutes = ReturnType<typeof createSupportRoutes>;
