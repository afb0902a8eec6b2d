/** Database tables (drizzle). Migrations in ./migrations are generated from this file. */
import { sql } from 'drizzle-orm';
import {
  bigint,
  boolean,
  check,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { ACCESS_LEVELS, ROLES, type Role } from '#shared/access.ts';
import { CONTENT_TYPES } from '#shared/content/registry.ts';
import type { MediaItem } from '#shared/content/schema.ts';
import { SUBSCRIPTION_STATUSES } from '../../payments/provider.ts';

/** `'a', 'b'` for a check constraint's `in (...)` list (the values are our own literals). */
const sqlList = (values: readonly string[]) => sql.raw(values.map((v) => `'${v}'`).join(', '));

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

const timestamptz = (name: string) => timestamp(name, { withTimezone: true });

/** Secrets the server generates once and every instance shares (e.g. the link-signing key). */
export const appSecrets = pgTable('app_secrets', {
  name: text('name').primaryKey(),
  value: text('value').notNull(),
  createdAt: timestamptz('created_at').notNull().defaultNow(),
});

export const EMAIL_STATUSES = ['queued', 'sent', 'delivered', 'failed'] as const;
export type EmailStatus = (typeof EMAIL_STATUSES)[number];

/**
 * The outbox: every message the product sends, written in the same transaction as the change that
 * causes it, and delivered by the worker (lease + attempts + backoff).
 */
export const emails = pgTable(
  'emails',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    subject: text('subject').notNull(),
    bodyHtml: text('body_html').notNull(),
    bodyText: text('body_text').notNull(),
    to: text('to_address').notNull(),
    from: text('from_address').notNull(),
    replyTo: text('reply_to'),
    headers: jsonb('headers').$type<Record<string, string>>().notNull().default({}),
    template: text('template').notNull(),
    status: text('status', { enum: EMAIL_STATUSES }).notNull().default('queued'),
    attempts: integer('attempts').notNull().default(0),
    maxAttempts: integer('max_attempts').notNull().default(6),
    nextAttemptAt: timestamptz('next_attempt_at').notNull().defaultNow(),
    leaseOwner: text('lease_owner'),
    leaseExpiresAt: timestamptz('lease_expires_at'),
    providerMessageId: text('provider_message_id'),
    errorMessage: text('error_message'),
    userId: text('user_id'),
    createdAt: timestamptz('created_at').notNull().defaultNow(),
    updatedAt: timestamptz('updated_at').notNull().defaultNow(),
    sentAt: timestamptz('sent_at'),
    deliveredAt: timestamptz('delivered_at'),
    failedAt: timestamptz('failed_at'),
  },
  (t) => [
    index('emails_due_idx')
      .on(t.nextAttemptAt)
      .where(sql`${t.status} = 'queued'`),
    index('emails_created_idx').on(t.createdAt),
    index('emails_provider_id_idx').on(t.providerMessageId),
    check('emails_status_check', sql`${t.status} in ('queued', 'sent', 'delivered', 'failed')`),
  ],
);

export type EmailRow = typeof emails.$inferSelect;
export type NewEmailRow = typeof emails.$inferInsert;

/** Delivery events reported by the mail provider, recorded once per provider event id. */
export const emailEvents = pgTable('email_events', {
  id: uuid('id').primaryKey().defaultRandom(),
  eventId: text('event_id').notNull().unique(),
  emailId: uuid('email_id').references(() => emails.id, { onDelete: 'cascade' }),
  type: text('type').notNull(),
  detail: text('detail'),
  occurredAt: timestamptz('occurred_at').notNull(),
  receivedAt: timestamptz('received_at').notNull().defaultNow(),
});

export const SUBSCRIBER_STATUSES = ['pending', 'confirmed', 'unsubscribed'] as const;

/** Newsletter subscribers with their double opt-in consent. */
export const newsletterSubscribers = pgTable('newsletter_subscribers', {
  id: uuid('id').primaryKey().defaultRandom(),
  email: text('email').notNull().unique(),
  status: text('status', { enum: SUBSCRIBER_STATUSES }).notNull().default('pending'),
  /** Bumped on every new subscription, so older confirmation links stop working. */
  tokenVersion: integer('token_version').notNull().default(1),
  consentSource: text('consent_source'),
  consentAt: timestamptz('consent_at').notNull().defaultNow(),
  confirmedAt: timestamptz('confirmed_at'),
  unsubscribedAt: timestamptz('unsubscribed_at'),
  createdAt: timestamptz('created_at').notNull().defaultNow(),
  updatedAt: timestamptz('updated_at').notNull().defaultNow(),
});

export type SubscriberRow = typeof newsletterSubscribers.$inferSelect;

/** Messages sent through the contact form. */
export const contactMessages = pgTable('contact_messages', {
  id: uuid('id').primaryKey().defaultRandom(),
  name: text('name').notNull(),
  email: text('email').notNull(),
  subject: text('subject').notNull(),
  message: text('message').notNull(),
  ip: text('ip'),
  userAgent: text('user_agent'),
  createdAt: timestamptz('created_at').notNull().defaultNow(),
});

