/**
 * Changes every instance must hear of, such as a cache to drop. A writer announces one inside its
 * transaction: a NOTIFY, which a long-lived server hears on a LISTEN connection the moment the
 * transaction commits, and a row of the change log, which a serverless instance reads at its next
 * request (poller.ts), since it cannot hold a LISTEN connection (frozen between requests, and a
 * transaction-mode pooler binds a LISTEN to nobody). A profile's change is announced by a trigger
 * on `profiles` (migration 0014), the same two ways.
 */
import { gt, lt, sql } from 'drizzle-orm';
import type { Db, DbOrTx } from '../db/database.ts';
import { changeEvents } from './tables.ts';

/** How long the log keeps a row: far past the poller's window (poller.ts). */
const KEEP_MINUTES = 10;

/** Announces a change on `channel`; both halves are delivered only if the caller's transaction commits. */
export async function announce(db: DbOrTx, channel: string, payload = ''): Promise<void> {
  await db.execute(
    sql`with logged as (insert into ${changeEvents} (channel, payload) values (${channel}, ${payload})) select pg_notify(${channel}, ${payload})`,
  );
}

export interface LoggedChange {
  id: number;
  channel: string;
  payload: string;
}

/** The changes logged in the last `seconds` seconds, by the database's clock, oldest first. */
export async function recentChanges(db: Db, seconds: number): Promise<LoggedChange[]> {
  return db
    .select({ id: changeEvents.id, channel: changeEvents.channel, payload: changeEvents.payload })
    .from(changeEvents)
    .where(gt(changeEvents.at, sql`clock_timestamp() - make_interval(secs => ${seconds})`))
    .orderBy(changeEvents.id);
}

/** Deletes rows no poller can still need. */
export async function pruneChanges(db: Db): Promise<void> {
  await db.delete(changeEvents).where(lt(changeEvents.at, sql`clock_timestamp() - make_interval(mins => ${KEEP_MINUTES})`));
}
