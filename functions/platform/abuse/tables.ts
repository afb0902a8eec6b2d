/** The abuse limits' table: fixed-window counters shared by every instance. */
import { integer, pgTable, text } from 'drizzle-orm/pg-core';
import { timestamptz } from '../db/columns.ts';

/** Fixed-window counters for abuse limits, shared by every instance. */
export const rateLimits = pgTable('rate_limits', {
  key: text('key').primaryKey(),
  windowStart: timestamptz('window_start').notNull(),
  count: integer('count').notNull(),
});
