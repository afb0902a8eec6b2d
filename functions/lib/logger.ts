/**
 * Structured JSON logging (pino). One logger per process; modules take it as a dependency. Lines about
 * one request go through that request's child logger (`c.var.log()`), which adds its id.
 */
import { pino, type Logger as PinoLogger } from 'pino';

export type Logger = PinoLogger;

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
    },
    pino.destination({ dest: 1, sync: false }),
  );
}
