import path from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  bodyImageOrigins,
  ConfigError,
  deploymentProblems,
  deploymentSignals,
  loadConfig,
  pageImageSources,
  type ConfigRole,
} from './config.ts';

const CWD = path.resolve('/srv/beacon');

/** The ConfigError thrown for `env`, or a failure when none is thrown. */
function configError(env: Record<string, string | undefined>, role?: ConfigRole): ConfigError {
  try {
    loadConfig(env, CWD, { role });
  } catch (err) {
    if (err instanceof ConfigError) return err;
    throw err;
  }
  throw new Error('expected loadConfig to throw a ConfigError');
}

describe('loadConfig defaults', () => {
  it('listens on 127.0.0.1:3000 with embedded PGlite under DATA_DIR/pglite', () => {
    const config = loadConfig({}, CWD);
    expect(config).toMatchObject({
      port: 3000,
      host: '127.0.0.1',
      dataDir: path.join(CWD, '.data'),
      database: { kind: 'pglite', dataDir: path.join(CWD, '.data', 'pglite') },
      contentDir: path.join(CWD, 'content'),
      distDir: path.join(CWD, 'dist'),
      siteUrl: 'http://127.0.0.1:3000',
      logLevel: 'info',
      trustProxy: 0,
      env: 'production',
    });
  });

  it('resolves a relative DATA_DIR against the working directory and keeps an absolute one', () => {
    expect(loadConfig({ DATA_DIR: 'var/data' }, CWD).database).toEqual({
      kind: 'pglite',
      dataDir: path.join(CWD, 'var', 'data', 'pglite'),
    });
    const absolute = path.resolve('/tmp/beacon-data');
    expect(loadConfig({ DATA_DIR: absolute }, CWD).dataDir).toBe(absolute);
  });

  it('treats empty strings as unset', () => {
    const config = loadConfig({ PORT: '', HOST: '', DATA_DIR: '', DATABASE_URL: '', SITE_URL: '', LOG_LEVEL: '', TRUST_PROXY: '' }, CWD);
    expect(config).toEqual(loadConfig({}, CWD));
  });

  it('ignores variables that are undefined', () => {
    expect(loadConfig({ PORT: undefined }, CWD).port).toBe(3000);
  });
});

describe('loadConfig overrides', () => {
  it('uses Postgres when DATABASE_URL is set', () => {
    const url = 'postgres://app:secret@db.internal:5432/beacon';
    expect(loadConfig({ DATABASE_URL: url, DATABASE_POOL_SIZE: '4', PAYMENTS: 'test' }, CWD).database).toEqual({
      kind: 'postgres',
      url,
      poolSize: 4,
    });
    expect(loadConfig({ DATABASE_URL: 'postgresql://db/beacon', PAYMENTS: 'test' }, CWD).database).toMatchObject({ kind: 'postgres' });
  });

  it('takes a direct address beside a pooled one, and never alone', () => {
    const pooled = 'postgres://app:secret@pooler.internal:6543/beacon';
    const direct = 'postgres://app:secret@db.internal:5432/beacon';
    expect(loadConfig({ DATABASE_URL: pooled, DATABASE_DIRECT_URL: direct, PAYMENTS: 'test' }, CWD).database).toEqual({
      kind: 'postgres',
      url: pooled,
      directUrl: direct,
      poolSize: 10,
    });
    expect(configError({ DATABASE_DIRECT_URL: direct }).problems).toEqual([
      'DATABASE_DIRECT_URL: set together with DATABASE_URL (the pooled address; this one is the direct address of the same database)',
    ]);
    expect(configError({ DATABASE_URL: pooled, DATABASE_DIRECT_URL: 'mysql://db/x', PAYMENTS: 'test' }).problems[0]).toMatch(
      /^DATABASE_DIRECT_URL: must be a postgres/,
    );
  });

  it('removes the trailing slash of SITE_URL', () => {
    expect(loadConfig({ SITE_URL: 'https://beacongrowth.co/', PAYMENTS: 'test' }, CWD).siteUrl).toBe('https://beacongrowth.co');
  });

  it('builds the site URL from the port and host', () => {
    expect(loadConfig({ PORT: '8080', HOST: 'example.internal' }, CWD).siteUrl).toBe('http://example.internal:8080');
  });

  it.each(['0.0.0.0', '::'])('shows the wildcard host %s as localhost in the site URL', (HOST) => {
    const config = loadConfig({ HOST, PORT: '4000' }, CWD);
    expect(config.host).toBe(HOST);
    expect(config.siteUrl).toBe('http://localhost:4000');
  });

  it.each([
    ['true', 1],
    ['1', 1],
    ['2', 2],
    ['yes', 1],
    ['false', 0],
    ['0', 0],
    ['no', 0],
  ])('reads TRUST_PROXY=%s as %i trusted proxies', (TRUST_PROXY, expected) => {
    expect(loadConfig({ TRUST_PROXY }, CWD).trustProxy).toBe(expected);
  });

  it('lets a CDN keep anonymous pages and public answers 60 s by default, and takes 0-60 s', () => {
    expect(loadConfig({}, CWD).cdnStalenessSeconds).toBe(60);
    expect(loadConfig({ CDN_STALENESS_SECONDS: '0' }, CWD).cdnStalenessSeconds).toBe(0);
    expect(() => loadConfig({ CDN_STALENESS_SECONDS: '61' }, CWD)).toThrow(/CDN_STALENESS_SECONDS/);
    expect(() => loadConfig({ CDN_STALENESS_SECONDS: '2.5' }, CWD)).toThrow(/CDN_STALENESS_SECONDS/);
  });
});