/** People who left their details to download a free tool. */
export const leads = pgTable(
  'leads',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    name: text('name'),
    email: text('email').notNull(),
    phone: text('phone'),
    toolSlug: text('tool_slug').notNull(),
    ip: text('ip'),
    createdAt: timestamptz('created_at').notNull().defaultNow(),
  },
  (t) => [index('leads_email_idx').on(t.email)],
);

/** Fixed-window counters for abuse limits, shared by every instance. */
export const rateLimits = pgTable('rate_limits', {
  key: text('key').primaryKey(),
  windowStart: timestamptz('window_start').notNull(),
  count: integer('count').notNull(),
});

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
    area: text('area', { enum: ['public', 'protected'] }).notNull(),
    contentType: text('content_type').notNull(),
    size: bigint('size', { mode: 'number' }).notNull(),
    userId: uuid('user_id').notNull(),
    createdAt: timestamptz('created_at').notNull().defaultNow(),
    /** Set once the stored object passed the checks; the key is then answered as POST /api/upload would. */
    completedAt: timestamptz('completed_at'),
  },
  (t) => [
    index('upload_registrations_created_idx').on(t.createdAt),
    check('upload_registrations_area_check', sql`${t.area} in ('public', 'protected')`),
  ],
);

// ---------------------------------------------------------------------------------------------
// Embedded auth (functions/auth): the Supabase Auth (GoTrue) subset the browser's supabase-js uses.

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

// ---------------------------------------------------------------------------------------------
// Members (functions/users): the product's side of an account, keyed by the auth user id.

export { ROLES, type Role };
export const LANGUAGES = ['en', 'es', 'fr'] as const;
export type Language = (typeof LANGUAGES)[number];

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
    accessLevel: text('access_level', { enum: ACCESS_LEVELS }).notNull().default('free'),
    role: text('role', { enum: ROLES }).notNull().default('member'),
    /** The payment provider's customer, created once (a conditional write wins any race). */
    customerId: text('customer_id'),
    language: text('language', { enum: LANGUAGES }).notNull().default('en'),
    /** Version of the member's private feed link; bumping it revokes every earlier link. */
    feedVersion: integer('feed_version').notNull().default(1),
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

/** Where a member is in a course: the last lesson opened (to resume) and when. */
export const courseProgress = pgTable(
  'course_progress',
  {
    userId: uuid('user_id')
      .notNull()
      .references(() => profiles.id, { onDelete: 'cascade' }),
    courseSlug: text('course_slug').notNull(),
    lastLessonId: text('last_lesson_id'),
    updatedAt: timestamptz('updated_at').notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.courseSlug] })],
);

/** Lessons a member marked complete. */
export const lessonCompletions = pgTable(
  'lesson_completions',
  {
    userId: uuid('user_id')
      .notNull()
      .references(() => profiles.id, { onDelete: 'cascade' }),
    courseSlug: text('course_slug').notNull(),
    lessonId: text('lesson_id').notNull(),
    completedAt: timestamptz('completed_at').notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.courseSlug, t.lessonId] })],
);

// ---------------------------------------------------------------------------------------------
// Billing (functions/payments): what the payment provider told us, kept to answer fast and to know
// which changes already happened (mails and audit entries follow transitions, not events).

/** A member's subscriptions as last read from the provider (never from an event's snapshot). */
export const subscriptions = pgTable(
  'subscriptions',
  {
    id: text('id').primaryKey(),
    userId: uuid('user_id')
      .notNull()
      .references(() => profiles.id, { onDelete: 'cascade' }),
    customerId: text('customer_id').notNull(),
    status: text('status', { enum: SUBSCRIPTION_STATUSES }).notNull(),
    /** The tier id of the price (price_premium_yearly); null for a price we do not sell. */
    tierId: text('tier_id'),
    accessLevel: text('access_level', { enum: ACCESS_LEVELS }).notNull(),
    amount: integer('amount').notNull(),
    interval: text('interval').notNull(),
    cancelAtPeriodEnd: boolean('cancel_at_period_end').notNull().default(false),
    cancelAt: timestamptz('cancel_at'),
    currentPeriodEnd: timestamptz('current_period_end').notNull(),
    endedAt: timestamptz('ended_at'),
    /** A plan change the provider holds for the period end (a downgrade): its tier id, and when it applies. */
    scheduledTierId: text('scheduled_tier_id'),
    scheduledAt: timestamptz('scheduled_at'),
    createdAt: timestamptz('created_at').notNull().defaultNow(),
    updatedAt: timestamptz('updated_at').notNull().defaultNow(),
  },
  (t) => [
    index('subscriptions_user_idx').on(t.userId),
    check('subscriptions_status_check', sql`${t.status} in (${sqlList(SUBSCRIPTION_STATUSES)})`),
  ],
);
export type SubscriptionRow = typeof subscriptions.$inferSelect;

