/**
 * What staff's writes to an event mean for its registrants, run by the content service inside the
 * write's transaction (connected in compose.ts, so content never imports this domain), under the
 * event's registration lock:
 *
 * - **Removing it** (delete or unpublish) while members hold seats is refused (409): cancelling the
 *   event first is what tells them. A cancelled event may go; any cancellation notice not queued yet
 *   is queued in this transaction. An event that has ended may go too: nobody is waiting for it.
 * - **Moving it** (its start changes) mails every current registrant the new time with the updated
 *   calendar file, and resets the reminders to the new start: one still ahead goes out at its new
 *   moment, one already passed is not sent late (`store.resetReminders`).
 *
 * A new slug changes nothing here: registrations follow the item's id. MDX events change with a
 * deploy, not through this hook (see functions/events/README.md).
 */
import type { EventItem } from '#shared/content/registry.ts';
import { hasEnded, reminderDueAt } from '#shared/events/schedule.ts';
import type { ContentChange } from '../content/index.ts';
import type { EmailService } from '../email/index.ts';
import type { Tx } from '../platform/db/client.ts';
import { AppError } from '../platform/errors.ts';
import { queueMoved, queueNotice } from './mails.ts';
import { createEventStore } from './store.ts';

export interface EventChangeDeps {
  outbox: EmailService;
  siteUrl: string;
  /** Now, as the moved event's reminders see it (tests move it). */
  clock?: () => Date;
}

export function createEventChanges({ outbox, siteUrl, clock = () => new Date() }: EventChangeDeps) {
  const mailer = { outbox, siteUrl };

  /** The event leaves the site: refused while members hold seats, unless it was cancelled (then their notices go now) or is over. */
  async function removing(tx: Tx, event: EventItem, now: Date): Promise<void> {
    if (hasEnded(event, now)) return;
    const store = createEventStore(tx);
    if (!event.cancelled) {
      const seats = await store.seatsTaken(event.id);
      if (seats > 0)
        throw new AppError(
          'conflict',
          `This event has ${seats === 1 ? '1 registrant' : `${seats} registrants`}. Cancel the event first (that emails them), then delete or unpublish it.`,
        );
      return;
    }
    // Each claim skips a registration whose notice the tick already queued.
    for (const registration of await store.current(event.id)) await queueNotice(tx, mailer, event, 'cancelled', registration, now);
  }

  /** The event moved: reminders follow the new start, and every registrant is told with the new calendar file. */
  async function moved(tx: Tx, before: EventItem, after: EventItem, now: Date): Promise<void> {
    if (after.cancelled || hasEnded(after, now)) return;
    const store = createEventStore(tx);
    const ahead = (kind: 'day' | 'hour') => reminderDueAt(after, kind) > now;
    await store.resetReminders(after.id, { day: ahead('day'), hour: ahead('hour') });
    await queueMoved(tx, mailer, after, before.startsAt, await store.current(after.id), now);
  }

  /** The content service's write hook for events (compose.ts). */
  return async function onContentWrite(tx: Tx, change: ContentChange): Promise<void> {
    if (change.type !== 'event' || change.before?.type !== 'event') return;
    const before = change.before;
    const after = change.after?.type === 'event' ? change.after : undefined;
    if (after && after.startsAt === before.startsAt) return;
    // Registrations of this event wait for the write, and see it once it commits.
    await createEventStore(tx).lockEvent(before.id);
    const now = clock();
    if (!after) await removing(tx, before, now);
    else await moved(tx, before, after, now);
  };
}

export type EventContentHook = ReturnType<typeof createEventChanges>;