describe('auth rate limits', () => {
  it('defaults to GoTrue’s hosted request limits and a few password tries per address, twenty a day per account', () => {
    expect(loadConfig({}, CWD).auth).toMatchObject({
      rateLimits: { tokenRefresh: 150, otp: 30, verify: 30 },
      passwordTries: { perAddress: 5, perAccount: 20 },
    });
  });

  it('takes each from its variable (GoTrue’s names), and refuses counts that are not whole and positive by name', () => {
    const env = {
      AUTH_RATE_LIMIT_TOKEN_REFRESH: '100000',
      AUTH_RATE_LIMIT_OTP: '1',
      AUTH_RATE_LIMIT_VERIFY: '7',
      AUTH_PASSWORD_TRIES_PER_ADDRESS: '3',
      AUTH_PASSWORD_TRIES_PER_ACCOUNT: '8',
    };
    expect(loadConfig(env, CWD).auth).toMatchObject({
      rateLimits: { tokenRefresh: 100_000, otp: 1, verify: 7 },
      passwordTries: { perAddress: 3, perAccount: 8 },
    });
    const problems = configError({
      AUTH_RATE_LIMIT_TOKEN_REFRESH: '0',
      AUTH_RATE_LIMIT_OTP: 'many',
      AUTH_RATE_LIMIT_VERIFY: '2.5',
      AUTH_PASSWORD_TRIES_PER_ADDRESS: '-1',
      AUTH_PASSWORD_TRIES_PER_ACCOUNT: '1e9',
    }).problems.join('\n');
    for (const name of Object.keys(env)) expect(problems).toContain(name);
  });
});

describe('loadConfig errors', () => {
  it('lists every bad variable by name at once', () => {
    const error = configError({
      PORT: 'abc',
      DATABASE_URL: 'mysql://x',
      LOG_LEVEL: 'loud',
      SITE_URL: 'ftp://x',
      TRUST_PROXY: 'maybe',
    });
    const named = error.problems.map((p) => p.split(':')[0]);
    expect(named.sort()).toEqual(['DATABASE_URL', 'LOG_LEVEL', 'PORT', 'SITE_URL', 'TRUST_PROXY']);
    for (const name of named) expect(error.message).toContain(`${name}:`);
  });

  it.each(['70000', '-1', '80.5'])('rejects PORT=%s', (PORT) => {
    const error = configError({ PORT });
    expect(error.problems).toHaveLength(1);
    expect(error.problems[0]).toMatch(/^PORT: /);
  });

  it('names the error ConfigError', () => {
    expect(configError({ LOG_LEVEL: 'loud' }).name).toBe('ConfigError');
  });
});

