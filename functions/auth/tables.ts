/**
 * Embedded auth's tables: the Supabase Auth (GoTrue) subset the browser's supabase-js uses —
 * accounts, sessions and refresh tokens, emailed one-time tokens, signing keys.
 */
import { sql } from 'drizzle-orm';
import { check, index, integer, jsonb, pgTable, text, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { sqlList, timestamptz } from '../platform/db/columns.ts';

/** App metadata of an email user, as GoTrue sets it. */
export interface AuthAppMetadata {
  provider: string;
  providers: string[];
  [key: string]: unknown;
}

/** Accounts: one per email address (stored lower-cased); the password as a bcrypt hash. */
export const authUsers = pgTable(
  'auth_users',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    email: text('email').notNull(),
    passwordHash: text('password_hash'),
    emailConfirmedAt: timestamptz('email_confirmed_at'),
    confirmationSentAt: timestamptz('confirmation_sent_at'),
    recoverySentAt: timestamptz('recovery_sent_at'),
    emailChangeSentAt: timestamptz('email_change_sent_at'),
    newEmail: text('new_email'),
    lastSignInAt: timestamptz('last_sign_in_at'),
    userMetadata: jsonb('user_metadata').$type<Record<string, unknown>>().notNull().default({}),
    appMetadata: jsonb('app_metadata')
      .$type<AuthAppMetadata>()
      .notNull()
      .default({ provider: 'email', providers: ['email'] }),
    /** Id of the user's email identity (GoTrue's `identity_id`). */
    identityId: uuid('identity_id').notNull().defaultRandom(),
    bannedUntil: timestamptz('banned_until'),
    createdAt: timestamptz('created_at').notNull().defaultNow(),
    updatedAt: timestamptz('updated_at').notNull().defaultNow(),
  },
  (t) => [uniqueIndex('auth_users_email_key').on(t.email)],
);
export type AuthUserRow = typeof authUsers.$inferSelect;

/** One sign-in on one device; deleting it signs that device out (its refresh tokens go with it). */
export const authSessions = pgTable(
  'auth_sessions',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => authUsers.id, { onDelete: 'cascade' }),
    /** How the session was authenticated: [{ method: 'password' | 'otp', timestamp }]. */
    amr: jsonb('amr').$type<{ method: string; timestamp: number }[]>().notNull(),
    createdAt: timestamptz('created_at').notNull().defaultNow(),
    refreshedAt: timestamptz('refreshed_at'),
  },
  (t) => [index('auth_sessions_user_idx').on(t.userId)],
);
export type AuthSessionRow = typeof authSessions.$inferSelect;

/**
 * Refresh tokens, single use. A token is its id plus an HMAC of the id under the server secret: only
 * the id is stored, so a copy of the database holds no usable token, yet the server can hand the
 * current token out again (to a client that lost its last answer).
 */
export const authRefreshTokens = pgTable(
  'auth_refresh_tokens',
  {
    id: text('id').primaryKey(),
    sessionId: uuid('session_id')
      .notNull()
      .references(() => authSessions.id, { onDelete: 'cascade' }),
    /** The token this one replaced (so the one just retired can be recognised). */
    parentId: text('parent_id'),
    /** When it was exchanged for its successor (null: the session's current token). */
    usedAt: timestamptz('used_at'),
    createdAt: timestamptz('created_at').notNull().defaultNow(),
  },
  (t) => [index('auth_refresh_tokens_session_idx').on(t.sessionId)],
);
export type AuthRefreshTokenRow = typeof authRefreshTokens.$inferSelect;

export const ONE_TIME_TOKEN_KINDS = [
  'confirmation',
  'recovery',
  'magiclink',
  'email_change_new',
  'email_change_current',
  'reauthentication',
] as const;
export type OneTimeTokenKind = (typeof ONE_TIME_TOKEN_KINDS)[number];

/** Emailed links and codes: the latest of each kind per user is the only valid one; only the hash is kept. */
export const authOneTimeTokens = pgTable(
  'auth_one_time_tokens',
  {
    userId: uuid('user_id')
      .notNull()
      .references(() => authUsers.id, { onDelete: 'cascade' }),
    kind: text('kind', { enum: ONE_TIME_TOKEN_KINDS }).notNull(),
    /** Lower-case hex SHA-224 of email + the 6-digit code (GoTrue's token hash). */
    tokenHash: text('token_hash').notNull(),
    /** The address the token was sent to. */
    email: text('email').notNull(),
    /** Wrong codes typed against this token; a few void it (codes are six digits). */
    failedAttempts: integer('failed_attempts').notNull().default(0),
    createdAt: timestamptz('created_at').notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('auth_one_time_tokens_user_kind_key').on(t.userId, t.kind),
    index('auth_one_time_tokens_hash_idx').on(t.tokenHash),
    check('auth_one_time_tokens_kind_check', sql`${t.kind} in (${sqlList(ONE_TIME_TOKEN_KINDS)})`),
  ],
);

/** ES256 signing keys (JWK), made on first start and shared by every instance; retired ones stay published for a while. */
export const authSigningKeys = pgTable('auth_signing_keys', {
  kid: uuid('kid').primaryKey(),
  privateJwk: jsonb('private_jwk').$type<Record<string, unknown>>().notNull(),
  publicJwk: jsonb('public_jwk').$type<Record<string, unknown>>().notNull(),
  createdAt: timestamptz('created_at').notNull().defaultNow(),
  /** Set when a newer key took over signing; published until its tokens have expired. */
  retiredAt: timestamptz('retired_at'),
});
export type AuthSigningKeyRow = typeof authSigningKeys.$inferSelect;
