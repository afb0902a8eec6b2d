/**
 * Hosted mode without the internet: a second server configured with SUPABASE_URL pointing at the
 * first one's /auth/v1 (which is Supabase-compatible) verifies the first one's tokens through its
 * remote JWKS, creates the member's profile on the first call, and does not serve /auth/v1 itself.
 */
import { createClient } from '@supabase/supabase-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../functions/config.ts';
import { startServer, type RunningServer } from '../../functions/main.ts';
import { CONTENT_DIR } from '../support/app.ts';
import type { Api, Answer } from '../support/answers.ts';
import { quietLogger } from '../support/fixtures.ts';
import { freePort } from '../support/postgres.ts';
import { migratedDataDir } from '../support/databases.ts';

describe('hosted auth mode', () => {
  let provider: RunningServer;
  let product: RunningServer;

  beforeAll(async () => {
    const port = await freePort();
    const common = {
      HOST: '127.0.0.1',
      CONTENT_DIR,
      LOG_LEVEL: 'silent',
      EMAIL_WORKER: 'false',
      AUTH_SEED_DEMO: 'false',
      AUTH_BCRYPT_COST: '4',
    };
    provider = await startServer(
      loadConfig({
        ...common,
        PORT: String(port),
        SITE_URL: `http://127.0.0.1:${port}`,
        DATA_DIR: await migratedDataDir('auth-provider'),
        AUTH_AUTOCONFIRM: 'true',
      }),
      quietLogger(),
      { withoutSite: true },
    );
    product = await startServer(
      loadConfig({
        ...common,
        PORT: '0',
        DATA_DIR: await migratedDataDir('auth-product'),
        SUPABASE_URL: provider.url,
        SUPABASE_ANON_KEY: 'public-anon-key',
      }),
      quietLogger(),
      { withoutSite: true },
    );
  });
  afterAll(async () => {
    await product?.close();
    await provider?.close();
  });

  it('verifies the project’s tokens through its JWKS and makes the profile on the first call', async () => {
    const sb = createClient(provider.url, 'public-anon-key', { auth: { persistSession: false, autoRefreshToken: false } });
    const { data, error } = await sb.auth.signUp({ email: 'Hosted.Member@example.test', password: 'hosted member pass' });
    expect(error).toBeNull();
    const token = data.session!.access_token;

    const res = await fetch(`${product.url}/api/users/me/export`, { headers: { authorization: `Bearer ${token}` } });
    expect(res.status).toBe(200);
    const body = (await res.json()) as Answer<Api['users']['me']['export']['$get']>;
    expect(body.profile).toMatchObject({ id: data.user!.id, email: 'hosted.member@example.test', accessLevel: 'free', role: 'member' });

    // A token from elsewhere (the product's own issuer would differ) is refused.
    const forged = token.split('.').slice(0, 2).join('.') + '.AAAA';
    expect((await fetch(`${product.url}/api/users/me/export`, { headers: { authorization: `Bearer ${forged}` } })).status).toBe(401);
    // Signed out at the project: what must stop at sign-out stops (the product asks the project).
    await sb.auth.setSession(data.session!);
    expect((await sb.auth.signOut()).error).toBeNull();
    const after = await fetch(`${product.url}/api/users/me/export`, { headers: { authorization: `Bearer ${token}` } });
    expect(after.status).toBe(401);

    // An account the project no longer knows gets no profile from its still-valid token.
    const gone = await sb.auth.signUp({ email: 'hosted.gone@example.test', password: 'hosted member pass' });
    const goneToken = gone.data.session!.access_token;
    expect(
      (await fetch(`${provider.url}/api/users/me`, { method: 'DELETE', headers: { authorization: `Bearer ${goneToken}` } })).status,
    ).toBe(204);
    for (let i = 0; i < 2; i += 1) {
      const res = await fetch(`${product.url}/api/users/me`, { headers: { authorization: `Bearer ${goneToken}` } });
      expect(res.status).toBe(401);
    }

    // The product does not run its own auth service in hosted mode.
    expect((await fetch(`${product.url}/auth/v1/settings`)).status).toBe(404);
    expect((await fetch(`${provider.url}/auth/v1/settings`)).status).toBe(200);
  });
});
