/** The content domain's table: items written at run time by the creator tools. */
import { sql } from 'drizzle-orm';
import { boolean, check, index, jsonb, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { ACCESS_LEVELS } from '#shared/access.ts';
import { CONTENT_TYPES } from '#shared/content/registry.ts';
import type { MediaItem } from '#shared/content/schema.ts';
import { sqlList } from '../platform/db/columns.ts';

/** Content written at runtime by the creator tools; MDX in git is the other source. */
export const contentItems = pgTable(
  'content_items',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    type: text('type', { enum: CONTENT_TYPES }).notNull(),
    slug: text('slug').notNull(),
    title: text('title').notNull(),
    description: text('description').notNull(),
    tags: jsonb('tags').$type<string[]>().notNull().default([]),
    accessLevel: text('access_level', { enum: ACCESS_LEVELS }).notNull().default('free'),
    media: jsonb('media').$type<MediaItem[]>().notNull().default([]),
    /** Type-specific fields (body, sections, price, download URL...), validated by zod on every read. */
    details: jsonb('details').$type<Record<string, unknown>>().notNull().default({}),
    /** Unpublished items keep their row and slug but reach no public or member channel. */
    published: boolean('published').notNull().default(true),
    createdBy: text('created_by'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('content_items_type_slug_key').on(t.type, t.slug),
    index('content_items_type_created_idx').on(t.type, t.createdAt),
    check('content_items_type_check', sql`${t.type} in (${sqlList(CONTENT_TYPES)})`),
    check('content_items_access_check', sql`${t.accessLevel} in (${sqlList(ACCESS_LEVELS)})`),
  ],
);

export type ContentRow = typeof contentItems.$inferSelect;
export type NewContentRow = typeof contentItems.$inferInsert;
