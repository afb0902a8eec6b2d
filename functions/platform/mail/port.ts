/**
 * The mail port: what the outbox worker needs from a mail service. Adapters: the embedded mailbox
 * (files a person can open), SMTP (any provider's relay) and a recording fake for tests. One is
 * picked at start-up from configuration (compose.ts); nothing else knows which.
 */

/** One message as it leaves the product, independent of how the outbox stores it. */
export interface MailMessage {
  /** Our id of the message (the outbox row); stable across retries. */
  id: string;
  from: string;
  to: string;
  replyTo?: string;
  subject: string;
  text: string;
  html: string;
  /** Extra headers, Message-ID and List-Unsubscribe among them. */
  headers: Record<string, string>;
  date: Date;
  /** Small text files sent with it (an event's .ics). */
  attachments?: MailAttachment[];
}

/** A file attached to a message, its content as text. */
export interface MailAttachment {
  filename: string;
  contentType: string;
  content: string;
}

export interface SendResult {
  providerMessageId: string;
  /** True when the transport itself completes delivery (the mailbox). */
  delivered: boolean;
}

export interface MailTransport {
  kind: 'mailbox' | 'smtp' | 'recording';
  send(message: MailMessage): Promise<SendResult>;
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
