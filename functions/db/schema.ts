/** Database tables (drizzle). Migrations in ./migrations are generated from this file. */
import { sql } from 'drizzle-orm';
import { check, index, jsonb, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import type { MediaItem } from '../../src/lib/content/schema.ts';

/** Content written at runtime by the creator tools; MDX in git is the other source. */
export const contentItems = pgTable(
  'content_items',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    type: text('type', { enum: ['blog', 'tool', 'course', 'market'] }).notNull(),
    slug: text('slug').notNull(),
    title: text('title').notNull(),
    description: text('description').notNull(),
    tags: jsonb('tags').$type<string[]>().notNull().default([]),
    accessLevel: text('access_level', { enum: ['free', 'subscriber', 'premium'] }).notNull().default('free'),
    media: jsonb('media').$type<MediaItem[]>().notNull().default([]),
    /** Type-specific fields (body, sections, price, download URL...), validated by zod on every read. */
    details: jsonb('details').$type<Record<string, unknown>>().notNull().default({}),
    createdBy: text('created_by'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('content_items_type_slug_key').on(t.type, t.slug),
    index('content_items_type_created_idx').on(t.type, t.createdAt),
    check('content_items_type_check', sql`${t.type} in ('blog', 'tool', 'course', 'market')`),
    check('content_items_access_check', sql`${t.accessLevel} in ('free', 'subscriber', 'premium')`),
  ],
);

export type ContentRow = typeof contentItems.$inferSelect;
export type NewContentRow = typeof contentItems.$inferInsert;
