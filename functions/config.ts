/**
 * The server's configuration: read once from the environment at start-up and validated with zod.
 * Each part of the product declares its own settings beside its code (`defineSettings`: the variables
 * it reads and how they become its settings); this module joins them into one schema and one `Config`,
 * whose type is derived from those readers, and adds the rules that span parts. A bad value stops the
 * server with a message naming every offending variable.
 */
import path from 'node:path';
import { z } from 'zod';
import { aiSettings } from './ai/config.ts';
import { authSettings } from './auth/config.ts';
import { communityMailSettings } from './community/notifications/config.ts';
import { emailSettings } from './email/config.ts';
import { fileSettings } from './files/config.ts';
import { newsletterSettings } from './newsletter/config.ts';
import { paymentSettings } from './payments/config.ts';
import { serverSettings } from './platform/config/server.ts';
import type { SettingsContext } from './platform/config/settings.ts';
import { PROTECTED_PREFIX, uploadSettings } from './uploads/config.ts';
import { webhookSettings } from './outbound/config.ts';

const EnvSchema = z.object({
  ...serverSettings.variables,
  ...fileSettings.variables,
  ...emailSettings.variables,
  ...authSettings.variables,
  ...aiSettings.variables,
  ...paymentSettings.variables,
  ...uploadSettings.variables,
  ...newsletterSettings.variables,
  ...communityMailSettings.variables,
  ...webhookSettings.variables,
});

export type Env = z.infer<typeof EnvSchema>;

/** Every variable the server reads (the deploy files are checked against this list). */
export const CONFIG_VARIABLES: readonly string[] = Object.keys(EnvSchema.shape);

/** Every part's settings: the server's and the protected files' at the top, the others under their own key. */
function readSettings(env: Env, context: SettingsContext) {
  return {
    ...serverSettings.read(env, context),
    ...fileSettings.read(env, context),
    email: emailSettings.read(env, context),
    auth: authSettings.read(env, context),
    ai: aiSettings.read(env, context),
    billing: paymentSettings.read(env, context),
    uploads: uploadSettings.read(env, context),
    newsletter: newsletterSettings.read(env, context),
    communityMail: communityMailSettings.read(env, context),
    // No variables of its own (it follows the deployment).
    webhooks: webhookSettings.read({}, context),
  };
}

/** The whole configuration: its type is what the parts' readers return. */
export type Config = ReturnType<typeof readSettings>;

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

/**
 * What a process does with the configuration: what a deployment must have depends on it. A
 * `function` is the app as a serverless function (functions/serverless.ts): a server that lives per
 * request, so it needs a database server.
 */
export type ConfigRole = 'server' | 'function' | 'build' | 'worker';

/**
 * What a deployment must not start with, one problem per line naming its variables (none on the
 * embedded defaults, where `signals` is empty). The server takes payments, so it needs a payment
 * provider: Stripe, or test payments asked for on purpose with PAYMENTS=test. In production (an
 * https SITE_URL or NODE_ENV=production; a database server alone may be staging) it also refuses a
 * Stripe test key unless PAYMENTS=test, AUTH_AUTOCONFIRM with ADMIN_EMAILS (anyone could claim a
 * listed address), an http SITE_URL behind a proxy, and half an S3, SMTP or Supabase configuration.
 * The site build and the mail worker take no payments; a serverless function takes them as the server
 * does, and needs DATABASE_URL whatever else is set.
 */
