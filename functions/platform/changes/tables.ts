/** The change log: what every instance must hear of (a cache to drop), for instances that cannot LISTEN. */
import { sql } from 'drizzle-orm';
import { bigserial, index, pgTable, text } from 'drizzle-orm/pg-core';
import { timestamptz } from '../db/columns.ts';

/**
 * One row per announced change (platform/changes/store.ts), written in the writer's transaction beside
 * its NOTIFY. Serverless instances read the last minute of it (poller.ts); rows are pruned after ten.
 */
export const changeEvents = pgTable(
  'change_events',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    channel: text('channel').notNull(),
    payload: text('payload').notNull().default(''),
    // The clock at the insert, not the transaction's start: a long transaction's row is not born old.
    at: timestamptz('at')
      .notNull()
      .default(sql`clock_timestamp()`),
  },
  (t) => [index('change_events_at_idx').on(t.at)],
);
