/** The support desk's request bodies and queries (zod): JSON, or the same fields in a multipart form with an attachment. */
import { z } from 'zod';
import { REQUEST_STATUSES } from '#shared/support/targets.ts';
import { multiLine, singleLine, visibleText } from '../platform/http/request.ts';

/** Longest message, in characters. */
export const MESSAGE_MAX = 10_000;

/** A boolean from JSON, or "true"/"false" from a form field. */
const flag = z.union([z.boolean(), z.enum(['true', 'false']).transform((v) => v === 'true')]);

/** POST /api/support/requests: a new request (the stable `{ subject, message }`). */
export const OpenRequestSchema = z
  .object({
    /** One line, as in a mail subject (without characters that make it read backwards: `#shared/visible-text.ts`). */
    subject: visibleText(singleLine('Subject', 150)),
    /** The first message: plain text, shown as written (never as HTML). */
    message: visibleText(multiLine('Message', MESSAGE_MAX)),
  })
  .strict();
export type OpenRequest = z.infer<typeof OpenRequestSchema>;

/** POST /api/support/requests/{id}/messages: a reply; staff may make it an internal note and set the status with it. */
export const ReplySchema = z
  .object({
    body: visibleText(multiLine('Message', MESSAGE_MAX)),
    /** Staff only: a note other staff see and the member never does. */
    internal: flag.optional(),
    /** Staff only: the status after this reply (a staff reply leaves the request waiting on the member by default). */
    status: z.enum(REQUEST_STATUSES).optional(),
  })
  .strict();
export type Reply = z.infer<typeof ReplySchema>;

/**
 * A file sent straight to storage first (POST /api/support/attachments, then a PUT to the bucket),
 * named in a JSON message instead of travelling in a multipart one: its key, and the file name to show.
 */
const AttachmentRef = z
  .object({
    key: z
      .string()
      .max(200)
      .regex(/^[0-9a-f]{32}\.[a-z0-9]{1,10}$/, 'Not an attachment key'),
    name: z.string().min(1).max(1000),
  })
  .strict();

/** The JSON forms of the two messages, which may name an attachment sent straight to storage. */
export const OpenRequestJsonSchema = OpenRequestSchema.extend({ attachment: AttachmentRef.optional() }).strict();
export const ReplyJsonSchema = ReplySchema.extend({ attachment: AttachmentRef.optional() }).strict();

/** POST /api/support/attachments: a file to send straight to storage, its type and size declared first. */
export const AttachmentOfferSchema = z
  .object({
    contentType: z
      .string()
      .max(100)
      .regex(/^[\w.+-]+\/[\w.+-]+$/, 'Must be a media type such as image/png'),
    size: z.number().int().min(1),
  })
  .strict();

/** PATCH /api/support/requests/{id} (staff): the status, the assignee (a staff member, or null for nobody), or both. */
export const UpdateRequestSchema = z
  .object({
    status: z.enum(REQUEST_STATUSES).optional(),
    assigneeId: z.uuid('Not a staff member').nullable().optional(),
  })
  .strict()
  .refine((v) => v.status !== undefined || v.assigneeId !== undefined, 'Send a status, an assignee or both');
export type UpdateRequest = z.infer<typeof UpdateRequestSchema>;

/** GET /api/support/requests: which requests (staff's filter; members always get their own), a page cursor and size. */
export const ListQuerySchema = z.object({
  status: z.enum([...REQUEST_STATUSES, 'active', 'all']).default('all'),
  /** `own`: the caller's own requests whatever their role (the account page asks so). */
  scope: z.enum(['own', 'all']).default('all'),
  cursor: z
    .string()
    .max(200)
    .regex(/^[A-Za-z0-9_-]+$/, 'Not a page cursor')
    .optional(),
  limit: z.coerce.number().int().min(1).max(100).default(50),
});
export type ListQuery = z.infer<typeof ListQuerySchema>;
