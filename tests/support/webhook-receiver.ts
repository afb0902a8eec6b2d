/**
 * A local webhook receiver for the outbound webhook suites: a node:http server on 127.0.0.1 that
 * records every request (headers and raw body) and answers as the test says (a status, a redirect,
 * an answer that never comes in time), plus a Standard Webhooks check with the reference library.
 */
import { createServer, type IncomingHttpHeaders, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';

export interface Received {
  headers: IncomingHttpHeaders;
  body: string;
}

/** How the receiver answers one request. */
export type Responder = (req: Received, res: ServerResponse) => void;

export const answerWith =
  (status: number, headers: Record<string, string> = {}): Responder =>
  (_req, res) => {
    res.writeHead(status, headers);
    res.end(status >= 400 ? 'receiver says no' : 'ok');
  };

export async function startReceiver(respond: Responder = answerWith(204)) {
  const received: Received[] = [];
  let responder = respond;
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const got = { headers: req.headers, body: Buffer.concat(chunks).toString('utf8') };
      received.push(got);
      responder(got, res);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hooks`,
    port,
    received,
    /** Answers from now on with `next`. */
    answer(next: Responder) {
      responder = next;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** The body a request carries when `secret` verifies its Standard Webhooks headers (the reference library); throws otherwise. */
export function verified(secret: string, got: Received): { type: string; timestamp: string; data: Record<string, unknown> } {
  const headers = {
    'webhook-id': String(got.headers['webhook-id']),
    'webhook-timestamp': String(got.headers['webhook-timestamp']),
    'webhook-signature': String(got.headers['webhook-signature']),
  };
  return new Webhook(secret).verify(got.body, headers) as { type: string; timestamp: string; data: Record<string, unknown> };
}
