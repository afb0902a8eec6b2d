/**
 * The grants ledger: every reason a member has a paid level, one row each (a subscription's run, a
 * trial, an offer's discounted run, a comp, a gift, a purchase), with who made it and when it starts
 * and ends. The profile's `access_level` is derived from these rows in one place (ledger.ts).
 */
import { sql } from 'drizzle-orm';
import { check, index, pgTable, text, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { sqlList, timestamptz } from '../../platform/db/columns.ts';
import { profiles } from '../../users/tables.ts';

/** Why a member has a level: the sources, each with its own `source_id` (see AccessGrantRow). */
export const GRANT_SOURCES = ['subscription', 'purchase', 'comp', 'gift', 'trial', 'offer'] as const;
export type GrantSource = (typeof GRANT_SOURCES)[number];

/** The levels a grant can give (free needs no reason). */
export const GRANT_LEVELS = ['subscriber', 'premium'] as const;
export type GrantLevel = (typeof GRANT_LEVELS)[number];

/** The sources a subscription's own rows take (one open row per subscription: its current run). */
export const SUBSCRIPTION_SOURCES = ['subscription', 'trial', 'offer'] as const satisfies readonly GrantSource[];

export const accessGrants = pgTable(
  'access_grants',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => profiles.id, { onDelete: 'cascade' }),
    accessLevel: text('access_level', { enum: GRANT_LEVELS }).notNull(),
    source: text('source', { enum: GRANT_SOURCES }).notNull(),
    /** The subscription's id (subscription, trial, offer), the gift's id, the purchase's session, or the admin who made a comp. */
    sourceId: text('source_id').notNull(),
    startsAt: timestamptz('starts_at').notNull(),
    /** When access from this row ends; null: open (a running subscription, an open-ended comp). */
    endsAt: timestamptz('ends_at'),
    /** Who made it: an admin, the buyer of a gift, or the system's id for what the payment provider caused. */
    createdBy: uuid('created_by').notNull(),
    note: text('note'),
    /** Who ended it before its time (an admin revoking a comp); null when it ran its course or runs still. */
    endedBy: uuid('ended_by'),
    /** Offers and gifts say more here (the gift's buyer's name, the offer's code), shown on the account page. */
    detail: text('detail'),
    /** When the mail that it ends soon went out (comps, gifts, trials). */
    warnedAt: timestamptz('warned_at'),
    /** When its end was applied (the level recomputed, the mail sent); null until then. */
    settledAt: timestamptz('settled_at'),
    createdAt: timestamptz('created_at').notNull().defaultNow(),
  },
  (t) => [
    index('access_grants_user_idx').on(t.userId),
    // The sweep's two questions: which ends are not yet applied, which ends need a warning.
    index('access_grants_unsettled_idx')
      .on(t.endsAt)
      .where(sql`${t.settledAt} is null and ${t.endsAt} is not null`),
    // One open row per subscription, so a repeated sync never opens a second one.
    uniqueIndex('access_grants_open_subscription_key')
      .on(t.sourceId)
      .where(sql`${t.source} in (${sqlList(SUBSCRIPTION_SOURCES)}) and ${t.endsAt} is null`),
    check('access_grants_level_check', sql`${t.accessLevel} in (${sqlList(GRANT_LEVELS)})`),
    check('access_grants_source_check', sql`${t.source} in (${sqlList(GRANT_SOURCES)})`),
    check('access_grants_span_check', sql`${t.endsAt} is null or ${t.endsAt} >= ${t.startsAt}`),
  ],
);
export type AccessGrantRow = typeof accessGrants.$inferSelect;
export type NewAccessGrant = typeof accessGrants.$inferInsert;
