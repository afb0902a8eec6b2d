/**
 * The recording fake of the mail port, for tests: keeps every message it is given, and can be told
 * to fail (temporarily or permanently) or to take its time, so worker behaviour is testable without
 * a mail server. The model for the payment, storage and AI fakes.
 */
import { TransportError, type MailMessage, type MailTransport } from './port.ts';

export interface RecordingTransportOptions {
  /** Report messages as delivered (like the mailbox) rather than sent (like SMTP). */
  delivered?: boolean;
  /** Decides per message whether sending fails; undefined means it succeeds. */
  fail?: (message: MailMessage, attempt: number) => TransportError | undefined;
  /** Awaited before each send completes: a delay, or a gate the test opens. */
  before?: (message: MailMessage) => Promise<void>;
}

export function createRecordingTransport(options: RecordingTransportOptions = {}) {
  const sent: MailMessage[] = [];
  const attempts = new Map<string, number>();
  let closed = false;
  const transport: MailTransport & { sent: MailMessage[]; attemptsFor(id: string): number; closed(): boolean } = {
    kind: 'recording',
    sent,
    attemptsFor: (id) => attempts.get(id) ?? 0,
    closed: () => closed,
    async send(message) {
      const attempt = (attempts.get(message.id) ?? 0) + 1;
      attempts.set(message.id, attempt);
      await options.before?.(message);
      const failure = options.fail?.(message, attempt);
      if (failure) throw failure;
      sent.push(message);
      return { providerMessageId: message.headers['Message-ID'] ?? `<${message.id}@recording>`, delivered: options.delivered ?? false };
    },
    async close() {
      closed = true;
    },
  };
  return transport;
}

/** A failure that the worker retries. */
export const temporaryFailure = (text = '451 try again later') => new TransportError(text, false);
/** A failure that the worker gives up on at once. */
export const permanentFailure = (text = '550 no such user') => new TransportError(text, true);

export type RecordingTransport = ReturnType<typeof createRecordingTransport>;