export function deploymentProblems(env: Env, { signals, role }: { signals: readonly string[]; role: ConfigRole }): string[] {
  const problems: string[] = [];
  if (role === 'function') problems.push(...functionProblems(env));
  if (signals.length === 0) return problems;
  const where = `this is a deployment (${signals.join(', ')})`;
  const takesPayments = role === 'server' || role === 'function';
  if (takesPayments && !env.STRIPE_SECRET_KEY && env.PAYMENTS !== 'test') {
    problems.push(
      `STRIPE_SECRET_KEY: required because ${where}: without it members would pay on the test checkout with test cards. ` +
        'Set PAYMENTS=test to run the test checkout on purpose (staging, previews).',
    );
  }
  const production = signals.filter((s) => s !== 'DATABASE_URL is set');
  if (production.length === 0) return problems;
  const inProduction = `in production (${production.join(', ')})`;
  if (takesPayments && /^(sk|rk)_test_/.test(env.STRIPE_SECRET_KEY ?? '') && env.PAYMENTS !== 'test') {
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

/**
 * What a serverless function cannot do without: its instances share nothing but the outside services
 * and keep no disk between calls, so the embedded database, the local mailbox and local-disk storage
 * have no place in one, and a body over the platform's limit never reaches it (files go to the bucket).
 */
function functionProblems(env: Env): string[] {
  const problems: string[] = [];
  if (!env.DATABASE_URL) {
    problems.push(
      'DATABASE_URL: required in a serverless function: its instances share nothing but a database server (the embedded database lives in one process).',
    );
  }
  if (!env.SMTP_URL) {
    problems.push(
      "SMTP_URL: required in a serverless function: the local mailbox is a folder on one instance's disk, gone after its call.",
    );
  }
  if (!env.S3_BUCKET) {
    problems.push(
      "S3_BUCKET: required in a serverless function: files written at run time need a bucket (an instance's disk is gone after its call), and uploads go straight to it.",
    );
  } else if (!env.S3_DIRECT_UPLOADS) {
    problems.push('S3_DIRECT_UPLOADS: cannot be false in a serverless function: a file over 6 MB can only reach the bucket directly.');
  }
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
  if (env.DATABASE_DIRECT_URL && !env.DATABASE_URL) {
    problems.push(
      'DATABASE_DIRECT_URL: set together with DATABASE_URL (the pooled address; this one is the direct address of the same database)',
    );
  }
  if (env.STRIPE_CHECKOUT_UI === 'embedded' && !(env.STRIPE_SECRET_KEY && env.STRIPE_PUBLISHABLE_KEY)) {
    problems.push('STRIPE_CHECKOUT_UI: embedded needs STRIPE_SECRET_KEY and STRIPE_PUBLISHABLE_KEY (pk_…)');
  }
  return problems;
}

/** What says where images may come from: the uploads' storage and the payment settings. */
export interface ImageHostSettings {
  uploads: Pick<Config['uploads'], 'storage'>;
  billing: Pick<Config['billing'], 'stripe'>;
}

/** The public media host's origin (S3_PUBLIC_URL), when uploads have one: pages and staff bodies show images from it. */
export function mediaOrigin(config: Pick<ImageHostSettings, 'uploads'>): string | undefined {
  const { storage } = config.uploads;
  return storage.kind === 's3' && storage.publicUrl ? new URL(storage.publicUrl).origin : undefined;
}

/** Where images in staff bodies may come from besides a path on the site: the site's own origin and the public media host. */
export function bodyImageOrigins(config: Pick<Config, 'siteUrl'> & Pick<ImageHostSettings, 'uploads'>): string[] {
  const media = mediaOrigin(config);
  return [new URL(config.siteUrl).origin, ...(media ? [media] : [])];
}

/**
 * Where pages may show images from besides our own origin (their CSP's img-src): the public media host,
 * and Stripe's when its embedded Checkout runs inside our page (Stripe.js shows its images from there).
 */
export function pageImageSources(config: ImageHostSettings): string[] {
  const media = mediaOrigin(config);
  return [...(media ? [media] : []), ...(config.billing.stripe?.embeddedCheckout ? ['https://*.stripe.com'] : [])];
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
  const signals = deploymentSignals(source);
  const problems = [...consistencyProblems(env), ...deploymentProblems(env, { signals, role })];
  if (problems.length) throw new ConfigError(problems);
  const context: SettingsContext = {
    cwd,
    dataDir: path.resolve(cwd, env.DATA_DIR),
    contentDir: path.resolve(cwd, env.CONTENT_DIR),
    // The same signals that make a deployment (a database server, an https site, NODE_ENV=production set on
    // purpose, as the image does), and no hosted auth: only then are demo accounts welcome.
    embeddedDefaults: signals.length === 0 && !env.SUPABASE_URL,
    preview: Boolean(env.PREVIEW_OF),
  };
  return readSettings(env, context);
}
