/**
 * The server's configuration: read once from the environment at start-up and validated with zod.
 * A bad value stops the server with a message naming every offending variable.
 */
import path from 'node:path';
import { z } from 'zod';
import { parseDownloadHosts } from '#shared/content/downloads.ts';
import { MAX_CDN_STALENESS_SECONDS } from './platform/http/cache-control.ts';
import type { S3StorageOptions } from './platform/storage/s3.ts';

const booleanFlag = z.enum(['true', 'false', '1', '0', 'yes', 'no', '']).transform((v) => v === 'true' || v === '1' || v === 'yes');

/** The bucket folder of member files for gated items; public media never live there. */
export const PROTECTED_PREFIX = 'protected/';

const EnvSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('production'),
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().min(1).default('127.0.0.1'),
  DATA_DIR: z.string().min(1).default('.data'),
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, 'must be a postgres:// or postgresql:// URL')
    .optional(),
  DATABASE_POOL_SIZE: z.coerce.number().int().min(1).max(100).default(10),
  CONTENT_DIR: z.string().min(1).default('content'),
  DIST_DIR: z.string().min(1).default('dist'),
  SITE_URL: z.url({ protocol: /^https?$/ }).optional(),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  TRUST_PROXY: z
    .string()
    .regex(/^(true|false|yes|no|[0-9])$/, 'must be true, false or the number of proxies in front (0-9)')
    .default('false'),
  MAX_BODY_BYTES: z.coerce
    .number()
    .int()
    .min(1024)
    .max(50 * 1024 * 1024)
    .default(1024 * 1024),
  HTTP_HEADERS_TIMEOUT_MS: z.coerce.number().int().min(100).max(120_000).default(10_000),
  HTTP_REQUEST_TIMEOUT_MS: z.coerce.number().int().min(100).max(600_000).default(30_000),
  HTTP_KEEP_ALIVE_TIMEOUT_MS: z.coerce.number().int().min(100).max(120_000).default(5_000),
  HTTP_MAX_CONNECTIONS: z.coerce.number().int().min(1).max(100_000).default(1024),
  /**
   * The staleness bound of anonymous pages and public API answers in a shared cache (a CDN in front):
   * fresh for half of it (s-maxage), served stale while revalidating for the other half. 0: revalidate every time.
   */
  CDN_STALENESS_SECONDS: z.coerce.number().int().min(0).max(MAX_CDN_STALENESS_SECONDS).default(MAX_CDN_STALENESS_SECONDS),
  SECRET_KEY: z.string().min(32, 'must be at least 32 characters').optional(),
  MAIL_FROM: z.string().min(3).default('Beacon Growth <hello@beacongrowth.co>'),
  CONTACT_INBOX: z.email().default('hello@beacongrowth.co'),
  SMTP_URL: z
    .string()
    .regex(/^smtps?:\/\//, 'must be an smtp:// or smtps:// URL')
    .optional(),
  EMAIL_WEBHOOK_SECRET: z.string().min(16, 'must be at least 16 characters').optional(),
  EMAIL_WORKER: booleanFlag.default(true),
  EMAIL_MAX_ATTEMPTS: z.coerce.number().int().min(1).max(20).default(6),
  EMAIL_CONCURRENCY: z.coerce.number().int().min(1).max(100).default(16),
  /** How long a worker holds the messages it claimed; a worker that dies gives them up when it ends. */
  EMAIL_LEASE_SECONDS: z.coerce.number().int().min(2).max(3600).default(120),
  /** How often the embedded test provider looks for ended periods to renew (every instance looks; each period renews once). */
  BILLING_CLOCK_SECONDS: z.coerce.number().int().min(1).max(3600).default(60),
  AUTH_AUTOCONFIRM: booleanFlag.default(false),
  AUTH_JWT_EXPIRY_SECONDS: z.coerce.number().int().min(60).max(604_800).default(3600),
  AUTH_MIN_PASSWORD_LENGTH: z.coerce.number().int().min(6).max(72).default(8),
  AUTH_BCRYPT_COST: z.coerce.number().int().min(4).max(15).default(10),
  AUTH_REDIRECT_URLS: z.string().default(''),
  AUTH_MAIL_COOLDOWN_SECONDS: z.coerce.number().int().min(0).max(3600).default(60),
  AUTH_OTP_EXPIRY_SECONDS: z.coerce.number().int().min(60).max(86_400).default(3600),
  AUTH_SEED_DEMO: booleanFlag.optional(),
  ADMIN_EMAILS: z.string().default(''),
  SUPABASE_URL: z.url({ protocol: /^https?$/ }).optional(),
  SUPABASE_ANON_KEY: z.string().min(10).optional(),
  SUPABASE_SERVICE_ROLE_KEY: z.string().min(10).optional(),
  STRIPE_SECRET_KEY: z
    .string()
    .regex(/^(sk|rk)_(test|live)_\w+$/, 'must be a Stripe secret key (sk_test_…, sk_live_…)')
    .optional(),
  STRIPE_WEBHOOK_SECRET: z.string().min(16, 'must be at least 16 characters').optional(),
  /**
   * `test`: this deployment takes test payments on purpose (staging, previews): the embedded test
   * checkout without a Stripe key, or Stripe with a test key (sk_test_…). Unset: automatic (Stripe
   * with a key, the test provider only on the embedded defaults; a test key refused in production).
   */
  PAYMENTS: z.enum(['test'], { message: 'must be test, or unset' }).optional(),
  /**
   * Preview mode: the branch a deploy preview shows (demo accounts and content, noindex everywhere, a
   * banner naming branch and commit, /preview listing the branch's content changes).
   */
  PREVIEW_OF: z
    .string()
    .regex(/^[\w./-]{1,100}$/, 'must be a branch name (letters, digits, . _ / -)')
    .optional(),
  /** The commit a preview was built from (the CI's GITHUB_SHA); shown in its banner. */
  PREVIEW_COMMIT: z
    .string()
    .regex(/^[0-9a-f]{7,40}$/, 'must be a git commit id')
    .optional(),
  /** The branch's content changes against its base, written by `npm run preview:changes` before the build. */
  PREVIEW_CHANGES_FILE: z.string().min(1).default('.preview/changes.json'),
  /** AI drafting (POST /openai/generate): a model through the OpenAI SDK when set, else the offline drafter. */
  OPENAI_API_KEY: z.string().min(1).optional(),
  /** Any OpenAI-compatible server's API root (…/v1); OpenAI's own when unset. */
  OPENAI_BASE_URL: z.url({ protocol: /^https?$/ }).optional(),
  OPENAI_MODEL: z.string().min(1).max(100).default('gpt-5.4-mini'),
  OPENAI_TIMEOUT_MS: z.coerce.number().int().min(1000).max(600_000).default(45_000),
  /** Where the Stripe SDK sends its calls (tests and stripe-mock); Stripe's own API when unset. */
  STRIPE_API_URL: z.url({ protocol: /^https?$/ }).optional(),
  /** Stripe Checkout as a redirect to Stripe's page (hosted) or inside our page through Stripe.js (embedded). */
  STRIPE_CHECKOUT_UI: z.enum(['hosted', 'embedded']).default('hosted'),
  STRIPE_PUBLISHABLE_KEY: z
    .string()
    .regex(/^pk_(test|live)_\w+$/, 'must be a Stripe publishable key (pk_test_…, pk_live_…)')
    .optional(),
  /**
   * Hosts that outside download links (an https `downloadUrl` or lesson file) may point at,
   * comma-separated host names; none by default, so every download is a protected file.
   */
  DOWNLOAD_HOSTS: z
    .string()
    .default('')
    .refine(
      (v) => parseDownloadHosts(v).invalid.length === 0,
      'must be comma-separated host names, e.g. files.example.com,cdn.example.org',
    ),
  /** Largest upload (POST /api/upload), separate from MAX_BODY_BYTES. */
  UPLOAD_MAX_BYTES: z.coerce
    .number()
    .int()
    .min(1024)
    .max(5 * 1024 * 1024 * 1024)
    .default(25 * 1024 * 1024),
  /**
   * Slowest pace an upload to POST /api/upload may keep (bytes a second over every HTTP_REQUEST_TIMEOUT_MS),
   * in place of the fixed time other requests get: a 25 MB file over a slow link takes minutes.
   */
  UPLOAD_MIN_BYTES_PER_SECOND: z.coerce
    .number()
    .int()
    .min(512)
    .max(10_000_000)
    .default(16 * 1024),
  /** Uploads go to this S3-compatible bucket when set (member files under protected/), else to DATA_DIR. */
  S3_BUCKET: z.string().min(1).optional(),
  S3_REGION: z.string().min(1).default('us-east-1'),
  S3_ENDPOINT: z.url({ protocol: /^https?$/ }).optional(),
  S3_FORCE_PATH_STYLE: booleanFlag.optional(),
  S3_ACCESS_KEY_ID: z.string().min(1).optional(),
  S3_SECRET_ACCESS_KEY: z.string().min(1).optional(),
  S3_PUBLIC_URL: z.url({ protocol: /^https?$/ }).optional(),
  S3_PREFIX: z
    .string()
    .regex(/^[\w.-]+\/$/, 'must be a folder name ending in /')
    .refine((v) => v !== PROTECTED_PREFIX, `must not be ${PROTECTED_PREFIX}, where member files for gated items live`)
    .optional(),
  /** Browsers send uploads straight to the bucket through presigned URLs (the bucket's CORS must allow SITE_URL's origin). */
  S3_DIRECT_UPLOADS: booleanFlag.default(true),
});

