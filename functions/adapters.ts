/**
 * Which adapter each outside part uses, read from the configuration alone (the same choices
 * `createServices` makes): printed as a short table at every start, so nobody goes live on an
 * embedded part by accident.
 */
import type { Config } from './config.ts';

export interface AdapterRow {
  part: 'database' | 'auth' | 'mail' | 'payments' | 'storage' | 'AI';
  /** What serves it, in a few words. */
  adapter: string;
  /** True for the embedded stand-in (fine on one machine, not for a live site). */
  embedded: boolean;
}

const host = (url: string) => {
  try {
    return new URL(url).host;
  } catch {
    return 'configured server';
  }
};

export function adapterRows(config: Config): AdapterRow[] {
  const { stripe } = config.billing;
  const storage = config.uploads.storage;
  return [
    config.database.kind === 'postgres'
      ? { part: 'database', adapter: `Postgres at ${host(config.database.url)}`, embedded: false }
      : { part: 'database', adapter: `embedded PGlite in ${config.database.dataDir}`, embedded: true },
    config.auth.hosted
      ? { part: 'auth', adapter: `Supabase Auth at ${host(config.auth.hosted.url)}`, embedded: false }
      : { part: 'auth', adapter: 'embedded auth service at /auth/v1', embedded: true },
    config.email.smtpUrl
      ? { part: 'mail', adapter: `SMTP via ${host(config.email.smtpUrl)}`, embedded: false }
      : { part: 'mail', adapter: `local mailbox in ${config.email.mailboxDir}`, embedded: true },
    stripe
      ? { part: 'payments', adapter: `Stripe, ${/^(sk|rk)_live_/.test(stripe.secretKey) ? 'live' : 'test'} mode`, embedded: false }
      : { part: 'payments', adapter: 'embedded test checkout (test cards, no money)', embedded: true },
    storage.kind === 's3'
      ? { part: 'storage', adapter: `S3 bucket ${storage.bucket}`, embedded: false }
      : { part: 'storage', adapter: `local disk in ${storage.dir}`, embedded: true },
    config.ai.openai
      ? { part: 'AI', adapter: `OpenAI-compatible model ${config.ai.openai.model}`, embedded: false }
      : { part: 'AI', adapter: 'offline drafter', embedded: true },
  ];
}

/** The table as printed at start: one line per part, embedded parts marked. */
export function formatAdapterTable(rows: readonly AdapterRow[]): string {
  const width = Math.max(...rows.map((r) => r.part.length));
  return rows.map((r) => `  ${r.part.padEnd(width)}  ${r.embedded ? 'embedded' : 'real    '}  ${r.adapter}`).join('\n');
}