describe('loadConfig accounts', () => {
  it('seeds demo accounts only on the embedded defaults unless told', () => {
    expect(loadConfig({}, CWD).auth.seedDemo).toBe(true);
    const test = { PAYMENTS: 'test' };
    expect(loadConfig({ DATABASE_URL: 'postgres://u:p@db.example/app', ...test }, CWD).auth.seedDemo).toBe(false);
    expect(loadConfig({ SITE_URL: 'https://www.beacongrowth.co', ...test }, CWD).auth.seedDemo).toBe(false);
    expect(loadConfig({ SUPABASE_URL: 'https://proj.supabase.co' }, CWD).auth.seedDemo).toBe(false);
    // The image sets NODE_ENV=production: a single container on PGlite is a deployment, never seeded with demo accounts.
    expect(loadConfig({ NODE_ENV: 'production', ...test }, CWD).auth.seedDemo).toBe(false);
    expect(loadConfig({ DATABASE_URL: 'postgres://u:p@db.example/app', AUTH_SEED_DEMO: 'true', ...test }, CWD).auth.seedDemo).toBe(true);
    expect(loadConfig({ AUTH_SEED_DEMO: 'false' }, CWD).auth.seedDemo).toBe(false);
  });

  it('reads admin addresses lower-cased and a hosted project without a trailing slash', () => {
    const config = loadConfig(
      {
        ADMIN_EMAILS: ' Owner@Example.com , ops@example.com,',
        SUPABASE_URL: 'https://proj.supabase.co/',
        SUPABASE_ANON_KEY: 'anon-key-123',
      },
      CWD,
    );
    expect(config.auth.adminEmails).toEqual(['owner@example.com', 'ops@example.com']);
    expect(config.auth.hosted).toEqual({ url: 'https://proj.supabase.co', anonKey: 'anon-key-123' });
    expect(loadConfig({}, CWD).auth.hosted).toBeUndefined();
  });
});

describe('loadConfig payments', () => {
  const STRIPE = { STRIPE_SECRET_KEY: 'sk_test_config', STRIPE_WEBHOOK_SECRET: 'whsec_config_secret_1234' };

  it('uses the embedded provider without a key, and Stripe with a key and its webhook secret', () => {
    expect(loadConfig({}, CWD).billing).toEqual({ clockMs: 60_000, grantSweepMs: 20_000 });
    expect(loadConfig({ GRANT_SWEEP_SECONDS: '5' }, CWD).billing.grantSweepMs).toBe(5000);
    expect(() => loadConfig({ GRANT_SWEEP_SECONDS: '61' }, CWD)).toThrow(/GRANT_SWEEP_SECONDS/);
    expect(loadConfig({ BILLING_CLOCK_SECONDS: '1' }, CWD).billing.clockMs).toBe(1000);
    expect(loadConfig(STRIPE, CWD).billing).toEqual({
      clockMs: 60_000,
      grantSweepMs: 20_000,
      webhookSecret: STRIPE.STRIPE_WEBHOOK_SECRET,
      stripe: { secretKey: 'sk_test_config' },
    });
    expect(configError({ STRIPE_SECRET_KEY: 'sk_test_config' }).problems[0]).toMatch(/^STRIPE_WEBHOOK_SECRET/);
    expect(configError({ STRIPE_SECRET_KEY: 'pk_test_wrong_kind' }).problems[0]).toMatch(/^STRIPE_SECRET_KEY/);
  });

  it('opens Checkout inside the page only with Stripe and a publishable key', () => {
    const embedded = loadConfig({ ...STRIPE, STRIPE_CHECKOUT_UI: 'embedded', STRIPE_PUBLISHABLE_KEY: 'pk_test_config' }, CWD);
    expect(embedded.billing.stripe?.embeddedCheckout).toEqual({ publishableKey: 'pk_test_config' });
    expect(loadConfig({ ...STRIPE, STRIPE_PUBLISHABLE_KEY: 'pk_test_config' }, CWD).billing.stripe?.embeddedCheckout).toBeUndefined();
    expect(configError({ STRIPE_CHECKOUT_UI: 'embedded', STRIPE_PUBLISHABLE_KEY: 'pk_test_config' }).problems[0]).toMatch(
      /^STRIPE_CHECKOUT_UI/,
    );
    expect(configError({ ...STRIPE, STRIPE_CHECKOUT_UI: 'embedded' }).problems[0]).toMatch(/^STRIPE_CHECKOUT_UI/);
    expect(configError({ ...STRIPE, STRIPE_CHECKOUT_UI: 'popup' }).problems[0]).toMatch(/^STRIPE_CHECKOUT_UI/);
    expect(configError({ ...STRIPE, STRIPE_CHECKOUT_UI: 'embedded', STRIPE_PUBLISHABLE_KEY: 'sk_test_nope' }).problems[0]).toMatch(
      /^STRIPE_PUBLISHABLE_KEY/,
    );
  });
});

