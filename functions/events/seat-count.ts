/**
 * Seats taken per event, as the event page's island shows them to every visitor: counted in the
 * database at most once every few seconds per event and process, and again at once after a
 * registration or cancellation made here. Another instance's registrations show up here within
 * `ttlMs` (5 s by default): a display figure only. Registering never reads it; it counts under the
 * event's lock (service.ts), so a stale figure can never overbook.
 */
import type { EventStore } from './store.ts';

export interface SeatCountOptions {
  /** How long a count is shown before it is counted again. */
  ttlMs?: number;
  /** Now in ms (tests move it). */
  now?: () => number;
}

/** Above this many cached events, expired counts are dropped (events are few; this keeps it bounded regardless). */
const MAX_ENTRIES = 1000;

export function createSeatCount(store: EventStore, { ttlMs = 5_000, now = Date.now }: SeatCountOptions = {}) {
  const counts = new Map<string, { taken: number; until: number }>();

  function prune(at: number): void {
    if (counts.size < MAX_ENTRIES) return;
    for (const [id, entry] of counts) if (entry.until <= at) counts.delete(id);
    if (counts.size >= MAX_ENTRIES) counts.clear();
  }

  return {
    /** Seats taken in the event, at most `ttlMs` old. */
    async taken(eventId: string): Promise<number> {
      const at = now();
      const cached = counts.get(eventId);
      if (cached && cached.until > at) return cached.taken;
      const taken = await store.seatsTaken(eventId);
      prune(at);
      counts.set(eventId, { taken, until: at + ttlMs });
      return taken;
    },

    /** A registration here just counted the seats under the event's lock: shown as they are. */
    set(eventId: string, taken: number): void {
      prune(now());
      counts.set(eventId, { taken, until: now() + ttlMs });
    },

    /** A cancellation here changed the count: the next read counts again. */
    forget(eventId: string): void {
      counts.delete(eventId);
    },
  };
}

export type SeatCount = ReturnType<typeof createSeatCount>;