export const PURCHASABLE_TYPES = ['market', 'course'] as const;
export type PurchasableType = (typeof PURCHASABLE_TYPES)[number];

/** One-time purchases: a paid checkout session opens the item for its buyer, whatever their level. */
export const purchases = pgTable(
  'purchases',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => profiles.id, { onDelete: 'cascade' }),
    itemType: text('item_type', { enum: PURCHASABLE_TYPES }).notNull(),
    itemSlug: text('item_slug').notNull(),
    title: text('title').notNull(),
    amount: integer('amount').notNull(),
    currency: text('currency').notNull(),
    /** The checkout session that paid for it: one purchase per session, however often it is confirmed. */
    sessionId: text('session_id').notNull(),
    createdAt: timestamptz('created_at').notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('purchases_session_key').on(t.sessionId),
    uniqueIndex('purchases_user_item_key').on(t.userId, t.itemType, t.itemSlug),
    check('purchases_type_check', sql`${t.itemType} in (${sqlList(PURCHASABLE_TYPES)})`),
  ],
);
export type PurchaseRow = typeof purchases.$inferSelect;

/**
 * Signed webhook events from any provider (payments, mail delivery), one row per provider event
 * id: `processed_at` marks it applied; `claimed_at` lets one delivery work on it at a time (a claim
 * older than a minute is taken to be a crashed attempt).
 */
export const webhookEvents = pgTable(
  'webhook_events',
  {
    source: text('source').notNull(),
    id: text('id').notNull(),
    type: text('type').notNull(),
    claimedAt: timestamptz('claimed_at').notNull().defaultNow(),
    processedAt: timestamptz('processed_at'),
    receivedAt: timestamptz('received_at').notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.source, t.id] })],
);

// The embedded test payment provider's own state (functions/payments/embedded): what Stripe keeps
// on its side. Only the embedded provider reads or writes these tables.

export const testBillingCustomers = pgTable('test_billing_customers', {
  id: text('id').primaryKey(),
  email: text('email').notNull(),
  userId: text('user_id').notNull(),
  idempotencyKey: text('idempotency_key').notNull().unique(),
  /** Last four digits of the card on file, and whether later charges fail (test card 4000 0000 0000 0341). */
  cardLast4: text('card_last4'),
  cardFailsLater: boolean('card_fails_later').notNull().default(false),
  /** Cents of credit from prorated plan changes, taken off the next invoices (Stripe's customer balance). */
  credit: integer('credit').notNull().default(0),
  createdAt: timestamptz('created_at').notNull().defaultNow(),
});

export const testBillingSessions = pgTable('test_billing_sessions', {
  id: text('id').primaryKey(),
  kind: text('kind', { enum: ['checkout', 'portal'] }).notNull(),
  customerId: text('customer_id').notNull(),
  /** Checkout: mode, price (a plan's lookup key or an inline one-time line), urls, metadata, outcome. */
  detail: jsonb('detail').$type<Record<string, unknown>>().notNull(),
  status: text('status').notNull(),
  subscriptionId: text('subscription_id'),
  expiresAt: timestamptz('expires_at').notNull(),
  createdAt: timestamptz('created_at').notNull().defaultNow(),
});

export const testBillingSubscriptions = pgTable('test_billing_subscriptions', {
  id: text('id').primaryKey(),
  customerId: text('customer_id').notNull(),
  status: text('status', { enum: SUBSCRIPTION_STATUSES }).notNull(),
  lookupKey: text('lookup_key').notNull(),
  /** The plan the next period renews on (a scheduled downgrade, Stripe's subscription schedule); null keeps the plan. */
  pendingLookupKey: text('pending_lookup_key'),
  cancelAtPeriodEnd: boolean('cancel_at_period_end').notNull().default(false),
  currentPeriodStart: timestamptz('current_period_start').notNull(),
  currentPeriodEnd: timestamptz('current_period_end').notNull(),
  endedAt: timestamptz('ended_at'),
  /** The subscription's newest invoice: what it charged and why (Stripe's `latest_invoice`). */
  latestInvoice: jsonb('latest_invoice').$type<{ id: string; amountPaid: number; billingReason: string }>(),
  metadata: jsonb('metadata').$type<Record<string, string>>().notNull().default({}),
  createdAt: timestamptz('created_at').notNull().defaultNow(),
});

/** Events the embedded provider raised, delivered to the billing handler until it took them. */
export const testBillingEvents = pgTable(
  'test_billing_events',
  {
    id: text('id').primaryKey(),
    type: text('type').notNull(),
    object: jsonb('object').$type<Record<string, unknown>>().notNull(),
    created: integer('created').notNull(),
    deliveredAt: timestamptz('delivered_at'),
  },
  (t) => [index('test_billing_events_pending_idx').on(t.created)],
);
