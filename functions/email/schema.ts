/** Email shapes: the message an outbox row becomes, and provider delivery events. */
import { z } from 'zod';
import { multiLine, singleLine } from '../platform/http/request.ts';
import type { EmailRow } from './tables.ts';
import type { MailMessage } from '../platform/mail/port.ts';
import { visibleMarkup } from './preview.ts';

/** The message the mail port sends for an outbox row. */
export function toMailMessage(row: EmailRow): MailMessage {
  return {
    id: row.id,
    from: row.from,
    to: row.to,
    ...(row.replyTo ? { replyTo: row.replyTo } : {}),
    subject: row.subject,
    text: row.bodyText,
    html: row.bodyHtml,
    headers: row.headers,
    date: row.createdAt,
    ...(row.attachments.length ? { attachments: row.attachments } : {}),
  };
}

/** A delivery event from the mail provider's webhook (mapped to this shape by its adapter). */
export const DeliveryEventSchema = z.object({
  id: singleLine('id', 200).describe('Provider event id; repeated deliveries of one event are ignored.'),
  type: z.enum(['delivered', 'bounced', 'failed', 'complained']),
  messageId: singleLine('messageId', 500).describe('Message-ID of the email the event is about.'),
  occurredAt: z.coerce
    .date()
    .min(new Date('2000-01-01T00:00:00Z'), 'Must be a date after 2000')
    .max(new Date('2100-01-01T00:00:00Z'), 'Must be a date before 2100'),
  detail: multiLine('detail', 2000).optional(),
});
export type DeliveryEvent = z.infer<typeof DeliveryEventSchema>;

/**
 * The spec's "Email record" (point 3), as the admin dashboard reads it: dates as ISO strings or null.
 * Beyond the spec, `delivery` says where the outbox stands with it, so a message waiting in the queue
 * is explained: attempts made (of the most allowed), the last attempt's error, when the next one is
 * due (queued mail only) and whether a worker holds it right now; and `preview`, the body's visible
 * text and formatting as safe HTML (preview.ts), which the card shows so the page never parses the mail.
 */
export function emailRecord(row: EmailRow, now = new Date()) {
  const iso = (d: Date | null) => (d ? d.toISOString() : null);
  const queued = row.status === 'queued';
  return {
    id: row.id,
    subject: row.subject,
    body: row.bodyHtml,
    preview: visibleMarkup(row.bodyHtml),
    to: row.to,
    from: row.from,
    status: row.status,
    createdAt: row.createdAt.toISOString(),
    sentAt: iso(row.sentAt),
    deliveredAt: iso(row.deliveredAt),
    failedAt: iso(row.failedAt),
    errorMessage: row.errorMessage,
    delivery: {
      attempts: row.attempts,
      maxAttempts: row.maxAttempts,
      lastError: row.errorMessage,
      nextAttemptAt: queued ? row.nextAttemptAt.toISOString() : null,
      sending: queued && row.leaseExpiresAt !== null && row.leaseExpiresAt > now,
    },
  };
}
export type EmailRecord = ReturnType<typeof emailRecord>;
