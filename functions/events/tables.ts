/**
 * The events domain's table: members' registrations for events (content items of type `event`, from
 * git or the database), keyed on the item's stable id (`item.id`: the slug of an MDX file, the uuid of
 * a database row), so renaming an event keeps its registrations and a new event under an old slug
 * starts with none. One row per member and event; cancelling keeps the row.
 * Reminders and the cancellation notice are marked sent on the row in the transaction that queues
 * them, so each goes out once per registration whatever the number of instances.
 */
import { sql } from 'drizzle-orm';
import { check, index, pgTable, text, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { sqlList, timestamptz } from '../platform/db/columns.ts';
import { profiles } from '../users/tables.ts';

export const REGISTRATION_STATUSES = ['registered', 'cancelled'] as const;
export type RegistrationStatus = (typeof REGISTRATION_STATUSES)[number];

export const eventRegistrations = pgTable(
  'event_registrations',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    /** The event's `item.id` (not its slug, which staff may change). */
    eventId: text('event_id').notNull(),
    userId: uuid('user_id')
      .notNull()
      .references(() => profiles.id, { onDelete: 'cascade' }),
    status: text('status', { enum: REGISTRATION_STATUSES }).notNull().default('registered'),
    createdAt: timestamptz('created_at').notNull().defaultNow(),
    updatedAt: timestamptz('updated_at').notNull().defaultNow(),
    cancelledAt: timestamptz('cancelled_at'),
    /** The 24-hour reminder, queued once (null until then). */
    dayReminderAt: timestamptz('day_reminder_at'),
    /** The 1-hour reminder, queued once. */
    hourReminderAt: timestamptz('hour_reminder_at'),
    /** The event's cancellation notice, queued once. */
    cancelNoticeAt: timestamptz('cancel_notice_at'),
  },
  (t) => [
    uniqueIndex('event_registrations_event_user_key').on(t.eventId, t.userId),
    index('event_registrations_user_idx').on(t.userId),
    check('event_registrations_status_check', sql`${t.status} in (${sqlList(REGISTRATION_STATUSES)})`),
  ],
);

export type RegistrationRow = typeof eventRegistrations.$inferSelect;
