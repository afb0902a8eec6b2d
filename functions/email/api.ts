/**
 * /api/email, mounted once (functions/api.ts): the mail service's signed delivery events (routes.ts)
 * and the staff dashboard's queue, recent list and resend (admin-routes.ts), at the spec's own paths.
 */
import { Hono } from 'hono';
import type { AppEnv } from '../platform/http/context.ts';
import type { WebhookInbox } from '../platform/webhooks/index.ts';
import type { Guards } from '../users/index.ts';
import { createEmailAdminRoutes } from './admin-routes.ts';
import { createEmailEventRoutes } from './routes.ts';
import type { EmailService } from './service.ts';

export interface EmailApiDeps {
  outbox: EmailService;
  inbox: WebhookInbox;
  /** The delivery events' signing secret; unset, events are refused. */
  secret?: string;
  guards: Guards;
}

export function createEmailApi({ outbox, inbox, secret, guards }: EmailApiDeps) {
  return new Hono<AppEnv>()
    .route('/', createEmailEventRoutes({ outbox, inbox, ...(secret === undefined ? {} : { secret }) }))
    .route('/', createEmailAdminRoutes({ outbox, guards }));
}
