/**
 * Hearing of changes without LISTEN, for serverless instances: the change log (store.ts) is read
 * at most once a second, at the start of a request (an instance runs nothing between requests), and
 * each change not heard before goes to the listeners of its channel, as a NOTIFY would. An instance
 * that has not read for longer than `staleMs` (idle, or a failed read) cannot know what it missed
 * beyond the log's window: every listener drops everything instead (its `onReset`), as a LISTEN
 * connection's reconnect does. Reading a window, not "after the last id", is deliberate: ids are
 * taken at insert but rows appear at commit, out of order; a change seen twice is dropped once.
 */
import type { Logger } from '../logger.ts';
import type { LoggedChange } from './store.ts';

/** What the log is read for: the last minute, twice the staleness below, so no gap is ever missed. */
const WINDOW_SECONDS = 60;

export interface ChangePollerOptions {
  /** Least time between two reads of the log (default 1 s). */
  intervalMs?: number;
  /** Past this since the last read, listeners drop everything (default 30 s; under the window). */
  staleMs?: number;
  now?: () => number;
}

interface Listener {
  channel: string;
  onNotify(payload: string): void;
  onReset?: (() => void) | undefined;
}

export function createChangePoller(
  read: (windowSeconds: number) => Promise<LoggedChange[]>,
  logger: Logger,
  { intervalMs = 1_000, staleMs = 30_000, now = Date.now }: ChangePollerOptions = {},
) {
  const listeners = new Set<Listener>();
  let lastRead = -Infinity;
  let seen = new Set<number>();
  let reading: Promise<void> | undefined;
  const deliver = (run: () => void) => {
    try {
      run();
    } catch (err) {
      logger.warn({ err }, 'a change listener failed');
    }
  };
  const readOnce = async () => {
    const started = now();
    const changes = await read(WINDOW_SECONDS);
    if (started - lastRead > staleMs) for (const listener of listeners) deliver(() => listener.onReset?.());
    else
      for (const change of changes) {
        if (seen.has(change.id)) continue;
        for (const listener of listeners) if (listener.channel === change.channel) deliver(() => listener.onNotify(change.payload));
      }
    seen = new Set(changes.map((change) => change.id));
    lastRead = started;
  };
  return {
    /** Same contract as Database.listen: `onReset` runs when changes may have been missed. */
    listen(channel: string, onNotify: (payload: string) => void, onReset?: () => void): Promise<() => Promise<void>> {
      const listener = { channel, onNotify, onReset };
      listeners.add(listener);
      return Promise.resolve(async () => void listeners.delete(listener));
    },
    /** Reads the log unless it was read less than `intervalMs` ago; one read at a time. A failed read is logged. */
    async sync(): Promise<void> {
      if (now() - lastRead < intervalMs) return;
      reading ??= readOnce()
        .catch((err: unknown) => logger.warn({ err }, 'reading the change log failed'))
        .finally(() => (reading = undefined));
      await reading;
    },
  };
}

export type ChangePoller = ReturnType<typeof createChangePoller>;
