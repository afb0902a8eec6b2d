/**
 * Column helpers every domain's `tables.ts` shares. The tables themselves live beside the store of
 * the domain that owns them; drizzle-kit reads every `functions/**\/tables.ts` (drizzle.config.ts).
 */
import { sql } from 'drizzle-orm';
import { timestamp } from 'drizzle-orm/pg-core';

/** `'a', 'b'` for a check constraint's `in (...)` list (the values are our own literals). */
export const sqlList = (values: readonly string[]) => sql.raw(values.map((v) => `'${v}'`).join(', '));

/** A `timestamp with time zone` column. */
export const timestamptz = (name: string) => timestamp(name, { withTimezone: true });
