/**
 * What the embedded provider's parts share (checkout, subscriptions, the clock, the portal): the
 * database, our site, the provider's clock, its event queue, and the test pages' session lookup.
 */
import type { Db } from '../../platform/db/client.ts';
import { AppError } from '../../platform/errors.ts';
import type { Logger } from '../../platform/logger.ts';
import type { EventQueue } from './events.ts';
import { createEmbeddedStore, type SessionKind, type SessionRow } from './store.ts';

export interface EmbeddedProviderOptions {
  db: Db;
  siteUrl: string;
  /** Signs and verifies webhook payloads sent to our endpoint (Stripe's scheme), as Stripe's secret would. */
  webhookSecret: string;
  logger: Logger;
  /** Now, as the provider sees it; tests move it to renew and end subscriptions. */
  clock?: () => Date;
}

export interface EmbeddedContext {
  db: Db;
  siteUrl: string;
  logger: Logger;
  clock: () => Date;
  events: EventQueue;
}

/** A checkout or portal session by the id a test page was opened with (the id is the capability), or a 404. */
export async function openSession(db: Db, id: string, kind: SessionKind): Promise<SessionRow> {
  const row = /^(cs|bps)_test_[\w-]{16}$/.test(id) ? await createEmbeddedStore(db).session(id, kind) : undefined;
  if (!row) throw new AppError('not_found', kind === 'checkout' ? 'No such checkout session.' : 'No such portal session.');
  return row;
}
