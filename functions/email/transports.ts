/**
 * Mail transports behind one interface. The embedded default writes each message as an .eml file
 * into a mailbox folder (delivered at once); SMTP hands messages to a server through nodemailer
 * (sent on acceptance; delivery is reported later through the events webhook).
 */
import { mkdir, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';
import nodemailer, { type SendMailOptions, type TransportOptions } from 'nodemailer';
import type { EmailRow } from '../db/schema.ts';
import type { Logger } from '../lib/logger.ts';

export interface SendResult {
  providerMessageId: string;
  /** True when the transport itself completes delivery (the mailbox). */
  delivered: boolean;
}

export interface MailTransport {
  kind: 'mailbox' | 'smtp';
  send(email: EmailRow): Promise<SendResult>;
  close(): Promise<void>;
}

/** A send failure; permanent ones (5xx, rejected recipient) are not retried. */
export class TransportError extends Error {
  readonly permanent: boolean;
  constructor(message: string, permanent: boolean) {
    super(message);
    this.name = 'TransportError';
    this.permanent = permanent;
  }
}

/** The nodemailer message for an outbox row: both parts, our headers and a stable Message-ID. */
export function toMailOptions(email: EmailRow): SendMailOptions {
  const { 'Message-ID': messageId, ...headers } = email.headers;
  return {
    from: email.from,
    to: email.to,
    ...(email.replyTo ? { replyTo: email.replyTo } : {}),
    subject: email.subject,
    text: email.bodyText,
    html: email.bodyHtml,
    headers,
    ...(messageId ? { messageId } : {}),
    date: email.createdAt,
  };
}

function classify(err: unknown): TransportError {
  const e = err as { responseCode?: number; response?: string; message?: string; code?: string };
  const permanent = typeof e.responseCode === 'number' && e.responseCode >= 500 && e.responseCode < 600;
  return new TransportError(e.response ?? e.message ?? String(err), permanent);
}

/** Writes messages into `dir` as .eml files a person can open with any mail program. */
export function createMailboxTransport(dir: string, logger: Logger): MailTransport {
  const composer = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'unix' });
  return {
    kind: 'mailbox',
    async send(email) {
      const info = await composer.sendMail(toMailOptions(email));
      await mkdir(dir, { recursive: true });
      const stamp = email.createdAt.toISOString().replace(/[:.]/g, '-');
      const file = path.join(dir, `${stamp}_${email.id}.eml`);
      // Write then rename, so a reader never sees half a message and a retry replaces, not duplicates.
      await writeFile(`${file}.tmp`, info.message as Buffer);
      await rename(`${file}.tmp`, file);
      logger.info({ emailId: email.id, to: email.to, file }, 'email written to the local mailbox');
      return { providerMessageId: info.messageId, delivered: true };
    },
    close: async () => composer.close(),
  };
}

/** Sends through an SMTP server (pooled connections). */
export function createSmtpTransport(url: string, options: { maxConnections?: number } = {}): MailTransport {
  const transport = nodemailer.createTransport({
    url,
    pool: true,
    maxConnections: options.maxConnections ?? 5,
    maxMessages: 1000,
    connectionTimeout: 10_000,
    greetingTimeout: 10_000,
    socketTimeout: 30_000,
  } as TransportOptions);
  return {
    kind: 'smtp',
    async send(email) {
      try {
        const info = await transport.sendMail(toMailOptions(email));
        if (info.rejected?.length) throw new TransportError(`Recipient rejected: ${info.response}`, true);
        return { providerMessageId: info.messageId, delivered: false };
      } catch (err) {
        throw err instanceof TransportError ? err : classify(err);
      }
    },
    close: async () => transport.close(),
  };
}
