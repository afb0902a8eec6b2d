/**
 * What the domains see of outbound webhooks: one `emit` they call inside their own transaction, so an
 * event is queued exactly when the change that causes it commits (and not at all when it rolls back),
 * and the shape of the member every member, subscription and grant event carries. The domains import
 * this type only; the queue is outbound/store.ts's, reached through the service compose.ts builds.
 */
import type { WebhookEvent } from '#shared/webhooks.ts';
import type { DbOrTx } from '../platform/db/client.ts';

export interface WebhookEmitter {
  /**
   * Queues one event (one id, `msg_…`) for every enabled endpoint subscribed to `type`, in `tx`;
   * nothing when none is. `data` is the body's `data`; `userId` the member it is about, if any.
   */
  emit(tx: DbOrTx, type: WebhookEvent, data: Record<string, unknown>, userId?: string): Promise<void>;
  /** `emit` for many events of one type (a bulk change), asking once whether any endpoint listens. */
  emitMany(tx: DbOrTx, type: WebhookEvent, events: { data: Record<string, unknown>; userId?: string }[]): Promise<void>;
}

/** An emitter that queues nothing (a service built without webhooks). */
export const NO_WEBHOOKS: WebhookEmitter = { emit: async () => undefined, emitMany: async () => undefined };

/** The member as every event about one carries them: id, email, name, level and role. */
export function memberData(p: { id: string; email: string; name?: string | null; accessLevel?: string; role?: string }) {
  return {
    id: p.id,
    email: p.email,
    name: p.name ?? null,
    ...(p.accessLevel ? { accessLevel: p.accessLevel } : {}),
    ...(p.role ? { role: p.role } : {}),
  };
}