export type Env = z.infer<typeof EnvSchema>;

/** Every variable the server reads (the deploy files are checked against this list). */
export const CONFIG_VARIABLES: readonly string[] = Object.keys(EnvSchema.shape);

export interface Config {
  env: Env['NODE_ENV'];
  port: number;
  host: string;
  dataDir: string;
  database: { kind: 'pglite'; dataDir: string } | { kind: 'postgres'; url: string; poolSize: number };
  contentDir: string;
  distDir: string;
  /** Public origin used for canonical URLs and links in emails. */
  siteUrl: string;
  logLevel: Env['LOG_LEVEL'];
  /** Number of proxies in front whose X-Forwarded-For entries are trusted (0: use the socket). */
  trustProxy: number;
  maxBodyBytes: number;
  /** Limits that keep slow or idle clients from holding connections. */
  http: {
    /** Time allowed to send the request head. */
    headersTimeoutMs: number;
    /** Time allowed to send the whole request, body included. */
    requestTimeoutMs: number;
    /** How long an idle keep-alive connection stays open. */
    keepAliveTimeoutMs: number;
    /** Connections open at once; more are refused. */
    maxConnections: number;
  };
  /** How old (seconds) a shared cache's copy of an anonymous page or public API answer may be (CDN_STALENESS_SECONDS). */
  cdnStalenessSeconds: number;
  /** Signing secret for links in emails and downloads; generated and kept in the database if unset. */
  secretKey?: string;
  email: {
    from: string;
    contactInbox: string;
    /** SMTP server; without it, mail is written as .eml files into `mailboxDir`. */
    smtpUrl?: string;
    mailboxDir: string;
    webhookSecret?: string;
    /** Run the outbox worker inside the server process. */
    worker: boolean;
    maxAttempts: number;
    concurrency: number;
    /** How long a worker holds the messages it claimed before another may take them. */
    leaseMs: number;
  };
  /** Protected downloads (keys of downloadUrl) live here. */
  filesDir: string;
  /** Hosts outside download links may point at (DOWNLOAD_HOSTS, lower-case); empty: none. */
  downloadHosts: string[];
  /** The embedded auth service (functions/auth), Supabase Auth's defaults unless noted. */
  auth: {
    /** Sign-up confirms at once (GoTrue "autoconfirm"); off: a confirmation link is mailed first. */
    autoconfirm: boolean;
    jwtExpirySeconds: number;
    minPasswordLength: number;
    bcryptCost: number;
    /** Extra allowed `redirect_to` patterns (globs); the site's own origin is always allowed. */
    redirectUrls: string[];
    /** Least time between two mails of one kind to one user. */
    mailCooldownSeconds: number;
    /** Life of emailed links and codes. */
    otpExpirySeconds: number;
    /** Seed the demo accounts (one per access level and role): by default only on the embedded defaults. */
    seedDemo: boolean;
    /** Addresses that get the admin role at sign-up or first call. */
    adminEmails: string[];
    /** A hosted Supabase project: when set, the browser signs in there and the embedded service is off. */
    hosted?: { url: string; anonKey: string; serviceRoleKey?: string };
  };
  /** AI drafting: a model through the OpenAI SDK (any compatible server) when a key is set, else the offline drafter. */
  ai: {
    openai?: { apiKey: string; baseUrl?: string; model: string; timeoutMs: number };
  };
  /** A deploy preview (PREVIEW_OF): what its banner and /preview page show. */
  preview?: { branch: string; commit?: string; changesFile: string };
  /** Payments: Stripe when a key is set, else the embedded test provider (outside the embedded defaults only with PAYMENTS=test). */
  billing: {
    /** How often the embedded test provider renews periods that have ended. */
    clockMs: number;
    /** Verifies webhook signatures (Stripe's scheme); the embedded provider derives one from SECRET_KEY's store when unset. */
    webhookSecret?: string;
    stripe?: {
      secretKey: string;
      apiUrl?: string;
      /** Embedded: Checkout opens inside our page through Stripe.js, with this publishable key. */
      embeddedCheckout?: { publishableKey: string };
    };
  };
  /** POST /api/upload: its own size limit and pace, and where the files go. */
  uploads: {
    maxBytes: number;
    /** Slowest pace (bytes a second) an upload's body may arrive at. */
    minBytesPerSecond: number;
    /** Public media: local disk (default) or an S3-compatible bucket. */
    storage: StorageChoice;
    /** Member files for gated items, served only through signed links: DATA_DIR, or the bucket's protected/ folder (never given a public URL). */
    protectedStorage: StorageChoice;
  };
}

