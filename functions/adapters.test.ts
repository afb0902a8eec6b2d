import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { adapterRows, formatAdapterTable } from './adapters.ts';
import { loadConfig } from './config.ts';

const CWD = path.resolve('/srv/beacon');

describe('the adapter table printed at start', () => {
  it('marks every part embedded on the embedded defaults', () => {
    const rows = adapterRows(loadConfig({}, CWD));
    expect(rows.map((r) => r.part)).toEqual(['database', 'auth', 'mail', 'payments', 'storage', 'AI']);
    expect(rows.every((r) => r.embedded)).toBe(true);
    expect(formatAdapterTable(rows)).toMatch(/^ {2}payments +embedded +embedded test checkout/m);
  });

  it('names each real service without its secrets', () => {
    const config = loadConfig(
      {
        DATABASE_URL: 'postgres://app:db-password@db.internal:5432/beacon',
        SUPABASE_URL: 'https://project.supabase.co',
        SUPABASE_ANON_KEY: 'anon-key-value',
        SMTP_URL: 'smtps://apikey:smtp-password@smtp.example.com:465',
        STRIPE_SECRET_KEY: 'sk_live_abc',
        STRIPE_WEBHOOK_SECRET: 'whsec_abcdefghijklmnop',
        S3_BUCKET: 'media',
        OPENAI_API_KEY: 'sk-openai',
      },
      CWD,
    );
    const rows = adapterRows(config);
    expect(rows.every((r) => !r.embedded)).toBe(true);
    const table = formatAdapterTable(rows);
    expect(table).toContain('Postgres at db.internal:5432');
    expect(table).toContain('Stripe, live mode');
    for (const secret of ['db-password', 'smtp-password', 'sk_live_abc', 'anon-key-value', 'sk-openai'])
      expect(table).not.toContain(secret);
  });
});
