/** The mail port and its adapters; `pickMailTransport` chooses one from configuration at start-up. */
import type { Logger } from '../logger.ts';
import { createMailboxTransport, createSmtpTransport } from './nodemailer.ts';
import type { MailTransport } from './port.ts';

export { createMailboxTransport, createSmtpTransport } from './nodemailer.ts';
export { TransportError, type MailAttachment, type MailMessage, type MailTransport, type SendResult } from './port.ts';

/** SMTP when a server is configured, else the embedded mailbox folder. */
export function pickMailTransport(email: { smtpUrl?: string; mailboxDir: string; concurrency: number }, logger: Logger): MailTransport {
  return email.smtpUrl
    ? createSmtpTransport(email.smtpUrl, { maxConnections: Math.min(10, email.concurrency) })
    : createMailboxTransport(email.mailboxDir, logger);
}
