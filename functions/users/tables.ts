/**
 * The members' tables: the product's side of an account (keyed by the auth user id) and the audit
 * log of what staff and billing changed about whom (written only through the users domain).
 */
import { sql } from 'drizzle-orm';
import { boolean, check, index, integer, jsonb, pgTable, text, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { ACCESS_LEVELS, ROLES, type Role } from '#shared/access.ts';
import { LANGUAGES, type Language } from '#shared/languages.ts';
import { sqlList, timestamptz } from '../platform/db/columns.ts';

export { LANGUAGES, ROLES, type Language, type Role };

/**
 * One profile per account (id = the auth user id, embedded or hosted): what the member pays for
 * (access level), what staff may do (role), the payment customer and the language of their emails.
 */
export const profiles = pgTable(
  'profiles',
  {
    id: uuid('id').primaryKey(),
    email: text('email').notNull(),
    name: text('name'),
    avatar: text('avatar'),
    /** Derived from the member's grants (payments/grants/ledger.ts), the only writer; never edited in place. */
    accessLevel: text('access_level', { enum: ACCESS_LEVELS }).notNull().default('free'),
    /** When the derived level may next change (a grant ends or starts): a read after it derives it again. */
    accessUntil: timestamptz('access_until'),
    role: text('role', { enum: ROLES }).notNull().default('member'),
    /** The payment provider's customer, created once (a conditional write wins any race). */
    customerId: text('customer_id'),
    language: text('language', { enum: LANGUAGES }).notNull().default('en'),
    /** Version of the member's private feed link; bumping it revokes every earlier link. */
    feedVersion: integer('feed_version').notNull().default(1),
    /** Whether the member gets the members' newsletter; null: the default of their level (on where the plan includes it). */
    newsletter: boolean('newsletter'),
    /** Where the member came from: the referrer and UTM parameters of their first page, kept at sign-up (issue 35). */
    signupReferrer: text('signup_referrer'),
    signupUtmSource: text('signup_utm_source'),
    signupUtmMedium: text('signup_utm_medium'),
    signupUtmCampaign: text('signup_utm_campaign'),
    createdAt: timestamptz('created_at').notNull().defaultNow(),
    updatedAt: timestamptz('updated_at').notNull().defaultNow(),
  },
  (t) => [
    index('profiles_email_idx').on(t.email),
    uniqueIndex('profiles_customer_id_key').on(t.customerId),
    check('profiles_access_check', sql`${t.accessLevel} in (${sqlList(ACCESS_LEVELS)})`),
    check('profiles_role_check', sql`${t.role} in (${sqlList(ROLES)})`),
    check('profiles_language_check', sql`${t.language} in (${sqlList(LANGUAGES)})`),
  ],
);
export type ProfileRow = typeof profiles.$inferSelect;

/** What staff changed about whom (access levels today), kept when the member is deleted. */
export const auditLog = pgTable(
  'audit_log',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    actorId: uuid('actor_id').notNull(),
    action: text('action').notNull(),
    targetId: uuid('target_id').notNull(),
    detail: jsonb('detail').$type<Record<string, unknown>>().notNull().default({}),
    createdAt: timestamptz('created_at').notNull().defaultNow(),
  },
  (t) => [index('audit_log_target_idx').on(t.targetId)],
);

/**
 * When each member was last seen signed in (at most an hour stale), apart from `profiles` so that
 * marking it neither fires the profile-changed trigger (every instance would drop its cached profile)
 * nor counts as a change to the member.
 */
export const memberSeen = pgTable('member_seen', {
  userId: uuid('user_id')
    .primaryKey()
    .references(() => profiles.id, { onDelete: 'cascade' }),
  lastSeenAt: timestamptz('last_seen_at').notNull().defaultNow(),
});
