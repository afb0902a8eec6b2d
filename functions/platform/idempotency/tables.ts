/** The idempotency keys' table: one row per caller and Idempotency-Key, kept a day. */
import { index, integer, jsonb, pgTable, primaryKey, text } from 'drizzle-orm/pg-core';
import { timestamptz } from '../db/columns.ts';

/**
 * One write a client sent with an Idempotency-Key, per caller (`scope`: the member's id, or
 * `anonymous`). `claim` is the token of the attempt running it, with its lease in `locked_until`
 * (renewed while it runs); `committed_at` is set inside the write's own transaction, so a retry can
 * tell a write that never committed from one whose answer was lost; `status`, `headers` and `body`
 * are the answer kept for replay. Rows older than a day are swept.
 */
export const idempotencyKeys = pgTable(
  'idempotency_keys',
  {
    scope: text('scope').notNull(),
    key: text('key').notNull(),
    /** SHA-256 of the method, path, query, media type and body (see request.ts). */
    fingerprint: text('fingerprint').notNull(),
    claim: text('claim'),
    lockedUntil: timestamptz('locked_until'),
    committedAt: timestamptz('committed_at'),
    status: integer('status'),
    headers: jsonb('headers').$type<Record<string, string>>(),
    body: text('body'),
    createdAt: timestamptz('created_at').notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.scope, t.key] }), index('idempotency_keys_created_idx').on(t.createdAt)],
);
