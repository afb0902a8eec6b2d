/**
 * Mail adapters built on nodemailer. The embedded default writes each message as an .eml file into
 * a mailbox folder (delivered at once); SMTP hands messages to a server (sent on acceptance; delivery
 * is reported later through the events webhook). nodemailer is not loaded with the server: SMTP
 * loads it when the adapter is made, the mailbox with its first message.
 */
import { mkdir, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { SendMailOptions, Transporter, TransportOptions } from 'nodemailer';
import type { Logger } from '../logger.ts';
import { TransportError, type MailMessage, type MailTransport } from './port.ts';

/** The nodemailer message: both parts, our headers and a stable Message-ID. */
function toMailOptions(message: MailMessage): SendMailOptions {
  const { 'Message-ID': messageId, ...headers } = message.headers;
  return {
    from: message.from,
    to: message.to,
    ...(message.replyTo ? { replyTo: message.replyTo } : {}),
    subject: message.subject,
    text: message.text,
    html: message.html,
    headers,
    ...(messageId ? { messageId } : {}),
    date: message.date,
    ...(message.attachments?.length
      ? { attachments: message.attachments.map(({ filename, contentType, content }) => ({ filename, contentType, content })) }
      : {}),
  };
}

function classify(err: unknown): TransportError {
  const e = err as { responseCode?: number; response?: string; message?: string };
  const permanent = typeof e.responseCode === 'number' && e.responseCode >= 500 && e.responseCode < 600;
  return new TransportError(e.response ?? e.message ?? String(err), permanent);
}

/** A nodemailer transport, made when first asked for (nodemailer loads then). */
function lazyTransport(options: TransportOptions | Record<string, unknown>) {
  let made: Promise<Transporter> | undefined;
  return {
    get: () => (made ??= import('nodemailer').then(({ default: nodemailer }) => nodemailer.createTransport(options))),
    /** Closes the transport if it was ever made. */
    close: async () => {
      if (made) (await made).close();
    },
  };
}

/** Writes messages into `dir` as .eml files a person can open with any mail program. */
export function createMailboxTransport(dir: string, logger: Logger): MailTransport {
  const composer = lazyTransport({ streamTransport: true, buffer: true, newline: 'unix' });
  return {
    kind: 'mailbox',
    async send(message) {
      const info = await (await composer.get()).sendMail(toMailOptions(message));
      await mkdir(dir, { recursive: true });
      const stamp = message.date.toISOString().replace(/[:.]/g, '-');
      const file = path.join(dir, `${stamp}_${message.id}.eml`);
      // Write then rename, so a reader never sees half a message and a retry replaces, not duplicates.
      await writeFile(`${file}.tmp`, info.message as Buffer);
      await rename(`${file}.tmp`, file);
      logger.info({ emailId: message.id, to: message.to, file }, 'email written to the local mailbox');
      return { providerMessageId: info.messageId, delivered: true };
    },
    close: composer.close,
  };
}

/** Sends through an SMTP server (pooled connections). */
export function createSmtpTransport(url: string, options: { maxConnections?: number } = {}): MailTransport {
  const transport = lazyTransport({
    url,
    pool: true,
    maxConnections: options.maxConnections ?? 5,
    maxMessages: 1000,
    connectionTimeout: 10_000,
    greetingTimeout: 10_000,
    socketTimeout: 30_000,
  } as TransportOptions);
  // Loading starts now, with the adapter the configuration picked (a failure shows at the first send).
  transport.get().catch(() => undefined);
  return {
    kind: 'smtp',
    async send(message) {
      try {
        const info = await (await transport.get()).sendMail(toMailOptions(message));
        if (info.rejected?.length) throw new TransportError(`Recipient rejected: ${info.response}`, true);
        return { providerMessageId: info.messageId, delivered: false };
      } catch (err) {
        throw err instanceof TransportError ? err : classify(err);
      }
    },
    close: transport.close,
  };
}
