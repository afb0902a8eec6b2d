/**
 * POST /api/email/events: delivery reports from the mail provider (thin: verify, parse, apply).
 * Signed with HMAC-SHA256 of the raw body under EMAIL_WEBHOOK_SECRET, sent as
 * `X-Webhook-Signature: sha256=<hex>`; one event or an array. Each event applies once (by id),
 * through the shared signed-webhook path (functions/platform/webhooks/).
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import { Hono } from 'hono';
import { z } from 'zod';
import { AppError, fieldErrors } from '../platform/errors.ts';
import type { AppEnv } from '../platform/http/context.ts';
import { signedWebhookHandler, type WebhookInbox } from '../platform/webhooks/index.ts';
import { WellFormed } from '../platform/http/request.ts';
import { DeliveryEventSchema } from './schema.ts';
import type { EmailService } from './service.ts';

const EventsSchema = z.union([DeliveryEventSchema, z.array(DeliveryEventSchema).max(500)]);

/**
 * The segment after /api/email in POST paths: `events` (this webhook) or an email id (the
 * dashboard's POST /api/email/{id}/resend, admin-routes.ts). Hono's RegExpRouter cannot hold a
 * literal segment and a parameter side by side for one method, so both routes share this pattern.
 */
export const EMAIL_POST_SEGMENT = ':segment{events|[0-9a-fA-F-]{36}}';

export function signWebhook(secret: string, body: string): string {
  return `sha256=${createHmac('sha256', secret).update(body).digest('hex')}`;
}

function verified(secret: string, body: string, header: string | undefined): boolean {
  if (!header) return false;
  const expected = Buffer.from(signWebhook(secret, body));
  const given = Buffer.from(header);
  return expected.length === given.length && timingSafeEqual(expected, given);
}

export function createEmailEventRoutes({ outbox, inbox, secret }: { outbox: EmailService; inbox: WebhookInbox; secret?: string }) {
  const receive = signedWebhookHandler({
    source: 'email',
    inbox,
    verify: async (body, c) => {
      if (!secret) throw new AppError('not_found', 'Delivery events are not enabled (set EMAIL_WEBHOOK_SECRET).');
      if (!verified(secret, body, c.req.header('x-webhook-signature'))) {
        throw new AppError('unauthorized', 'The webhook signature is missing or wrong.');
      }
      let json: unknown;
      try {
        json = JSON.parse(body);
      } catch {
        throw new AppError('bad_request', 'The request body is not valid JSON.');
      }
      const parsed = WellFormed.pipe(EventsSchema).safeParse(json);
      if (!parsed.success) throw new AppError('validation_failed', 'The event is not valid.', { fields: fieldErrors(parsed.error) });
      return Array.isArray(parsed.data) ? parsed.data : [parsed.data];
    },
    apply: async (event) => (await outbox.applyEvent(event)).applied,
  });
  return new Hono<AppEnv>().post(`/${EMAIL_POST_SEGMENT}`, (c) => {
    if (c.req.param('segment') !== 'events') throw new AppError('not_found', 'No such API endpoint.');
    return receive(c);
  });
}
