/** The leads domain's table: people who left their details to download a free tool. */
import { index, pgTable, text, uuid } from 'drizzle-orm/pg-core';
import { timestamptz } from '../platform/db/columns.ts';

/** People who left their details to download a free tool. */
export const leads = pgTable(
  'leads',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    name: text('name'),
    email: text('email').notNull(),
    phone: text('phone'),
    toolSlug: text('tool_slug').notNull(),
    ip: text('ip'),
    createdAt: timestamptz('created_at').notNull().defaultNow(),
  },
  (t) => [index('leads_email_idx').on(t.email)],
);
