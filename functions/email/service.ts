/**
 * The outbox: enqueue mail inside the caller's transaction (so a change and its email commit
 * together), the admin views of the queue, resending, and delivery events from the provider.
 */
import { randomUUID } from 'node:crypto';
import type { DbOrTx } from '../platform/db/client.ts';
import type { EmailAttachment, EmailRow } from './tables.ts';
import { AppError } from '../platform/errors.ts';
import type { Logger } from '../platform/logger.ts';
import type { DeliveryEvent } from './schema.ts';
import { createEmailStore, type EmailStore } from './store.ts';
import { renderEmail, type TemplateData, type TemplateName } from './templates/index.ts';
import type { RenderedEmail } from './templates/rendered.ts';

export type { MailTally } from './store.ts';

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
  /** Small text files sent with it (an event's calendar file). */
  attachments?: EmailAttachment[];
  /** Not sent before this time (a gift's delivery date). */
  notBefore?: Date | undefined;
}

/** Message-ID domain: the site's host, so retries of one email keep one Message-ID. */
function messageIdFor(id: string, siteUrl: string): string {
  return `<${id}@${new URL(siteUrl).hostname}>`;
}

/** One recipient of a message rendered once for many (a newsletter issue's copies). */
export interface CopyRecipient {
  to: string;
  /** What replaces the message's placeholder in this copy (the recipient's own link token). */
  fill: string;
  userId?: string;
  /** Not sent before this time (a send rate spreads an issue's copies); now by default. */
  notBefore?: Date;
}

/** How `enqueueCopies` files the copies. */
export interface CopyOptions {
  /** Bulk mail (a newsletter issue) waits behind transactional mail; default false. */
  bulk?: boolean;
  /** The set the copies belong to, for `tally` (`newsletter:<issue id>`). */
  batch?: string;
}

/** A bounce or complaint the provider reported about a message: the address should get no more bulk mail. */
export interface DeliveryReport {
  to: string;
  type: 'bounced' | 'complained';
  detail: string | null;
  /** The message reported on, and the batch it belongs to (null: none). */
  emailId: string;
  batch: string | null;
}

/** What the outbox tells the domains built after it, connected by compose.ts (`outbox.connect`). */
export interface EmailHooks {
  /** A bounce or complaint arrived for one of our messages (the newsletter suppresses the address); idempotent, as a report may repeat. */
  onReport: (tx: DbOrTx, report: DeliveryReport) => Promise<void>;
}

/** What the service's parts share: its dependencies, its store, and the hooks once connected. */
interface EmailParts extends EmailServiceDeps {
  store: EmailStore;
  connected: { hooks?: EmailHooks };
}
/** Messages queued: one rendered here, or copies of one rendered by the caller; tallies and withdrawals. */
function queueing({ from, siteUrl, maxAttempts, store }: EmailParts) {
  return {
    /**
     * Queues one message, rendered once by the caller, to many recipients inside `tx`: each copy is
     * `rendered` with `placeholder` replaced by that recipient's `fill` (their own link token), which
     * the database does in multi-row inserts (a newsletter issue renders each cut once). Answers the
     * new messages' ids, in the recipients' order.
     */
    async enqueueCopies(
      tx: DbOrTx,
      template: TemplateName,
      rendered: RenderedEmail,
      placeholder: string,
      recipients: CopyRecipient[],
      { bulk = false, batch }: CopyOptions = {},
    ): Promise<string[]> {
      const copies = recipients.map((r) => ({
        id: randomUUID(),
        to: r.to,
        fill: r.fill,
        userId: r.userId ?? null,
        notBefore: r.notBefore ?? null,
      }));
      const message = {
        subject: rendered.subject,
        html: rendered.html,
        text: rendered.text,
        headers: rendered.headers ?? {},
        from,
        replyTo: rendered.replyTo ?? null,
        template,
        maxAttempts,
        messageIdHost: new URL(siteUrl).hostname,
        bulk,
        batch: batch ?? null,
      };
      await createEmailStore(tx).insertCopies(message, placeholder, copies);
      return copies.map((c) => c.id);
    },

    /** Where the messages of each batch stand (queued, sent or delivered, failed), in one query; a batch with none is absent. */
    tally: (batches: string[]) => store.tally(batches),

    /**
     * Fails the bulk mail still queued to `address` inside `tx` (a bounce, a complaint or an
     * unsubscribe arrived mid-send), with `reason` as its error; answers the withdrawn messages.
     */
    withdrawBulk: (tx: DbOrTx, address: string, reason: string) => createEmailStore(tx).withdrawBulk(address, reason),

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
        ...(input.attachments?.length ? { attachments: input.attachments } : {}),
        ...(input.notBefore ? { nextAttemptAt: input.notBefore } : {}),
      });
    },
  };
}

/** What staff see and do after (the queue, recent mail, a resend) and the provider's delivery events. */
function afterSending({ db, logger, store, connected }: EmailParts) {
  return {
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
      const { hooks } = connected;
      const email = await store.findByProviderId(event.messageId);
      const fresh = await store.recordEvent({
        eventId: event.id,
        emailId: email?.id ?? null,
        type: event.type,
        ...(event.detail ? { detail: event.detail } : {}),
        occurredAt: event.occurredAt,
      });
      // Told on every report, a repeated one too (the hook is idempotent): a report whose hook failed is not lost when the provider retries.
      if (email && hooks && (event.type === 'bounced' || event.type === 'complained')) {
        const { onReport } = hooks;
        const report: DeliveryReport = {
          to: email.to,
          type: event.type,
          detail: event.detail ?? null,
          emailId: email.id,
          batch: email.batch,
        };
        await db.transaction((tx) => onReport(tx, report));
      }
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

export function createEmailService(options: EmailServiceDeps) {
  const deps: EmailParts = { ...options, store: createEmailStore(options.db), connected: {} };
  return {
    /** Connects the hooks (compose.ts, once every service exists); reports arriving before do nothing more. */
    connect(next: EmailHooks): void {
      deps.connected.hooks = next;
    },
    ...queueing(deps),
    ...afterSending(deps),
  };
}

export type EmailService = ReturnType<typeof createEmailService>;
