/** Structured JSON logging (pino). One logger per process; modules take it as a dependency. */
import { AsyncLocalStorage } from 'node:async_hooks';
import { pino, type Logger as PinoLogger } from 'pino';

export type Logger = PinoLogger;

interface RequestScope {
  requestId: string;
}

const scope = new AsyncLocalStorage<RequestScope>();

/**
 * Runs `fn` as part of a request: every line logged until it settles, by any module, carries the
 * request's id (pino's mixin reads it), without passing a logger per request through the services.
 */
export function runInRequest<T>(requestId: string, fn: () => T): T {
  return scope.run({ requestId }, fn);
}

/** Fields every log line gets: the current request's id, when there is one. */
function requestFields(): Partial<RequestScope> {
  return scope.getStore() ?? {};
}

/**
 * Logs to stdout through an asynchronous destination: lines written while a write is in flight are
 * coalesced into the next one, and what is left is flushed on exit. (Per-request access lines go
 * through the access log, see access-log.ts.)
 */
export function createLogger(level: string): Logger {
  return pino(
    {
      level,
      base: undefined,
      timestamp: pino.stdTimeFunctions.isoTime,
      formatters: { level: (label) => ({ level: label }) },
      mixin: requestFields,
    },
    pino.destination({ dest: 1, sync: false }),
  );
}
