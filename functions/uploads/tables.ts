/** The uploads domain's table: direct uploads registered before the browser sends the bytes. */
import { sql } from 'drizzle-orm';
import { bigint, check, index, pgTable, text, uuid } from 'drizzle-orm/pg-core';
import { timestamptz } from '../platform/db/columns.ts';

/**
 * Uploads a browser sends straight to the bucket (presigned PUT): registered with the declared type
 * and size before the bytes go, checked against the stored object when completed. Shared by every
 * instance, so any of them completes what another registered; old rows are pruned with their objects.
 */
export const uploadRegistrations = pgTable(
  'upload_registrations',
  {
    /** The object's name in its area (32 hex digits and an extension). */
    key: text('key').primaryKey(),
    /** Public media, protected member files, or a support request's attachment (support's own storage). */
    area: text('area', { enum: ['public', 'protected', 'support'] }).notNull(),
    contentType: text('content_type').notNull(),
    size: bigint('size', { mode: 'number' }).notNull(),
    userId: uuid('user_id').notNull(),
    createdAt: timestamptz('created_at').notNull().defaultNow(),
    /** Set once the stored object passed the checks; the key is then answered as POST /api/upload would. */
    completedAt: timestamptz('completed_at'),
  },
  (t) => [
    index('upload_registrations_created_idx').on(t.createdAt),
    check('upload_registrations_area_check', sql`${t.area} in ('public', 'protected', 'support')`),
  ],
);
