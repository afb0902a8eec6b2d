/** The secrets' table: values the server generates once and every instance shares. */
import { pgTable, text } from 'drizzle-orm/pg-core';
import { timestamptz } from '../db/columns.ts';

/** Secrets the server generates once and every instance shares (e.g. the link-signing key). */
export const appSecrets = pgTable('app_secrets', {
  name: text('name').primaryKey(),
  value: text('value').notNull(),
  createdAt: timestamptz('created_at').notNull().defaultNow(),
});
