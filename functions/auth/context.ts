/**
 * What every part of the embedded auth service shares: its dependencies and settings, the store,
 * the per-IP request limits and mail cooldowns, and the checks on what callers send (addresses,
 * metadata). Built once by service.ts and handed to each part.
 */
import { z } from 'zod';
import type { Limit, RateLimitService } from '../platform/abuse/service.ts';
import type { Config } from '../config.ts';
import type { Db, DbOrTx } from '../platform/db/client.ts';
import type { EmailService } from '../email/index.ts';
import type { MailLanguage } from '../email/index.ts';
import type { Logger } from '../platform/logger.ts';
import { mailCooldown, overRequestLimit, validation } from './errors.ts';
import { createGuessingLimits } from './guessing.ts';
import type { SigningKeys } from './keys.ts';
import { createRedirectCheck } from './redirect.ts';
import { createAuthStore } from './store.ts';
import type { AccessTokenVerifier } from './verify.ts';

/** The service's settings (documented in config.ts). */
export type AuthSettings = Pick<
  Config['auth'],
  | 'autoconfirm'
  | 'jwtExpirySeconds'
  | 'minPasswordLength'
  | 'bcryptCost'
  | 'redirectUrls'
  | 'mailCooldownSeconds'
  | 'otpExpirySeconds'
  | 'rateLimits'
  | 'passwordTries'
>;

export interface AuthServiceDeps {
  db: Db;
  outbox: EmailService;
  limiter: RateLimitService;
  keys: SigningKeys;
  verify: AccessTokenVerifier;
  /** Server secret; refresh tokens carry an HMAC under a key derived from it. */
  secret: Uint8Array;
  siteUrl: string;
  settings: AuthSettings;
  logger: Logger;
}

/** What the auth service asks of the product's members, connected by compose.ts once both exist (`auth.connect`). */
export interface AuthHooks {
  /** The language the member chose for their emails (English when unknown). */
  languageFor: (tx: DbOrTx, userId: string) => Promise<MailLanguage | undefined>;
  /** Called when an email change completes, in its transaction (the profile keeps the address too). */
  onEmailChanged: (tx: DbOrTx, userId: string, email: string) => Promise<unknown>;
  /** Called in the sign-up's transaction, so the product's profile exists with the account. */
  /**
   * `verified`: the address is proven (a staff-made account), not merely accepted. `signup`: the
   * sign-up metadata's attribution (`data.signup`, as the caller wrote it: checked by the profile).
   */
  onUserCreated: (tx: DbOrTx, user: { id: string; email: string; verified: boolean; name?: string; signup?: unknown }) => Promise<unknown>;
}

/** The per-IP limits (contract 7.4): GoTrue's buckets, each counting requests per 5 minutes. */
type LimitKind = 'token' | 'otp' | 'verify';
const EmailAddress = z.email();

export function createAuthContext(deps: AuthServiceDeps) {
  /** Empty until compose.ts connects them (a service made alone, in a test, runs without them). */
  const hooks: Partial<AuthHooks> = {};
  const { db, limiter, siteUrl, settings } = deps;
  // Held in the database, so every instance counts together; sizes from AUTH_RATE_LIMIT_* (GoTrue's names).
  const limits: Record<LimitKind, Limit> = {
    token: { name: 'auth-token', max: settings.rateLimits.tokenRefresh, windowSeconds: 300 },
    otp: { name: 'auth-otp', max: settings.rateLimits.otp, windowSeconds: 300 },
    verify: { name: 'auth-verify', max: settings.rateLimits.verify, windowSeconds: 300 },
  };

  /** 429 once the client address has used up its requests of `kind` (no address: not counted). */
  async function limit(kind: LimitKind, ip: string | undefined): Promise<void> {
    if (!ip) return;
    if (!(await limiter.hit(limits[kind], ip)).allowed) throw overRequestLimit();
  }

  /** 429 while the mail stamped `sentAt` is younger than the cooldown. */
  function cooldown(sentAt: Date | null): void {
    if (!sentAt) return;
    const waitMs = sentAt.getTime() + settings.mailCooldownSeconds * 1000 - Date.now();
    if (waitMs > 0) throw mailCooldown(Math.ceil(waitMs / 1000));
  }

  /** The address a caller gave, normalised, or 400 when it is not one. */
  function emailOf(raw: string | null | undefined): string {
    const email = (raw ?? '').trim().toLowerCase();
    if (email.length > 255 || !EmailAddress.safeParse(email).success) throw validation('Unable to validate email address: invalid format');
    return email;
  }

  /** The caller's metadata without the keys the service owns (contract 1.1). */
  function callerData(data: Record<string, unknown> | null | undefined): Record<string, unknown> {
    const out = { ...data };
    for (const reserved of ['sub', 'email', 'email_verified', 'phone_verified']) delete out[reserved];
    return out;
  }

  /** The member's mail language, read in `tx`: on the embedded database a query outside an open transaction would wait for it. */
  async function languageOf(tx: DbOrTx, userId: string): Promise<MailLanguage> {
    return (await hooks.languageFor?.(tx, userId)) ?? 'en';
  }

  return {
    deps,
    hooks,
    db,
    settings,
    store: createAuthStore(db),
    issuer: `${siteUrl}/auth/v1`,
    allowedRedirect: createRedirectCheck(siteUrl, settings.redirectUrls),
    guessing: createGuessingLimits(limiter, settings.passwordTries),
    limit,
    cooldown,
    emailOf,
    callerData,
    languageOf,
  };
}

export type AuthContext = ReturnType<typeof createAuthContext>;
