/**
 * The members' business tools' tables (issue 35): staff's labels on members, saved filters
 * (segments, also newsletter audiences), and the API keys integrations call the admin API with.
 */
import { sql } from 'drizzle-orm';
import { index, jsonb, pgTable, primaryKey, text, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import type { MemberFilter } from '#shared/members.ts';
import { timestamptz } from '../platform/db/columns.ts';
import { profiles } from '../users/tables.ts';

/** A label staff put on members ("VIP", "Imported 2026"); names are unique regardless of case. */
export const labels = pgTable(
  'labels',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    name: text('name').notNull(),
    createdAt: timestamptz('created_at').notNull().defaultNow(),
  },
  (t) => [uniqueIndex('labels_name_key').on(sql`lower(${t.name})`)],
);
export type LabelRow = typeof labels.$inferSelect;

/** Which member carries which label. */
export const memberLabels = pgTable(
  'member_labels',
  {
    userId: uuid('user_id')
      .notNull()
      .references(() => profiles.id, { onDelete: 'cascade' }),
    labelId: uuid('label_id')
      .notNull()
      .references(() => labels.id, { onDelete: 'cascade' }),
  },
  (t) => [primaryKey({ columns: [t.userId, t.labelId] }), index('member_labels_label_idx').on(t.labelId)],
);

/** A named filter of the Users tab: a list staff come back to, and a newsletter audience. */
export const segments = pgTable(
  'segments',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    name: text('name').notNull(),
    filter: jsonb('filter').$type<MemberFilter>().notNull(),
    createdBy: uuid('created_by').notNull(),
    createdAt: timestamptz('created_at').notNull().defaultNow(),
  },
  (t) => [uniqueIndex('segments_name_key').on(sql`lower(${t.name})`)],
);
export type SegmentRow = typeof segments.$inferSelect;

/**
 * Keys integrations call the admin API with (a Bearer token): only a SHA-256 of the key is kept
 * (the key is 32 random bytes, so a fast hash is enough), with its scopes and the admin who made it.
 */
export const apiKeys = pgTable(
  'api_keys',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    name: text('name').notNull(),
    /** The key's first characters, shown in the list so staff can tell keys apart. */
    prefix: text('prefix').notNull(),
    hash: text('hash').notNull(),
    scopes: jsonb('scopes').$type<string[]>().notNull(),
    createdBy: uuid('created_by').notNull(),
    createdAt: timestamptz('created_at').notNull().defaultNow(),
    lastUsedAt: timestamptz('last_used_at'),
    revokedAt: timestamptz('revoked_at'),
  },
  (t) => [uniqueIndex('api_keys_hash_key').on(t.hash)],
);
export type ApiKeyRow = typeof apiKeys.$inferSelect;
