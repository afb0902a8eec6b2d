/**
 * The app as serverless functions on loopback, as a platform runs them: every request through the
 * function handler behind a node:http listener (a runtime hands a function web Requests; here Hono's
 * Node adapter does), and the scheduled round every `roundMs` (the platform's schedule, faster). For
 * suites that run the same checks against the Node server and the function (the leak crawler).
 */
import { createServer } from 'node:http';
import { getRequestListener } from '@hono/node-server';
import { createFunctionHandler, createScheduledHandler } from '../../functions/serverless.ts';

export interface FunctionServer {
  url: string;
  close(): Promise<void>;
}

export async function startFunctionServer(env: Record<string, string>, port: number, roundMs = 1_000): Promise<FunctionServer> {
  const handle = createFunctionHandler(env);
  const round = createScheduledHandler(env);
  const listener = getRequestListener((request, { incoming }) => handle(request, { ip: incoming.socket.remoteAddress }), {
    overrideGlobalObjects: false,
  });
  const server = createServer((req, res) => void listener(req, res));
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  let stopped = false;
  let running: Promise<unknown> = Promise.resolve();
  // One round at a time, as the platform's schedule never overlaps a function with itself here.
  const rounds = (async () => {
    while (!stopped) {
      running = round().catch(() => undefined);
      await running;
      await new Promise((resolve) => setTimeout(resolve, roundMs));
    }
  })();
  return {
    url: `http://127.0.0.1:${port}`,
    async close() {
      stopped = true;
      await running;
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
      await Promise.all([handle.close(), round.close()]);
      void rounds;
    },
  };
}
