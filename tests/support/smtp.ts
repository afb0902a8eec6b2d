/**
 * A real SMTP server on loopback (the `smtp-server` package) that records what it accepts, for the
 * transport, crash-safety and throughput checks. A message counts as accepted only when the server
 * has answered 250 to its DATA, as SMTP defines delivery hand-off.
 */
import type { AddressInfo } from 'node:net';
import PostalMime, { type Email } from 'postal-mime';
import { SMTPServer, type SMTPServerDataStream, type SMTPServerSession } from 'smtp-server';

export interface ReceivedMail {
  messageId: string;
  to: string[];
  raw: string;
}

export interface TestSmtpOptions {
  /** Reject RCPT TO for these addresses with a 550. */
  rejectRecipients?: string[];
  /** Called before answering DATA; resolve to accept. Lets a test hold messages "in flight". */
  beforeAccept?: (messageId: string) => Promise<void>;
  port?: number;
}

export interface TestSmtp {
  url: string;
  port: number;
  received: ReceivedMail[];
  /** DATA commands whose answer is being held by `beforeAccept`. */
  held: () => number;
  /** Client connections currently open. */
  openSessions: () => number;
  parse(mail: ReceivedMail): Promise<Email>;
  close(): Promise<void>;
}

async function readAll(stream: SMTPServerDataStream): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

export async function startTestSmtp(options: TestSmtpOptions = {}): Promise<TestSmtp> {
  const received: ReceivedMail[] = [];
  const reject = new Set((options.rejectRecipients ?? []).map((a) => a.toLowerCase()));
  let holding = 0;
  const closedSessions = new Set<string>();
  let open = 0;

  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    closeTimeout: 1000,
    size: 10 * 1024 * 1024,
    onRcptTo(address, _session, callback) {
      if (reject.has(address.address.toLowerCase())) {
        const err = Object.assign(new Error('5.1.1 <' + address.address + '>: No such user here'), { responseCode: 550 });
        return callback(err);
      }
      callback();
    },
    onConnect(_session, callback) {
      open += 1;
      callback();
    },
    onClose(session: SMTPServerSession) {
      open -= 1;
      closedSessions.add(session.id);
    },
    onData(stream, session, callback) {
      void (async () => {
        const raw = await readAll(stream);
        const messageId = /^Message-ID:\s*(<[^>]+>)/im.exec(raw)?.[1] ?? '';
        if (options.beforeAccept) {
          holding += 1;
          try {
            await options.beforeAccept(messageId);
          } finally {
            holding -= 1;
          }
        }
        // A client that went away before our answer never learned of acceptance: not delivered.
        if (closedSessions.has(session.id)) return callback(new Error('client gone'));
        received.push({ messageId, to: session.envelope.rcptTo.map((r) => r.address), raw });
        callback();
      })().catch((err: Error) => callback(err));
    },
  });
  server.on('error', () => undefined);
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, '127.0.0.1', resolve));
  const port = (server.server.address() as AddressInfo).port;
  return {
    url: `smtp://127.0.0.1:${port}`,
    port,
    received,
    held: () => holding,
    openSessions: () => open,
    parse: (mail) => PostalMime.parse(mail.raw),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