describe('loadConfig payments outside the embedded defaults', () => {
  const STRIPE = { STRIPE_SECRET_KEY: 'sk_live_config', STRIPE_WEBHOOK_SECRET: 'whsec_config_secret_1234' };
  /** Each sign of a deployment on its own: a database server, an https site, NODE_ENV=production said out loud. */
  const DEPLOYMENTS: [string, Record<string, string>][] = [
    ['DATABASE_URL is set', { DATABASE_URL: 'postgres://app:secret@db.internal:5432/beacon' }],
    ['SITE_URL is https', { SITE_URL: 'https://www.beacongrowth.co' }],
    ['NODE_ENV=production', { NODE_ENV: 'production' }],
  ];

  it('runs the test checkout on the embedded defaults, where NODE_ENV is production only by default', () => {
    for (const env of [{}, { SITE_URL: 'http://127.0.0.1:3000' }, { NODE_ENV: 'development' }, { NODE_ENV: 'test', PORT: '4000' }]) {
      const config = loadConfig(env, CWD);
      expect(config.billing.stripe, JSON.stringify(env)).toBeUndefined();
    }
    expect(loadConfig({}, CWD).env).toBe('production');
    expect(deploymentSignals({})).toEqual([]);
    expect(deploymentSignals({ DATABASE_URL: '', SITE_URL: ' ', NODE_ENV: '' })).toEqual([]);
  });

  it.each(DEPLOYMENTS)('refuses to start without Stripe when %s, naming STRIPE_SECRET_KEY and PAYMENTS=test', (signal, env) => {
    const error = configError(env);
    expect(error.problems).toHaveLength(1);
    expect(error.problems[0]).toMatch(/^STRIPE_SECRET_KEY: required because this is a deployment/);
    expect(error.problems[0]).toContain(signal);
    expect(error.problems[0]).toContain('PAYMENTS=test');
    expect(error.message).toMatch(/^Invalid configuration:/);
  });

  it('names every sign of a deployment it saw', () => {
    const error = configError({ DATABASE_URL: 'postgres://db/beacon', SITE_URL: 'https://beacongrowth.co', NODE_ENV: 'production' });
    expect(error.problems[0]).toContain('(DATABASE_URL is set, SITE_URL is https, NODE_ENV=production)');
  });

  it.each(DEPLOYMENTS)('runs the test checkout on purpose with PAYMENTS=test when %s (staging, previews)', (_signal, env) => {
    const config = loadConfig({ ...env, PAYMENTS: 'test' }, CWD);
    expect(config.billing.stripe).toBeUndefined();
  });

  it.each(DEPLOYMENTS)('takes payments through Stripe with a key when %s', (_signal, env) => {
    expect(loadConfig({ ...env, ...STRIPE }, CWD).billing.stripe).toEqual({ secretKey: 'sk_live_config' });
  });

  it('refuses PAYMENTS=test together with a Stripe key, naming both, wherever it runs', () => {
    for (const env of [{}, ...DEPLOYMENTS.map(([, e]) => e)]) {
      const error = configError({ ...env, ...STRIPE, PAYMENTS: 'test' });
      expect(error.problems).toHaveLength(1);
      expect(error.problems[0]).toMatch(/^PAYMENTS: /);
      expect(error.problems[0]).toContain('STRIPE_SECRET_KEY');
    }
  });

  it('knows no PAYMENTS value but test', () => {
    expect(configError({ PAYMENTS: 'live' }).problems[0]).toMatch(/^PAYMENTS: /);
    expect(loadConfig({ PAYMENTS: '' }, CWD).billing).toEqual({ clockMs: 60_000, grantSweepMs: 20_000 });
  });

  it('asks no payment provider of the site build or the mail worker, which take no payments', () => {
    const env = { DATABASE_URL: 'postgres://db/beacon', NODE_ENV: 'production' };
    expect(loadConfig(env, CWD, { role: 'build' }).database.kind).toBe('postgres');
    expect(loadConfig(env, CWD, { role: 'worker' }).database.kind).toBe('postgres');
    expect(() => loadConfig(env, CWD, { role: 'server' })).toThrow(ConfigError);
  });

  it('checks a deployment through one reusable function that lists every problem', () => {
    const env = { PORT: 3000 } as unknown as Parameters<typeof deploymentProblems>[0];
    expect(deploymentProblems(env, { signals: [], role: 'server' })).toEqual([]);
    expect(deploymentProblems(env, { signals: ['SITE_URL is https'], role: 'server' })).toEqual([
      expect.stringMatching(/^STRIPE_SECRET_KEY: /),
    ]);
    expect(deploymentProblems({ ...env, PAYMENTS: 'test' }, { signals: ['SITE_URL is https'], role: 'server' })).toEqual([]);
    expect(deploymentProblems(env, { signals: ['SITE_URL is https'], role: 'worker' })).toEqual([]);
  });

  it('asks a serverless function for a database server, a mail server and a bucket always, and for payments as the server', () => {
    expect(configError({}, 'function').problems).toEqual([
      expect.stringMatching(/^DATABASE_URL: required in a serverless function/),
      expect.stringMatching(/^SMTP_URL: required in a serverless function/),
      expect.stringMatching(/^S3_BUCKET: required in a serverless function/),
    ]);
    const env = { DATABASE_URL: 'postgres://db/beacon', SMTP_URL: 'smtp://mail.internal:25', S3_BUCKET: 'media' };
    expect(configError(env, 'function').problems).toEqual([expect.stringMatching(/^STRIPE_SECRET_KEY: /)]);
    expect(configError({ ...env, PAYMENTS: 'test', S3_DIRECT_UPLOADS: 'false' }, 'function').problems).toEqual([
      expect.stringMatching(/^S3_DIRECT_UPLOADS: cannot be false in a serverless function/),
    ]);
    expect(loadConfig({ ...env, PAYMENTS: 'test' }, CWD, { role: 'function' }).database.kind).toBe('postgres');
    // The Node server keeps its embedded parts.
    expect(loadConfig({ DATABASE_URL: 'postgres://db/beacon', PAYMENTS: 'test' }, CWD).uploads.storage.kind).toBe('local');
  });
});

