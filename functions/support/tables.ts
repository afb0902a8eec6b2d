/**
 * The support desk's tables: members' requests and the messages on each (the member's, staff's
 * replies, staff's internal notes). Ids are random uuids, and every route checks the owner anyway.
 */
import { sql } from 'drizzle-orm';
import { bigint, boolean, check, index, pgTable, text, uuid } from 'drizzle-orm/pg-core';
import { ACCESS_LEVELS } from '#shared/access.ts';
import { sqlList, timestamptz } from '../platform/db/columns.ts';
import { profiles } from '../users/tables.ts';

export const REQUEST_STATUSES = ['open', 'waiting', 'closed'] as const;
export type RequestStatus = (typeof REQUEST_STATUSES)[number];

/**
 * A member's request. `level` is the member's level when they opened it: premium requests are
 * Priority, and `respondBy` is the first-response target computed from it (1 business day for
 * premium, 3 for the others); `firstResponseAt` is staff's first reply. Deleting the account deletes
 * its requests (they are the member's personal data).
 */
export const supportRequests = pgTable(
  'support_requests',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => profiles.id, { onDelete: 'cascade' }),
    subject: text('subject').notNull(),
    level: text('level', { enum: ACCESS_LEVELS }).notNull(),
    status: text('status', { enum: REQUEST_STATUSES }).notNull().default('open'),
    assigneeId: uuid('assignee_id').references(() => profiles.id, { onDelete: 'set null' }),
    respondBy: timestamptz('respond_by').notNull(),
    firstResponseAt: timestamptz('first_response_at'),
    createdAt: timestamptz('created_at').notNull().defaultNow(),
    updatedAt: timestamptz('updated_at').notNull().defaultNow(),
    closedAt: timestamptz('closed_at'),
  },
  (t) => [
    index('support_requests_user_idx').on(t.userId, t.createdAt),
    index('support_requests_queue_idx').on(t.status, t.level, t.createdAt),
    check('support_requests_status_check', sql`${t.status} in (${sqlList(REQUEST_STATUSES)})`),
    check('support_requests_level_check', sql`${t.level} in (${sqlList(ACCESS_LEVELS)})`),
  ],
);
export type SupportRequestRow = typeof supportRequests.$inferSelect;

/**
 * Messages on a request, oldest first: the member's opening message and replies, staff's replies
 * (`fromStaff`), and internal notes (`internal`: staff only, never in a member's answer or mail).
 * An attachment is an object in the storage port (`attachmentKey`), served only through the request's
 * own route to its member and staff.
 */
export const supportMessages = pgTable(
  'support_messages',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    requestId: uuid('request_id')
      .notNull()
      .references(() => supportRequests.id, { onDelete: 'cascade' }),
    authorId: uuid('author_id').references(() => profiles.id, { onDelete: 'set null' }),
    fromStaff: boolean('from_staff').notNull().default(false),
    internal: boolean('internal').notNull().default(false),
    body: text('body').notNull(),
    attachmentKey: text('attachment_key'),
    attachmentName: text('attachment_name'),
    attachmentType: text('attachment_type'),
    attachmentSize: bigint('attachment_size', { mode: 'number' }),
    createdAt: timestamptz('created_at').notNull().defaultNow(),
  },
  (t) => [
    index('support_messages_request_idx').on(t.requestId, t.createdAt),
    check('support_messages_internal_check', sql`not (${t.internal} and not ${t.fromStaff})`),
  ],
);
export type SupportMessageRow = typeof supportMessages.$inferSelect;
