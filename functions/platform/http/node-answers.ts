/**
 * Answers written to Node directly (part of the one response path, see respond.ts): the marker a
 * handler returns after writing Node's response itself, the app's fetch that keeps that marker
 * through HEAD, the close after a failure once the head went out, and streamed files.
 */
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { Readable as NodeReadable } from 'node:stream';
import type { Http2Bindings, HttpBindings } from '@hono/node-server';
import { RESPONSE_ALREADY_SENT } from '@hono/node-server/utils/response';
import type { Hono } from 'hono';
import { REQUEST_ID_HEADER } from './answer-headers.ts';
import type { AppContext, AppEnv } from './context.ts';

/** What a handler returns after writing the Node response itself. */
export function alreadySent(): Response {
  return RESPONSE_ALREADY_SENT;
}

/**
 * The app's fetch for @hono/node-server. Handlers that write the Node response return
 * `alreadySent()`, which the adapter leaves alone; Hono answers HEAD by running the GET route and
 * re-wrapping its answer, which loses that marker, so for HEAD whatever has been written is reported
 * as sent here, and the adapter never writes a second head. (Other methods skip the extra await:
 * this is the hottest function of the server.)
 */
export function nodeFetch(app: Hono<AppEnv>) {
  return (request: Request, env: HttpBindings | Http2Bindings): Response | Promise<Response> => {
    const result = app.fetch(request, env);
    if (request.method !== 'HEAD') return result;
    return Promise.resolve(result).then((response) => (env.outgoing.headersSent ? RESPONSE_ALREADY_SENT : response));
  };
}

/**
 * After the head was written nothing can change the status any more: the failure is logged and the
 * connection closed, so the client sees a truncated answer rather than a wrong one.
 */
export function abortAfterHead(c: AppContext, err: unknown): Response {
  c.get('log')().error({ err, method: c.req.method, path: c.req.path }, 'failed after the answer started; connection closed');
  c.env?.outgoing?.destroy();
  return RESPONSE_ALREADY_SENT;
}

/**
 * Streams a Node readable (a file) with the given head. On Node it is piped straight to the
 * response; a read error mid-way is logged and closes the connection.
 */
export function sendStream(c: AppContext, status: number, head: Record<string, string>, stream: Readable): Response {
  const outgoing = c.env?.outgoing;
  const headers = { ...c.get('answerHeaders'), ...head, [REQUEST_ID_HEADER]: c.get('requestId') };
  if (!outgoing) return c.body(NodeReadable.toWeb(stream) as unknown as ReadableStream, status as 200, headers);
  outgoing.writeHead(status, headers);
  if (c.req.method === 'HEAD') {
    stream.destroy();
    outgoing.end();
    return RESPONSE_ALREADY_SENT;
  }
  pipeline(stream, outgoing).catch((err: unknown) => {
    if ((err as NodeJS.ErrnoException).code === 'ERR_STREAM_PREMATURE_CLOSE') return; // the client went away
    c.get('log')().error({ err, path: c.req.path }, 'stream failed after the answer started; connection closed');
    outgoing.destroy();
  });
  return RESPONSE_ALREADY_SENT;
}
