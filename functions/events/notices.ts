/**
 * The events' timed mails: the 24-hour and 1-hour reminders and the notice that staff cancelled an
 * event, queued by a tick every 30 seconds on every instance (`start()`), and at once after a local
 * write to an event. Each mail is claimed per registration by a conditional update in the transaction
 * that queues it (store.claimNotice), so two instances, two ticks or a retried tick queue it once.
 *
 * Who gets what, judged at the tick: reminders go to registrations still registered, for events not
 * cancelled, to members whose level (read from their profile in that transaction) still lets them
 * in; the windows (#shared/events/schedule.ts) skip a reminder whose moment passed long ago, or that
 * came before the member registered, rather than send it late. The cancellation notice goes once to
 * every registration still registered when the event is cancelled, until the event's end. Each
 * claim's transaction reads the event again, so a batch under way when staff cancel, move or remove
 * it stops there (the next tick works from the event as it is).
 */
import type { EventItem } from '#shared/content/registry.ts';
import { dueReminder, hasEnded, reminderDueAt } from '#shared/events/schedule.ts';
import type { ContentService } from '../content/index.ts';
import type { EmailService } from '../email/index.ts';
import type { Db } from '../platform/db/client.ts';
import type { Logger } from '../platform/logger.ts';
import { queueNotice } from './mails.ts';
import { createEventStore, type NoticeKind, type Registrant } from './store.ts';

/** How often every instance looks for due mail. */
export const NOTICE_TICK_MS = 30_000;
const BATCH = 200;

export interface EventNoticeDeps {
  db: Db;
  content: ContentService;
  outbox: EmailService;
  siteUrl: string;
  logger: Logger;
  clock?: () => Date;
}

export function createEventNotices({ db, content, outbox, siteUrl, logger, clock = () => new Date() }: EventNoticeDeps) {
  const store = createEventStore(db);
  let timer: NodeJS.Timeout | undefined;
  let unsubscribe: (() => void) | undefined;
  let running: Promise<number> | undefined;

  /**
   * Queues one registration's mail, if it is still unclaimed and the member may have it. 'stale' when
   * the event, read again in this transaction, is gone or no longer the one the batch began with.
   */
  function notifyOne(event: EventItem, kind: NoticeKind, registration: Registrant, now: Date): Promise<'queued' | 'skipped' | 'stale'> {
    return db.transaction(async (tx) => {
      const current = await content.getById('event', event.id, tx);
      if (!current || current.startsAt !== event.startsAt || current.cancelled !== (kind === 'cancelled')) return 'stale';
      return (await queueNotice(tx, { outbox, siteUrl }, current, kind, registration, now)) ? 'queued' : 'skipped';
    });
  }

  /** Every registration of `event` still waiting for `kind`, in batches: how many were queued. */
  async function notifyAll(event: EventItem, kind: NoticeKind, now: Date): Promise<number> {
    // A reminder goes to registrations made by its moment; the cancellation notice to all.
    const registeredBy = kind === 'cancelled' ? undefined : reminderDueAt(event, kind);
    let queued = 0;
    let after: string | undefined;
    for (;;) {
      const batch = await store.awaiting(event.id, kind, { registeredBy, after, limit: BATCH });
      for (const registration of batch) {
        const outcome = await notifyOne(event, kind, registration, now);
        if (outcome === 'stale') return queued;
        if (outcome === 'queued') queued += 1;
      }
      if (batch.length < BATCH) return queued;
      after = batch.at(-1)!.id;
    }
  }

  /** One look at every event not over yet; answers how many mails it queued. */
  async function tick(now: Date = clock()): Promise<number> {
    let queued = 0;
    for (const event of await content.list('event')) {
      if (hasEnded(event, now)) continue;
      const kind = event.cancelled ? 'cancelled' : dueReminder(event, now);
      if (!kind) continue;
      try {
        queued += await notifyAll(event, kind, now);
      } catch (err) {
        logger.warn({ err, slug: event.slug, kind }, 'event notices failed; the next tick tries again');
      }
    }
    return queued;
  }

  /** A tick, unless one is running in this process (then its result). */
  function tickOnce(now?: Date): Promise<number> {
    running ??= tick(now).finally(() => {
      running = undefined;
    });
    return running;
  }

  const background = () => void tickOnce().catch((err: unknown) => logger.warn({ err }, 'event notice tick failed'));

  return {
    /** Queues every reminder and cancellation notice due at `now` (tests pass their own moment). */
    tick: tickOnce,
    /** Ticks every 30 seconds, and after each local write to an event (a cancellation mails at once). */
    start(): void {
      if (timer) return;
      timer = setInterval(background, NOTICE_TICK_MS);
      timer.unref();
      unsubscribe = content.onChange((type) => {
        if (type === 'event') background();
      });
      background();
    },
    /** Stops ticking and waits for a tick under way. */
    async stop(): Promise<void> {
      clearInterval(timer);
      timer = undefined;
      unsubscribe?.();
      await running?.catch(() => undefined);
    },
  };
}

export type EventNotices = ReturnType<typeof createEventNotices>;
