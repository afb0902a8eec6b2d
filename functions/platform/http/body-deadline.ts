/**
 * Deadlines for request bodies, in place of Node's server-wide `requestTimeout`, which gives every
 * request the same fixed time and so answered a 25 MB upload over a slow link with 408. Every request
 * that carries a body must have sent all of it within `timeoutMs` of its head (slow-loris protection:
 * trickling bytes does not extend it), as before. A route that has already checked its caller (the
 * upload route, for staff from a live session) may instead hold its body to a pace: at least
 * `minBytesPerSecond` in every `timeoutMs` window, for as long as the bytes keep coming at that pace.
 * Requests without a body cost nothing here; the head keeps Node's own `headersTimeout`.
 *
 * One sweep per server walks the requests whose bodies are still arriving (as Node's own check
 * does), so a request costs no timer of its own.
 */
import type { IncomingMessage } from 'node:http';
import type { Socket } from 'node:net';

const PACE = Symbol('bodyPace');
type Paced = IncomingMessage & { [PACE]?: number };

interface Arriving {
  incoming: Paced;
  socket: Socket;
  /** When the current window ends. */
  due: number;
  /** The socket's bytes read when the window began. */
  bytes: number;
}

/** Whether a request carries a body (a length above 0, or chunked). */
export function hasBody(incoming: IncomingMessage): boolean {
  const { headers } = incoming;
  const length = headers['content-length'];
  return headers['transfer-encoding'] !== undefined || (length !== undefined && length !== '0');
}

/**
 * Lets this request's body arrive at `minBytesPerSecond` (checked over each window) instead of
 * within the fixed time. Call only once the caller is known to be allowed (it widens the slow-loris
 * window for that request).
 */
export function allowSlowBody(incoming: IncomingMessage | undefined, minBytesPerSecond: number): void {
  if (incoming) (incoming as Paced)[PACE] = minBytesPerSecond;
}

export interface BodyDeadlines {
  /** Starts the clock for a request just received (no-op without a body). */
  track(incoming: IncomingMessage): void;
  stop(): void;
}

/** `onExpired` answers 408 (or closes the connection when an answer has started). */
export function createBodyDeadlines(timeoutMs: number, onExpired: (socket: Socket) => void): BodyDeadlines {
  const arriving = new Set<Arriving>();
  const everyMs = Math.max(50, Math.min(1000, Math.floor(timeoutMs / 4)));
  let sweeper: NodeJS.Timeout | undefined;

  function sweep() {
    const now = Date.now();
    for (const entry of arriving) {
      const { incoming, socket } = entry;
      if (incoming.complete || socket.destroyed) {
        arriving.delete(entry);
        continue;
      }
      if (now < entry.due) continue;
      const pace = incoming[PACE];
      if (pace !== undefined && socket.bytesRead - entry.bytes >= (pace * timeoutMs) / 1000) {
        entry.bytes = socket.bytesRead;
        entry.due = now + timeoutMs;
        continue;
      }
      arriving.delete(entry);
      onExpired(socket);
    }
    if (arriving.size === 0) {
      clearInterval(sweeper);
      sweeper = undefined;
    }
  }

  return {
    track(incoming) {
      if (!hasBody(incoming)) return;
      arriving.add({ incoming, socket: incoming.socket, due: Date.now() + timeoutMs, bytes: incoming.socket.bytesRead });
      if (!sweeper) {
        sweeper = setInterval(sweep, everyMs);
        sweeper.unref();
      }
    },
    stop() {
      clearInterval(sweeper);
      sweeper = undefined;
      arriving.clear();
    },
  };
}
