/**
 * The Node HTTP server around the app: timeouts (Node's own for the head, ours per request for the
 * body: body-deadline.ts) and a connection cap so that slow or idle clients cannot hold connections
 * for minutes, and malformed requests (refused by Node's parser before any handler runs) answered in
 * the API's JSON error shape.
 */
import { createServer, STATUS_CODES, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { getRequestListener } from '@hono/node-server';
import type { ServerSettings } from '../config/server.ts';
import { errorBody, type ErrorCode } from '../errors.ts';
import type { Hono } from 'hono';
import type { AppEnv } from './context.ts';
import { createBodyDeadlines, type BodyDeadlines } from './body-deadline.ts';
import { nodeFetch } from './respond.ts';
import type { AnswerLane } from './answer-lane.ts';

function answerClientError(err: NodeJS.ErrnoException, socket: Socket): void {
  const response = (socket as Socket & { _httpMessage?: { headersSent: boolean } })._httpMessage;
  if (err.code === 'ECONNRESET' || !socket.writable || response?.headersSent) {
    socket.destroy();
    return;
  }
  const [status, code, message]: [number, ErrorCode, string] =
    err.code === 'HPE_HEADER_OVERFLOW'
      ? [431, 'headers_too_large', 'The request headers are too large.']
      : err.code === 'ERR_HTTP_REQUEST_TIMEOUT'
        ? [408, 'request_timeout', 'The request took too long to arrive.']
        : [400, 'bad_request', 'The request could not be read.'];
  const body = JSON.stringify(errorBody(code, message, undefined));
  socket.end(
    `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Type: application/json; charset=utf-8\r\n` +
      `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
  );
}

/**
 * The Node request listener: Hono's, with backslashes in the request target escaped first (Hono would
 * refuse them with a bare 400 before any of our handlers ran), so that such paths reach the app and get
 * its answers: the 400 page, or the JSON error shape. Requests Hono still cannot read (a bad Host
 * header) are answered in the JSON error shape too.
 */
function requestListener(app: Hono<AppEnv>, deadlines: BodyDeadlines, lane: AnswerLane | undefined) {
  const listener = getRequestListener(nodeFetch(app), {
    errorHandler: () => Response.json(errorBody('bad_request', 'The request could not be read.', undefined), { status: 400 }),
  });
  return (incoming: IncomingMessage, outgoing: ServerResponse) => {
    deadlines.track(incoming);
    if (incoming.url?.includes('\\')) incoming.url = incoming.url.replaceAll('\\', '%5C');
    if (lane?.serve(incoming, outgoing)) return;
    void listener(incoming, outgoing);
  };
}

const requestTimedOut = () => Object.assign(new Error('request body timed out'), { code: 'ERR_HTTP_REQUEST_TIMEOUT' });

/** Starts listening; resolves once the port is bound. */
export async function listen(
  app: Hono<AppEnv> & { answerLane?: AnswerLane },
  config: Pick<ServerSettings, 'port' | 'host' | 'http'>,
): Promise<Server> {
  const { headersTimeoutMs, requestTimeoutMs, keepAliveTimeoutMs, maxConnections } = config.http;
  // The body's deadline is ours (per request: uploads may keep a slow pace instead); the head's stays Node's.
  const deadlines = createBodyDeadlines(requestTimeoutMs, (socket) => answerClientError(requestTimedOut(), socket));
  const server = createServer(
    {
      headersTimeout: headersTimeoutMs,
      requestTimeout: 0,
      keepAliveTimeout: keepAliveTimeoutMs,
      // Node checks the head's timeout on this interval (30 s by default): keep it below it.
      connectionsCheckingInterval: Math.max(50, Math.min(1000, Math.floor(headersTimeoutMs / 2))),
    },
    requestListener(app, deadlines, app.answerLane),
  );
  server.maxConnections = maxConnections;
  server.on('clientError', answerClientError);
  server.on('close', () => deadlines.stop());
  await new Promise<void>((resolve, reject) => {
    server.once('listening', resolve);
    server.once('error', reject);
    server.listen(config.port, config.host);
  });
  return server;
}
