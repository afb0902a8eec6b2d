/** The embedded auth service's settings (Supabase Auth's defaults unless noted), or a hosted Supabase project. */
import { z } from 'zod';
import { booleanFlag, commaList, defineSettings, httpUrl } from '../platform/config/settings.ts';

const perFiveMinutes = z.coerce.number().int().min(1).max(1_000_000);
const tries = z.coerce.number().int().min(1).max(1_000_000);

export const authSettings = defineSettings(
  {
    AUTH_AUTOCONFIRM: booleanFlag.default(false),
    AUTH_JWT_EXPIRY_SECONDS: z.coerce.number().int().min(60).max(604_800).default(3600),
    AUTH_MIN_PASSWORD_LENGTH: z.coerce.number().int().min(6).max(72).default(8),
    AUTH_BCRYPT_COST: z.coerce.number().int().min(4).max(15).default(10),
    AUTH_REDIRECT_URLS: z.string().default(''),
    AUTH_MAIL_COOLDOWN_SECONDS: z.coerce.number().int().min(0).max(3600).default(60),
    AUTH_OTP_EXPIRY_SECONDS: z.coerce.number().int().min(60).max(86_400).default(3600),
    /** Requests per client address per 5 minutes (GoTrue's GOTRUE_RATE_LIMIT_* of the same name, hosted defaults). */
    AUTH_RATE_LIMIT_TOKEN_REFRESH: perFiveMinutes.default(150),
    AUTH_RATE_LIMIT_OTP: perFiveMinutes.default(30),
    AUTH_RATE_LIMIT_VERIFY: perFiveMinutes.default(30),
    AUTH_PASSWORD_TRIES_PER_ADDRESS: tries.default(5),
    AUTH_PASSWORD_TRIES_PER_ACCOUNT: tries.default(20),
    AUTH_SEED_DEMO: booleanFlag.optional(),
    ADMIN_EMAILS: z.string().default(''),
    SUPABASE_URL: httpUrl().optional(),
    SUPABASE_ANON_KEY: z.string().min(10).optional(),
    SUPABASE_SERVICE_ROLE_KEY: z.string().min(10).optional(),
  },
  (env, { embeddedDefaults, preview }) => {
    const hosted: { url: string; anonKey: string; serviceRoleKey?: string } | undefined = env.SUPABASE_URL
      ? {
          url: env.SUPABASE_URL.replace(/\/$/, ''),
          anonKey: env.SUPABASE_ANON_KEY ?? '',
          ...(env.SUPABASE_SERVICE_ROLE_KEY ? { serviceRoleKey: env.SUPABASE_SERVICE_ROLE_KEY } : {}),
        }
      : undefined;
    return {
      /** Sign-up confirms at once (GoTrue "autoconfirm"); off: a confirmation link is mailed first. */
      autoconfirm: env.AUTH_AUTOCONFIRM,
      jwtExpirySeconds: env.AUTH_JWT_EXPIRY_SECONDS,
      minPasswordLength: env.AUTH_MIN_PASSWORD_LENGTH,
      bcryptCost: env.AUTH_BCRYPT_COST,
      /** Extra allowed `redirect_to` patterns (globs); the site's own origin is always allowed. */
      redirectUrls: commaList(env.AUTH_REDIRECT_URLS),
      /** Least time between two mails of one kind to one user. */
      mailCooldownSeconds: env.AUTH_MAIL_COOLDOWN_SECONDS,
      /** Life of emailed links and codes. */
      otpExpirySeconds: env.AUTH_OTP_EXPIRY_SECONDS,
      /**
       * Requests one client address may make per 5 minutes, named and counted as GoTrue's settings:
       * `tokenRefresh` every POST /token (password and refresh grants), `otp` sign-ups, recovery, resend,
       * sign-in links, reauthentication and user updates, `verify` GET and POST /verify.
       */
      rateLimits: { tokenRefresh: env.AUTH_RATE_LIMIT_TOKEN_REFRESH, otp: env.AUTH_RATE_LIMIT_OTP, verify: env.AUTH_RATE_LIMIT_VERIFY },
      /**
       * Password tries at one account (sign-in, or the current password of a change): `perAddress` from
       * one client address per 15 minutes (then that address waits); `perAccount` a day from addresses
       * the account has not signed in from (then those need a mailed link or code). See guessing.ts.
       */
      passwordTries: { perAddress: env.AUTH_PASSWORD_TRIES_PER_ADDRESS, perAccount: env.AUTH_PASSWORD_TRIES_PER_ACCOUNT },
      /**
       * Seed the demo accounts (one per access level and role): by default only on the embedded defaults,
       * and in a deploy preview (reviewers sign in as each level); a deployment never gets them.
       */
      seedDemo: env.AUTH_SEED_DEMO ?? (preview || embeddedDefaults),
      /** Addresses that get the admin role at sign-up or first call. */
      adminEmails: commaList(env.ADMIN_EMAILS.toLowerCase()),
      /** A hosted Supabase project: when set, the browser signs in there and the embedded service is off. */
      ...(hosted ? { hosted } : {}),
    };
  },
);

export type AuthSettings = ReturnType<typeof authSettings.read>;