/** Where one storage area lives: a folder on local disk, or a bucket. */
export type StorageChoice = { kind: 'local'; dir: string } | ({ kind: 's3' } & S3StorageOptions);

/**
 * Every file written at run time goes to one of two areas, never into the code or content folder:
 * the bucket when one is set (public media under S3_PREFIX, member files under protected/), else
 * DATA_DIR on local disk.
 */
function uploadsConfig(env: Env, dataDir: string): Config['uploads'] {
  const common = { maxBytes: env.UPLOAD_MAX_BYTES, minBytesPerSecond: env.UPLOAD_MIN_BYTES_PER_SECOND };
  if (!env.S3_BUCKET) {
    return {
      ...common,
      storage: { kind: 'local', dir: path.join(dataDir, 'uploads') },
      protectedStorage: { kind: 'local', dir: path.join(dataDir, 'protected-uploads') },
    };
  }
  const bucket = {
    kind: 's3' as const,
    bucket: env.S3_BUCKET,
    region: env.S3_REGION,
    // Path-style addressing is what most S3-compatible servers (R2, Supabase, MinIO) expect.
    forcePathStyle: env.S3_FORCE_PATH_STYLE ?? Boolean(env.S3_ENDPOINT),
    ...(env.S3_ENDPOINT ? { endpoint: env.S3_ENDPOINT } : {}),
    ...(env.S3_ACCESS_KEY_ID ? { accessKeyId: env.S3_ACCESS_KEY_ID } : {}),
    ...(env.S3_SECRET_ACCESS_KEY ? { secretAccessKey: env.S3_SECRET_ACCESS_KEY } : {}),
    ...(env.S3_DIRECT_UPLOADS ? { directUploads: true } : {}),
  };
  return {
    ...common,
    storage: {
      ...bucket,
      ...(env.S3_PUBLIC_URL ? { publicUrl: env.S3_PUBLIC_URL } : {}),
      ...(env.S3_PREFIX ? { prefix: env.S3_PREFIX } : {}),
    },
    protectedStorage: { ...bucket, prefix: PROTECTED_PREFIX },
  };
}

