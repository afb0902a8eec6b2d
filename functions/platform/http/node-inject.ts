/**
 * A web Request answered by a Node request listener, without a socket (light-my-request, Fastify's
 * injector): how a serverless function serves the site's pages through the same site handler as the
 * Node server, which writes to Node's response object (Astro's Node handler, pages answered from
 * memory with their validators and encodings). The answer is whole before it is returned: pages are.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { inject } from 'light-my-request';

type Listener = (incoming: IncomingMessage, outgoing: ServerResponse) => unknown;

/** Statuses whose answer has no body, whatever was written. */
const NO_BODY = new Set([204, 304]);

export async function injectRequest(listener: Listener, request: Request, remoteAddress = '127.0.0.1'): Promise<Response> {
  const url = new URL(request.url);
  const body = request.body ? Buffer.from(await request.arrayBuffer()) : undefined;
  const answer = await inject(listener, {
    method: request.method as 'GET',
    url: `${url.pathname}${url.search}`,
    headers: Object.fromEntries(request.headers),
    remoteAddress,
    ...(body ? { payload: body } : {}),
  });
  const headers = new Headers();
  for (const [name, value] of Object.entries(answer.headers)) {
    if (value === undefined) continue;
    for (const one of Array.isArray(value) ? value : [String(value)]) headers.append(name, one);
  }
  const empty = request.method === 'HEAD' || NO_BODY.has(answer.statusCode);
  return new Response(empty ? null : new Uint8Array(answer.rawPayload), { status: answer.statusCode, headers });
}
