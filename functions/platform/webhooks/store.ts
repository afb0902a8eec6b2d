/**
 * The only module that touches the webhook_events table: one row per provider event id, claimed
 * before it is applied and marked processed after (see index.ts for the rules).
 */
import { and, eq, sql } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { webhookEvents } from './tables.ts';

/** A claim older than this is taken to be a crashed attempt, and the next delivery may take it over. */
const STALE_CLAIM = sql`now() - interval '60 seconds'`;

export function createWebhookStore(db: Db) {
  const byId = (source: string, id: string) => and(eq(webhookEvents.source, source), eq(webhookEvents.id, id));
  return {
    /**
     * Records the event and claims it; answers false when it is processed already, or claimed by a
     * delivery that is still fresh.
     */
    async claim(source: string, event: { id: string; type: string }): Promise<boolean> {
      const [claimed] = await db
        .insert(webhookEvents)
        .values({ source, id: event.id, type: event.type })
        .onConflictDoUpdate({
          target: [webhookEvents.source, webhookEvents.id],
          set: { claimedAt: sql`now()` },
          setWhere: sql`${webhookEvents.processedAt} is null and ${webhookEvents.claimedAt} < ${STALE_CLAIM}`,
        })
        .returning({ id: webhookEvents.id });
      return Boolean(claimed);
    },

    /** Gives the claim up at once (applying failed), so the provider's retry may take it. */
    async release(source: string, id: string): Promise<void> {
      await db
        .update(webhookEvents)
        .set({ claimedAt: sql`'epoch'::timestamptz` })
        .where(byId(source, id));
    },

    /** Marks the event applied: every later delivery of it is a duplicate. */
    async markProcessed(source: string, id: string): Promise<void> {
      await db
        .update(webhookEvents)
        .set({ processedAt: sql`now()` })
        .where(byId(source, id));
    },
  };
}

export type WebhookStore = ReturnType<typeof createWebhookStore>;