export class ConfigError extends Error {
  readonly problems: string[];
  constructor(problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'ConfigError';
    this.problems = problems;
  }
}

/** Values are trimmed and blank ones count as unset, so `PORT=` in a .env file falls back to the default. */
function withoutEmpty(source: Record<string, string | undefined>): Record<string, string> {
  return Object.fromEntries(
    Object.entries(source)
      .map(([k, v]) => [k, v?.trim()] as const)
      .filter((e): e is [string, string] => e[1] !== undefined && e[1] !== ''),
  );
}

/**
 * What says the environment is past the embedded defaults, where real people use the site: a
 * database server, an https SITE_URL, or NODE_ENV=production set in the environment itself (the
 * schema's default of production does not count, so a bare `npm start` stays on the embedded
 * defaults). Empty on the embedded defaults.
 */
export function deploymentSignals(source: Record<string, string | undefined>): string[] {
  const env = withoutEmpty(source);
  return [
    ...(env.DATABASE_URL ? ['DATABASE_URL is set'] : []),
    ...(/^https:\/\//i.test(env.SITE_URL ?? '') ? ['SITE_URL is https'] : []),
    ...(env.NODE_ENV === 'production' ? ['NODE_ENV=production'] : []),
  ];
}

/** What a process does with the configuration: what a deployment must have depends on it. */
export type ConfigRole = 'server' | 'build' | 'worker';

/**
 * What a deployment must not start with, one problem per line naming its variables (none on the
 * embedded defaults, where `signals` is empty). The server takes payments, so it needs a payment
 * provider: Stripe, or test payments asked for on purpose with PAYMENTS=test. In production (an
 * https SITE_URL or NODE_ENV=production; a database server alone may be staging) it also refuses a
 * Stripe test key unless PAYMENTS=test, AUTH_AUTOCONFIRM with ADMIN_EMAILS (anyone could claim a
 * listed address), an http SITE_URL behind a proxy, and half an S3, SMTP or Supabase configuration.
 * The site build and the mail worker take no payments.
 */
export function deploymentProblems(env: Env, { signals, role }: { signals: readonly string[]; role: ConfigRole }): string[] {
  const problems: string[] = [];
  if (signals.length === 0) return problems;
  const where = `this is a deployment (${signals.join(', ')})`;
  if (role === 'server' && !env.STRIPE_SECRET_KEY && env.PAYMENTS !== 'test') {
    problems.push(
      `STRIPE_SECRET_KEY: required because ${where}: without it members would pay on the test checkout with test cards. ` +
        'Set PAYMENTS=test to run the test checkout on purpose (staging, previews).',
    );
  }
  const production = signals.filter((s) => s !== 'DATABASE_URL is set');
  if (production.length === 0) return problems;
  const inProduction = `in production (${production.join(', ')})`;
  if (role === 'server' && /^(sk|rk)_test_/.test(env.STRIPE_SECRET_KEY ?? '') && env.PAYMENTS !== 'test') {
    problems.push(`STRIPE_SECRET_KEY: a test key takes no real money ${inProduction}; use the live key, or set PAYMENTS=test on purpose.`);
  }
  if (env.AUTH_AUTOCONFIRM && (env.ADMIN_EMAILS ?? '').trim()) {
    problems.push(
      `AUTH_AUTOCONFIRM: not together with ADMIN_EMAILS ${inProduction}: sign-up would accept a listed address without proof (make admins in the dashboard instead).`,
    );
  }
  if (!/^https:\/\//i.test(env.SITE_URL ?? '') && !['false', 'no', '0'].includes(env.TRUST_PROXY ?? 'false')) {
    problems.push(`SITE_URL: set the public https address ${inProduction} behind TRUST_PROXY (links in mails and the auth issuer use it).`);
  }
  const s3Parts = (['S3_ENDPOINT', 'S3_PUBLIC_URL', 'S3_PREFIX', 'S3_ACCESS_KEY_ID', 'S3_SECRET_ACCESS_KEY'] as const).filter(
    (k) => env[k],
  );
  if (!env.S3_BUCKET && s3Parts.length > 0) problems.push(`S3_BUCKET: required with ${s3Parts.join(', ')} (half an S3 configuration).`);
  if (env.EMAIL_WEBHOOK_SECRET && !env.SMTP_URL) {
    problems.push('SMTP_URL: EMAIL_WEBHOOK_SECRET is set but mail goes to the local mailbox (half an SMTP configuration).');
  }
  if (env.SMTP_URL && /^smtps?:\/\/[^:@/]+@/.test(env.SMTP_URL)) {
    problems.push('SMTP_URL: names a user without a password (smtp://user:password@host:port).');
  }
  if (env.SUPABASE_URL && !env.SUPABASE_ANON_KEY)
    problems.push('SUPABASE_ANON_KEY: required with SUPABASE_URL (half a Supabase configuration).');
  return problems;
}

/** Settings that contradict each other wherever the server runs, one problem per line. */
function consistencyProblems(env: Env): string[] {
  const problems: string[] = [];
  if (env.PAYMENTS === 'test' && /^(sk|rk)_live_/.test(env.STRIPE_SECRET_KEY ?? '')) {
    problems.push('PAYMENTS: test asks for test payments, so it cannot be set together with a live STRIPE_SECRET_KEY (unset one of them)');
  }
  if (env.STRIPE_SECRET_KEY && !env.STRIPE_WEBHOOK_SECRET) {
    problems.push('STRIPE_WEBHOOK_SECRET: required with STRIPE_SECRET_KEY (the webhook signing secret, whsec_…)');
  }
  if (env.S3_BUCKET && env.S3_PUBLIC_URL && !env.S3_PREFIX) {
    problems.push(
      `S3_PREFIX: required with S3_PUBLIC_URL (e.g. media/), and only that folder may be public: member files for gated items share the bucket under ${PROTECTED_PREFIX}`,
    );
  }
  if (Boolean(env.S3_ACCESS_KEY_ID) !== Boolean(env.S3_SECRET_ACCESS_KEY)) {
    problems.push('S3_ACCESS_KEY_ID: set together with S3_SECRET_ACCESS_KEY (or neither, for the SDK default credentials)');
  }
  if (env.STRIPE_CHECKOUT_UI === 'embedded' && !(env.STRIPE_SECRET_KEY && env.STRIPE_PUBLISHABLE_KEY)) {
    problems.push('STRIPE_CHECKOUT_UI: embedded needs STRIPE_SECRET_KEY and STRIPE_PUBLISHABLE_KEY (pk_…)');
  }
  return problems;
}

/** Validates the environment; throws ConfigError listing every problem by variable name. */
export function loadConfig(
  source: Record<string, string | undefined> = process.env,
  cwd = process.cwd(),
  { role = 'server' }: { role?: ConfigRole } = {},
): Config {
  const parsed = EnvSchema.safeParse(withoutEmpty(source));
  if (!parsed.success) {
    throw new ConfigError(parsed.error.issues.map((i) => `${i.path.join('.') || 'environment'}: ${i.message}`));
  }
  const env = parsed.data;
  // Every problem in one message: whoever deploys fixes them in one go.
  const problems = [...consistencyProblems(env), ...deploymentProblems(env, { signals: deploymentSignals(source), role })];
  if (problems.length) throw new ConfigError(problems);
  const dataDir = path.resolve(cwd, env.DATA_DIR);
  const shownHost = env.HOST === '0.0.0.0' || env.HOST === '::' ? 'localhost' : env.HOST;
  return {
    env: env.NODE_ENV,
    port: env.PORT,
    host: env.HOST,
    dataDir,
    database: env.DATABASE_URL
      ? { kind: 'postgres', url: env.DATABASE_URL, poolSize: env.DATABASE_POOL_SIZE }
      : { kind: 'pglite', dataDir: path.join(dataDir, 'pglite') },
    contentDir: path.resolve(cwd, env.CONTENT_DIR),
    distDir: path.resolve(cwd, env.DIST_DIR),
    siteUrl: (env.SITE_URL ?? `http://${shownHost}:${env.PORT}`).replace(/\/$/, ''),
    ...(env.PREVIEW_OF
      ? {
          preview: {
            branch: env.PREVIEW_OF,
            ...(env.PREVIEW_COMMIT ? { commit: env.PREVIEW_COMMIT } : {}),
            changesFile: path.resolve(cwd, env.PREVIEW_CHANGES_FILE),
          },
        }
      : {}),
    logLevel: env.LOG_LEVEL,
    trustProxy: /^\d$/.test(env.TRUST_PROXY) ? Number(env.TRUST_PROXY) : ['true', 'yes'].includes(env.TRUST_PROXY) ? 1 : 0,
    maxBodyBytes: env.MAX_BODY_BYTES,
    http: {
      headersTimeoutMs: env.HTTP_HEADERS_TIMEOUT_MS,
      requestTimeoutMs: Math.max(env.HTTP_REQUEST_TIMEOUT_MS, env.HTTP_HEADERS_TIMEOUT_MS),
      keepAliveTimeoutMs: env.HTTP_KEEP_ALIVE_TIMEOUT_MS,
      maxConnections: env.HTTP_MAX_CONNECTIONS,
    },
    cdnStalenessSeconds: env.CDN_STALENESS_SECONDS,
    ...(env.SECRET_KEY ? { secretKey: env.SECRET_KEY } : {}),
    email: {
      from: env.MAIL_FROM,
      contactInbox: env.CONTACT_INBOX,
      ...(env.SMTP_URL ? { smtpUrl: env.SMTP_URL } : {}),
      mailboxDir: path.join(dataDir, 'mailbox'),
      ...(env.EMAIL_WEBHOOK_SECRET ? { webhookSecret: env.EMAIL_WEBHOOK_SECRET } : {}),
      worker: env.EMAIL_WORKER,
      maxAttempts: env.EMAIL_MAX_ATTEMPTS,
      concurrency: env.EMAIL_CONCURRENCY,
      leaseMs: env.EMAIL_LEASE_SECONDS * 1000,
    },
    filesDir: path.join(path.resolve(cwd, env.CONTENT_DIR), 'files'),
    downloadHosts: parseDownloadHosts(env.DOWNLOAD_HOSTS).hosts,
    auth: {
      autoconfirm: env.AUTH_AUTOCONFIRM,
      jwtExpirySeconds: env.AUTH_JWT_EXPIRY_SECONDS,
      minPasswordLength: env.AUTH_MIN_PASSWORD_LENGTH,
      bcryptCost: env.AUTH_BCRYPT_COST,
      redirectUrls: env.AUTH_REDIRECT_URLS.split(',')
        .map((u) => u.trim())
        .filter(Boolean),
      mailCooldownSeconds: env.AUTH_MAIL_COOLDOWN_SECONDS,
      otpExpirySeconds: env.AUTH_OTP_EXPIRY_SECONDS,
      // On by default only on the embedded defaults (PGlite, embedded auth, no https site): a deployment never gets them.
      // A deploy preview has them too (reviewers sign in as each level).
      seedDemo:
        env.AUTH_SEED_DEMO ??
        (Boolean(env.PREVIEW_OF) || (!env.DATABASE_URL && !env.SUPABASE_URL && !env.SITE_URL?.startsWith('https://'))),
      adminEmails: env.ADMIN_EMAILS.split(',')
        .map((e) => e.trim().toLowerCase())
        .filter(Boolean),
      ...(env.SUPABASE_URL
        ? {
            hosted: {
              url: env.SUPABASE_URL.replace(/\/$/, ''),
              anonKey: env.SUPABASE_ANON_KEY ?? '',
              ...(env.SUPABASE_SERVICE_ROLE_KEY ? { serviceRoleKey: env.SUPABASE_SERVICE_ROLE_KEY } : {}),
            },
          }
        : {}),
    },
    ai: {
      ...(env.OPENAI_API_KEY
        ? {
            openai: {
              apiKey: env.OPENAI_API_KEY,
              ...(env.OPENAI_BASE_URL ? { baseUrl: env.OPENAI_BASE_URL.replace(/\/$/, '') } : {}),
              model: env.OPENAI_MODEL,
              timeoutMs: env.OPENAI_TIMEOUT_MS,
            },
          }
        : {}),
    },
    billing: {
      clockMs: env.BILLING_CLOCK_SECONDS * 1000,
      ...(env.STRIPE_WEBHOOK_SECRET ? { webhookSecret: env.STRIPE_WEBHOOK_SECRET } : {}),
      ...(env.STRIPE_SECRET_KEY
        ? {
            stripe: {
              secretKey: env.STRIPE_SECRET_KEY,
              ...(env.STRIPE_API_URL ? { apiUrl: env.STRIPE_API_URL } : {}),
              ...(env.STRIPE_CHECKOUT_UI === 'embedded' && env.STRIPE_PUBLISHABLE_KEY
                ? { embeddedCheckout: { publishableKey: env.STRIPE_PUBLISHABLE_KEY } }
                : {}),
            },
          }
        : {}),
    },
    uploads: uploadsConfig(env, dataDir),
  };
}
