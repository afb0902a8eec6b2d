/**
 * The embedded provider's events: every change raises the event Stripe would send, stored in the
 * change's transaction, and handed to the billing handler (the same one Stripe's webhooks reach) in
 * order until it is taken, so a crash between paying and confirming loses nothing.
 */
import type { Db, DbOrTx } from '../../platform/db/client.ts';
import type { Logger } from '../../platform/logger.ts';
import type { ProviderEvent } from '../provider.ts';
import { newId, seconds } from './objects.ts';
import { createEmbeddedStore } from './store.ts';

/** How many waiting events one delivery round hands over. */
const ROUND = 500;

export function createEventQueue({ db, logger, clock }: { db: Db; logger: Logger; clock: () => Date }) {
  let handler: ((event: ProviderEvent) => Promise<unknown>) | undefined;
  let delivering: Promise<void> = Promise.resolve();
  let stopped = false;

  /** Hands stored events to the handler in order, one delivery loop at a time; a failure waits for the next round. */
  function deliverPending(): Promise<void> {
    delivering = delivering.then(async () => {
      if (!handler || stopped) return;
      const store = createEmbeddedStore(db);
      try {
        for (const row of await store.pendingEvents(ROUND)) {
          if (stopped) return;
          await handler({ object: 'event', id: row.id, type: row.type, created: row.created, data: { object: row.object } });
          await store.markDelivered(row.id, new Date());
        }
      } catch (err) {
        logger.warn({ err }, 'embedded billing events not all taken; the next round retries');
      }
    });
    return delivering;
  }

  return {
    /** Stores an event with the change that raised it (`tx`), to be delivered after it commits. */
    async raise(tx: DbOrTx, type: string, object: Record<string, unknown>): Promise<void> {
      await createEmbeddedStore(tx).addEvent({ id: newId('evt'), type, object, created: seconds(clock()) });
    },

    deliverPending,

    /** Sets the handler events go to (the billing service's) and delivers what is waiting. */
    connect(deliver: (event: ProviderEvent) => Promise<unknown>): Promise<void> {
      handler = deliver;
      return deliverPending();
    },

    /** Stops delivering events (after the one under way), before the database closes. */
    async stop(): Promise<void> {
      stopped = true;
      await delivering;
    },
  };
}

export type EventQueue = ReturnType<typeof createEventQueue>;
