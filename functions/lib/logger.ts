/** Structured JSON logging (pino). One logger per process; modules take it as a dependency. */
import { pino, type Logger as PinoLogger } from 'pino';

export type Logger = PinoLogger;

/**
 * Logs to stdout through an asynchronous buffered destination (a synchronous write per request
 * would cost more than the request itself); the buffer is flushed on exit.
 */
export function createLogger(level: string): Logger {
  return pino(
    {
      level,
      base: undefined,
      timestamp: pino.stdTimeFunctions.isoTime,
      formatters: { level: (label) => ({ level: label }) },
    },
    pino.destination({ dest: 1, sync: false, minLength: 4096 }),
  );
}
