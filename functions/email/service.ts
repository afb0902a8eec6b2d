/**
 * The outbox: enqueue mail inside the caller's transaction (so a change and its email commit
 * together), the admin views of the queue, resending, and delivery events from the provider.
 */
import { randomUUID } from 'node:crypto';
import type { DbOrTx } from '../platform/db/client.ts';
import type { EmailRow } from './tables.ts';
import { AppError } from '../platform/errors.ts';
import type { Logger } from '../platform/logger.ts';
import type { DeliveryEvent } from './schema.ts';
import { createEmailStore } from './store.ts';
import { renderEmail, type TemplateData, type TemplateName } from './templates/index.ts';

export interface EmailServiceDeps {
  db: DbOrTx;
  from: string;
  siteUrl: string;
  maxAttempts: number;
  logger: Logger;
}

export interface EnqueueInput<N extends TemplateName> {
  to: string;
  template: N;
  data: TemplateData<N>;
  /** The user the message is about, when there is one. */
  userId?: string;
}

/** Message-ID domain: the site's host, so retries of one email keep one Message-ID. */
function messageIdFor(id: string, siteUrl: string): string {
  return `<${id}@${new URL(siteUrl).hostname}>`;
}

export function createEmailService({ db, from, siteUrl, maxAttempts, logger }: EmailServiceDeps) {
  const store = createEmailStore(db);
  return {
    /** Renders and queues a message; pass the caller's transaction as `tx` to commit with it. */
    async enqueue<N extends TemplateName>(tx: DbOrTx, input: EnqueueInput<N>): Promise<EmailRow> {
      const rendered = renderEmail(input.template, input.data, { siteUrl });
      const id = randomUUID();
      return createEmailStore(tx).insert({
        id,
        to: input.to,
        from,
        replyTo: rendered.replyTo ?? null,
        subject: rendered.subject,
        bodyHtml: rendered.html,
        bodyText: rendered.text,
        headers: { ...rendered.headers, 'Message-ID': messageIdFor(id, siteUrl) },
        template: input.template,
        maxAttempts,
        userId: input.userId ?? null,
      });
    },

    /** Messages waiting to be sent (the dashboard's "Email Queue"), default 10. */
    queue: (limit = 10) => store.queued(limit),

    /** Messages sent, delivered or failed, newest first (the dashboard's "Recent Emails"), default 10. */
    recent: (limit = 10) => store.recent(limit),

    /** Queues a failed message for a new attempt and returns the updated record. */
    async resend(id: string): Promise<EmailRow> {
      const existing = /^[0-9a-f-]{36}$/i.test(id) ? await store.findById(id) : undefined;
      if (!existing) throw new AppError('not_found', 'No email with that id.');
      if (existing.status !== 'failed') throw new AppError('conflict', `Only failed emails can be resent; this one is ${existing.status}.`);
      const requeued = await store.requeue(id);
      if (!requeued) throw new AppError('conflict', 'The email changed meanwhile; refresh and try again.');
      logger.info({ emailId: id }, 'email queued again');
      return requeued;
    },

    /**
     * Applies a provider's delivery event once (by event id), in any order: delivery never
     * overrides a later failure report, and a bounce after delivery marks the message failed.
     */
    async applyEvent(event: DeliveryEvent): Promise<{ applied: boolean }> {
      const email = await store.findByProviderId(event.messageId);
      const fresh = await store.recordEvent({
        eventId: event.id,
        emailId: email?.id ?? null,
        type: event.type,
        ...(event.detail ? { detail: event.detail } : {}),
        occurredAt: event.occurredAt,
      });
      if (!fresh || !email) return { applied: false };
      if (event.type === 'delivered' && email.status === 'sent') {
        await store.update(email.id, { status: 'delivered', deliveredAt: event.occurredAt });
      } else if (event.type !== 'delivered' && email.status !== 'failed' && email.status !== 'queued') {
        await store.update(email.id, {
          status: 'failed',
          failedAt: event.occurredAt,
          errorMessage: event.detail ?? `Provider reported: ${event.type}`,
        });
      }
      return { applied: true };
    },
  };
}

export type EmailService = ReturnType<typeof createEmailService>;
