/**
 * The one signed-webhook path for every provider (payments, mail delivery): verify the signature
 * on the raw body, store each event by its provider id, and apply it once. An event is claimed
 * before it is applied and marked processed after; a duplicate of a processed event, or of one
 * another delivery is applying right now, is acknowledged without effect. If applying fails the
 * claim is released and the answer is 503, so the provider retries; a claim older than a minute
 * (a crashed process) is taken over by the next delivery. The SQL is in store.ts.
 */
import type { Context } from 'hono';
import type { Db } from '../db/client.ts';
import { AppError } from '../errors.ts';
import type { Logger } from '../logger.ts';
import { createWebhookStore } from './store.ts';

export interface WebhookEventRef {
  id: string;
  type: string;
}

export function createWebhookInbox(db: Db, logger: Logger) {
  const store = createWebhookStore(db);
  return {
    /**
     * Applies `event` unless it was applied (or is being applied) already; answers which. `apply`
     * may answer false for an event that had nothing to change (it still counts as processed).
     */
    async receive(
      source: string,
      event: WebhookEventRef,
      apply: () => Promise<boolean | void>,
    ): Promise<'applied' | 'ignored' | 'duplicate'> {
      if (!(await store.claim(source, event))) return 'duplicate';
      let changed: boolean | void;
      try {
        changed = await apply();
      } catch (err) {
        await store.release(source, event.id).catch(() => undefined);
        logger.error({ err, source, eventId: event.id, type: event.type }, 'webhook event failed; the provider will retry');
        throw new AppError('unavailable', 'The event could not be applied right now; please retry.');
      }
      await store.markProcessed(source, event.id);
      return changed === false ? 'ignored' : 'applied';
    },
  };
}

export type WebhookInbox = ReturnType<typeof createWebhookInbox>;

export interface SignedWebhook<E extends WebhookEventRef> {
  source: string;
  inbox: WebhookInbox;
  /** Checks the signature on the raw body and parses it; throws an AppError (400/401/422) when it fails. */
  verify(rawBody: string, c: Context): Promise<E[]>;
  /** Applies one event; false when it had nothing to change. */
  apply(event: E): Promise<boolean | void>;
}

/** A webhook route handler: verify, then receive each event once; answers the counts. */
export function signedWebhookHandler<E extends WebhookEventRef>({ source, inbox, verify, apply }: SignedWebhook<E>) {
  return async (c: Context) => {
    const events = await verify(await c.req.text(), c);
    let applied = 0;
    for (const event of events) {
      if ((await inbox.receive(source, event, () => apply(event))) === 'applied') applied += 1;
    }
    return c.json({ received: events.length, applied });
  };
}