describe('loadConfig uploads', () => {
  it('stores uploads on local disk under DATA_DIR with a 25 MB limit by default', () => {
    expect(loadConfig({}, CWD).uploads).toEqual({
      maxBytes: 25 * 1024 * 1024,
      minBytesPerSecond: 16 * 1024,
      storage: { kind: 'local', dir: path.join(CWD, '.data', 'uploads') },
      protectedStorage: { kind: 'local', dir: path.join(CWD, '.data', 'protected-uploads') },
      supportStorage: { kind: 'local', dir: path.join(CWD, '.data', 'support-attachments') },
    });
    expect(loadConfig({ UPLOAD_MIN_BYTES_PER_SECOND: '4096' }, CWD).uploads.minBytesPerSecond).toBe(4096);
    expect(loadConfig({ UPLOAD_MAX_BYTES: '2048' }, CWD).uploads.maxBytes).toBe(2048);
    expect(configError({ UPLOAD_MAX_BYTES: '10' }).problems[0]).toMatch(/^UPLOAD_MAX_BYTES/);
  });

  it('uses an S3-compatible bucket when S3_BUCKET is set, path-style with a custom endpoint', () => {
    const s3 = {
      S3_BUCKET: 'media',
      S3_ENDPOINT: 'https://acct.r2.cloudflarestorage.com',
      S3_ACCESS_KEY_ID: 'id',
      S3_SECRET_ACCESS_KEY: 'secret',
    };
    const bucket = {
      kind: 's3',
      bucket: 'media',
      region: 'us-east-1',
      endpoint: 'https://acct.r2.cloudflarestorage.com',
      forcePathStyle: true,
      accessKeyId: 'id',
      secretAccessKey: 'secret',
      directUploads: true,
    };
    expect(loadConfig(s3, CWD).uploads.storage).toEqual(bucket);
    // Member files share the bucket under protected/, which never gets a public URL.
    expect(loadConfig(s3, CWD).uploads.protectedStorage).toEqual({ ...bucket, prefix: 'protected/' });
    expect(loadConfig({ ...s3, S3_DIRECT_UPLOADS: 'false' }, CWD).uploads.protectedStorage).not.toHaveProperty('directUploads');
    // Support attachments: a folder of their own inside protected/, which no file link or media route can name.
    expect(loadConfig(s3, CWD).uploads.supportStorage).toEqual({ ...bucket, prefix: 'protected/support/' });
    const aws = loadConfig(
      { S3_BUCKET: 'media', S3_REGION: 'eu-west-1', S3_PUBLIC_URL: 'https://cdn.example.com', S3_PREFIX: 'uploads/' },
      CWD,
    );
    expect(aws.uploads.storage).toEqual({
      kind: 's3',
      bucket: 'media',
      region: 'eu-west-1',
      forcePathStyle: false,
      directUploads: true,
      publicUrl: 'https://cdn.example.com',
      prefix: 'uploads/',
    });
    expect(aws.uploads.protectedStorage).not.toHaveProperty('publicUrl');
    expect(configError({ S3_BUCKET: 'media', S3_ACCESS_KEY_ID: 'id' }).problems[0]).toMatch(/^S3_ACCESS_KEY_ID/);
    expect(configError({ S3_BUCKET: 'media', S3_PREFIX: '../x' }).problems[0]).toMatch(/^S3_PREFIX/);
    // A public base over the whole bucket would reach the member files; media get their own folder.
    expect(configError({ S3_BUCKET: 'media', S3_PUBLIC_URL: 'https://cdn.example.com' }).problems[0]).toMatch(/^S3_PREFIX: .*protected\//);
    expect(configError({ S3_BUCKET: 'media', S3_PREFIX: 'protected/' }).problems[0]).toMatch(/^S3_PREFIX/);
  });
});

describe('image hosts', () => {
  const STRIPE = { STRIPE_SECRET_KEY: 'sk_test_config', STRIPE_WEBHOOK_SECRET: 'whsec_config_secret_1234' };
  const BUCKET = { S3_BUCKET: 'media', S3_PUBLIC_URL: 'https://cdn.example.com/beacon/', S3_PREFIX: 'uploads/' };

  it('lets pages and staff bodies show images from our origin and the public media host only', () => {
    expect(pageImageSources(loadConfig({}, CWD))).toEqual([]);
    expect(bodyImageOrigins(loadConfig({ SITE_URL: 'http://127.0.0.1:4000/' }, CWD))).toEqual(['http://127.0.0.1:4000']);
    const bucket = loadConfig({ ...BUCKET, SITE_URL: 'http://127.0.0.1:4000' }, CWD);
    expect(pageImageSources(bucket)).toEqual(['https://cdn.example.com']);
    expect(bodyImageOrigins(bucket)).toEqual(['http://127.0.0.1:4000', 'https://cdn.example.com']);
    // A bucket without a public URL serves its media through our own /uploads.
    expect(pageImageSources(loadConfig({ S3_BUCKET: 'media' }, CWD))).toEqual([]);
  });

  it('adds Stripe’s images only while its embedded Checkout runs inside our pages', () => {
    expect(pageImageSources(loadConfig(STRIPE, CWD))).toEqual([]);
    const embedded = loadConfig({ ...STRIPE, STRIPE_CHECKOUT_UI: 'embedded', STRIPE_PUBLISHABLE_KEY: 'pk_test_config' }, CWD);
    expect(pageImageSources(embedded)).toEqual(['https://*.stripe.com']);
  });
});

describe('loadConfig downloads', () => {
  it('allows no outside download hosts by default, and reads DOWNLOAD_HOSTS lower-cased', () => {
    expect(loadConfig({}, CWD).downloadHosts).toEqual([]);
    expect(loadConfig({ DOWNLOAD_HOSTS: ' Files.Example.com, cdn.example.org ,' }, CWD).downloadHosts).toEqual([
      'files.example.com',
      'cdn.example.org',
    ]);
  });

  it('refuses entries that are not host names, naming the variable', () => {
    for (const value of ['https://files.example.com', 'files.example.com/kit', '*.example.com', 'files.example.com:443']) {
      expect(configError({ DOWNLOAD_HOSTS: value }).problems[0], value).toMatch(/^DOWNLOAD_HOSTS: must be comma-separated host names/);
    }
  });
});

describe('loadConfig in production (an https SITE_URL or NODE_ENV=production)', () => {
  const LIVE = {
    SITE_URL: 'https://www.beacongrowth.co',
    STRIPE_SECRET_KEY: 'sk_live_production',
    STRIPE_WEBHOOK_SECRET: 'whsec_production_secret_1',
  };

  it('starts with a complete production configuration', () => {
    const config = loadConfig({ ...LIVE, NODE_ENV: 'production', TRUST_PROXY: '1', DATABASE_URL: 'postgres://db/beacon' }, CWD);
    expect(config.billing.stripe?.secretKey).toBe('sk_live_production');
    expect(config.preview).toBeUndefined();
  });

  it('names every problem in one message', () => {
    const error = configError({
      NODE_ENV: 'production',
      SITE_URL: 'http://beacongrowth.co',
      TRUST_PROXY: '1',
      STRIPE_SECRET_KEY: 'sk_test_staging',
      STRIPE_WEBHOOK_SECRET: 'whsec_production_secret_1',
      AUTH_AUTOCONFIRM: 'true',
      ADMIN_EMAILS: 'owner@beacongrowth.co',
      S3_ENDPOINT: 'https://s3.example.com',
      EMAIL_WEBHOOK_SECRET: 'a-webhook-secret-long-enough',
      SUPABASE_URL: 'https://project.supabase.co',
    });
    expect(error.problems.map((p) => p.split(':')[0])).toEqual([
      'STRIPE_SECRET_KEY',
      'AUTH_AUTOCONFIRM',
      'SITE_URL',
      'S3_BUCKET',
      'SMTP_URL',
      'SUPABASE_ANON_KEY',
    ]);
    expect(error.message.split('\n')).toHaveLength(7);
  });

  it('takes a Stripe test key only with PAYMENTS=test (staging), and never a live key with it', () => {
    const staging = { ...LIVE, STRIPE_SECRET_KEY: 'sk_test_staging' };
    expect(configError(staging).problems[0]).toMatch(/^STRIPE_SECRET_KEY: a test key takes no real money/);
    expect(loadConfig({ ...staging, PAYMENTS: 'test' }, CWD).billing.stripe?.secretKey).toBe('sk_test_staging');
    expect(configError({ ...LIVE, PAYMENTS: 'test' }).problems[0]).toMatch(/^PAYMENTS: /);
    // Off production (a database server alone, a local run), a test key is what everybody uses.
    expect(
      loadConfig({ ...staging, SITE_URL: 'http://127.0.0.1:3000', DATABASE_URL: 'postgres://db/x' }, CWD).billing.stripe,
    ).toBeDefined();
  });

  it('refuses half an SMTP configuration: a user without a password', () => {
    expect(configError({ ...LIVE, SMTP_URL: 'smtps://apikey@smtp.example.com:465' }).problems[0]).toMatch(/^SMTP_URL: names a user/);
    expect(loadConfig({ ...LIVE, SMTP_URL: 'smtps://apikey:secret@smtp.example.com:465' }, CWD).email.smtpUrl).toBeDefined();
  });

  it('asks nothing more of the embedded defaults or a database server alone', () => {
    const env = { AUTH_AUTOCONFIRM: 'true', ADMIN_EMAILS: 'a@b.co', TRUST_PROXY: '1', S3_ENDPOINT: 'https://s3.example.com' };
    expect(loadConfig(env, CWD).auth.autoconfirm).toBe(true);
    expect(loadConfig({ ...env, DATABASE_URL: 'postgres://db/x', PAYMENTS: 'test' }, CWD).auth.autoconfirm).toBe(true);
  });
});

describe('loadConfig preview mode', () => {
  it('is off without PREVIEW_OF', () => {
    expect(loadConfig({}, CWD).preview).toBeUndefined();
  });

  it('names the branch and commit, finds the changes file and seeds the demo accounts', () => {
    const config = loadConfig(
      { PREVIEW_OF: 'feature/new-article', PREVIEW_COMMIT: 'abc1234', SITE_URL: 'https://pr-12.example.dev', PAYMENTS: 'test' },
      CWD,
    );
    expect(config.preview).toEqual({
      branch: 'feature/new-article',
      commit: 'abc1234',
      changesFile: path.join(CWD, '.preview', 'changes.json'),
    });
    expect(config.auth.seedDemo).toBe(true);
    expect(loadConfig({ PREVIEW_OF: 'x', AUTH_SEED_DEMO: 'false' }, CWD).auth.seedDemo).toBe(false);
  });

  it('refuses a branch name that is not one', () => {
    expect(configError({ PREVIEW_OF: 'a b<script>' }).problems[0]).toMatch(/^PREVIEW_OF: /);
    expect(configError({ PREVIEW_OF: 'main', PREVIEW_COMMIT: 'zzz' }).problems[0]).toMatch(/^PREVIEW_COMMIT: /);
  });
});
