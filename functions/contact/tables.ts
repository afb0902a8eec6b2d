/** The contact domain's table: messages sent through the contact form. */
import { pgTable, text, uuid } from 'drizzle-orm/pg-core';
import { timestamptz } from '../platform/db/columns.ts';

/** Messages sent through the contact form. */
export const contactMessages = pgTable('contact_messages', {
  id: uuid('id').primaryKey().defaultRandom(),
  name: text('name').notNull(),
  email: text('email').notNull(),
  subject: text('subject').notNull(),
  message: text('message').notNull(),
  ip: text('ip'),
  userAgent: text('user_agent'),
  createdAt: timestamptz('created_at').notNull().defaultNow(),
});
