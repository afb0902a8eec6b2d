/**
 * The user API's role table: every /api/users route for every kind of caller (anonymous, each access
 * level, each staff role, another member) and the exact status each gets, on both databases; plus
 * every way an access token can be wrong (all 401) and the privacy of the answers.
 */
import { eq } from 'drizzle-orm';
import { decodeJwt, decodeProtectedHeader, generateKeyPair, importJWK, SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../tests/support/app.ts';
import { DATABASE_KINDS } from '../../tests/support/databases.ts';
import { auditLog, authSigningKeys, authUsers, emails, profiles, type Role } from '../db/schema.ts';
import type { AccessLevel } from '../../src/lib/access.ts';

const PASSWORD = 'security table pass';
type Caller = 'anonymous' | 'free' | 'subscriber' | 'premium' | 'editor' | 'admin' | 'another';
const SIGNED_IN: Exclude<Caller, 'anonymous'>[] = ['free', 'subscriber', 'premium', 'editor', 'admin', 'another'];
const ACCOUNTS: Record<Exclude<Caller, 'anonymous'>, { role: Role; accessLevel: AccessLevel }> = {
  free: { role: 'member', accessLevel: 'free' },
  subscriber: { role: 'member', accessLevel: 'subscriber' },
  premium: { role: 'member', accessLevel: 'premium' },
  editor: { role: 'editor', accessLevel: 'premium' },
  admin: { role: 'admin', accessLevel: 'premium' },
  another: { role: 'member', accessLevel: 'free' },
};

describe.each(DATABASE_KINDS)('user API roles on %s', (kind) => {
  let t: TestApp;
  const ids = {} as Record<Exclude<Caller, 'anonymous'>, string>;
  const tokens = {} as Record<Exclude<Caller, 'anonymous'>, string>;
  const emailOf = (who: Exclude<Caller, 'anonymous'>) => `${who}-${kind}@security.test`;

  beforeAll(async () => {
    t = await createTestApp(kind, undefined, { AUTH_BCRYPT_COST: '4' });
    for (const who of SIGNED_IN) {
      ids[who] = await t.services.auth.createConfirmedUser(emailOf(who), PASSWORD, `The ${who}`);
      await t.services.users.assign(ids[who], ACCOUNTS[who].role, ACCOUNTS[who].accessLevel);
      tokens[who] = (await t.services.auth.signInWithPassword({ email: emailOf(who), password: PASSWORD })).access_token;
    }
  });
  afterAll(() => t?.close());

  function call(who: Caller, method: string, path: string, body?: unknown) {
    const headers: Record<string, string> = { 'x-forwarded-for': '203.0.113.9' };
    if (who !== 'anonymous') headers.authorization = `Bearer ${tokens[who]}`;
    if (body !== undefined) headers['content-type'] = 'application/json';
    return t.app.request(`/api/users${path}`, { method, headers, ...(body !== undefined ? { body: JSON.stringify(body) } : {}) });
  }

  /** The table: route x caller -> status. */
  const TABLE: { label: string; method: string; path: () => string; body?: unknown; expect: Record<Caller, number> }[] = [
    {
      label: 'GET byEmail of the free member',
      method: 'GET',
      path: () => `/byEmail/${encodeURIComponent(emailOf('free'))}`,
      expect: { anonymous: 401, free: 200, subscriber: 403, premium: 403, editor: 403, admin: 200, another: 403 },
    },
    {
      label: 'GET byEmail of an address nobody has',
      method: 'GET',
      path: () => `/byEmail/${encodeURIComponent(`nobody-${kind}@security.test`)}`,
      expect: { anonymous: 401, free: 403, subscriber: 403, premium: 403, editor: 403, admin: 404, another: 403 },
    },
    {
      label: 'PUT accessLevel of the free member',
      method: 'PUT',
      path: () => `/${ids.free}/accessLevel`,
      body: { accessLevel: 'free' },
      expect: { anonymous: 401, free: 403, subscriber: 403, premium: 403, editor: 403, admin: 200, another: 403 },
    },
    {
      label: 'PATCH me',
      method: 'PATCH',
      path: () => '/me',
      body: { language: 'en' },
      expect: { anonymous: 401, free: 200, subscriber: 200, premium: 200, editor: 200, admin: 200, another: 200 },
    },
    {
      label: 'GET me (who the server takes the caller to be)',
      method: 'GET',
      path: () => '/me',
      expect: { anonymous: 200, free: 200, subscriber: 200, premium: 200, editor: 200, admin: 200, another: 200 },
    },
    {
      label: 'GET me/export',
      method: 'GET',
      path: () => '/me/export',
      expect: { anonymous: 401, free: 200, subscriber: 200, premium: 200, editor: 200, admin: 200, another: 200 },
    },
    {
      label: 'DELETE me (anonymous only; deletion itself is tested below)',
      method: 'DELETE',
      path: () => '/me',
      expect: { anonymous: 401 } as Record<Caller, number>,
    },
  ];

  it.each(TABLE)('$label', async (row) => {
    for (const [who, status] of Object.entries(row.expect) as [Caller, number][]) {
      const res = await call(who, row.method, row.path(), row.body);
      expect(res.status, `${row.label} as ${who}`).toBe(status);
      const body = (await res.json()) as { error?: { code: string; requestId: string }; id?: string };
      if (status >= 400) expect(body.error?.requestId, `${who}`).toEqual(expect.any(String));
      expect(res.headers.get('cache-control'), `${who}`).toMatch(/private|no-store/);
      expect(res.headers.get('vary'), `${who}`).toMatch(/Authorization/);
    }
  });

  it('tells each caller who the server takes them to be, with the current access level', async () => {
    expect(await (await call('anonymous', 'GET', '/me')).json()).toEqual({ viewer: null });
    for (const who of SIGNED_IN) {
      expect(await (await call(who, 'GET', '/me')).json(), who).toEqual({
        viewer: { id: ids[who], email: emailOf(who), role: ACCOUNTS[who].role, accessLevel: ACCOUNTS[who].accessLevel },
      });
    }
  });

  it('answers your own data only, and an admin’s access change is audited', async () => {
    const mine = (await (await call('another', 'GET', '/me/export')).json()) as { profile: { id: string; email: string } };
    expect(mine.profile).toMatchObject({ id: ids.another, email: emailOf('another') });
    const renamed = await call('another', 'PATCH', '/me', { name: 'Renamed', language: 'fr' });
    expect(await renamed.json()).toMatchObject({ id: ids.another, name: 'Renamed', language: 'fr' });
    expect((await call('admin', 'PUT', `/${ids.another}/accessLevel`, { accessLevel: 'premium' })).status).toBe(200);
    // The change shows on the member's next call (the profile cache is dropped).
    expect(await (await call('another', 'GET', '/me')).json()).toMatchObject({ viewer: { accessLevel: 'premium' } });
    const [audit] = await t.database.db.select().from(auditLog).where(eq(auditLog.targetId, ids.another));
    expect(audit).toMatchObject({ actorId: ids.admin, action: 'access_level.set', detail: { from: 'free', to: 'premium' } });
    for (const bad of [{ accessLevel: 'gold' }, { accessLevel: 'premium\u0000' }, {}]) {
      expect((await call('admin', 'PUT', `/${ids.another}/accessLevel`, bad)).status).toBe(422);
    }
    expect((await call('admin', 'PUT', '/not-a-uuid/accessLevel', { accessLevel: 'free' })).status).toBe(404);
    expect((await call('another', 'PATCH', '/me', { role: 'admin' })).status).toBe(422);
    expect((await call('another', 'PATCH', '/me', { name: 'a\u0000b' })).status).toBe(422);
  });

  it('refuses every kind of bad token with 401', async () => {
    const good = tokens.free;
    const claims = decodeJwt(good);
    const kid = decodeProtectedHeader(good).kid!;
    const now = Math.floor(Date.now() / 1000);
    const [row] = await t.database.db.select().from(authSigningKeys).where(eq(authSigningKeys.kid, kid));
    const ours = (await importJWK(row!.privateJwk as never, 'ES256')) as CryptoKey;
    const { privateKey: stranger } = await generateKeyPair('ES256');
    const sign = (key: CryptoKey | Uint8Array, payload: Record<string, unknown>, header: Record<string, unknown>) =>
      new SignJWT(payload).setProtectedHeader(header as never).sign(key);
    const [head, body, signature] = good.split('.');
    const bad: Record<string, string> = {
      expired: await sign(ours, { ...claims, iat: now - 7200, exp: now - 3600 }, { alg: 'ES256', kid }),
      'wrong issuer': await sign(ours, { ...claims, iss: 'https://evil.example/auth/v1' }, { alg: 'ES256', kid }),
      'wrong audience': await sign(ours, { ...claims, aud: 'service_role' }, { alg: 'ES256', kid }),
      'unknown kid': await sign(stranger, claims, { alg: 'ES256', kid: crypto.randomUUID() }),
      'alg none': `${Buffer.from(JSON.stringify({ alg: 'none', typ: 'JWT' })).toString('base64url')}.${body}.`,
      'HS256 with the public key': await sign(new TextEncoder().encode(JSON.stringify(row!.publicJwk)), claims, { alg: 'HS256', kid }),
      'tampered payload': `${head}.${Buffer.from(JSON.stringify({ ...claims, sub: ids.admin })).toString('base64url')}.${signature}`,
      'sub not a uuid': await sign(ours, { ...claims, sub: 'admin' }, { alg: 'ES256', kid }),
      'not a JWT': 'garbage',
    };
    for (const [label, token] of Object.entries(bad)) {
      const res = await t.app.request('/api/users/me/export', { headers: { authorization: `Bearer ${token}` } });
      expect(res.status, label).toBe(401);
      expect(res.headers.get('www-authenticate'), label).toBe('Bearer');
      expect(await res.json(), label).toMatchObject({ error: { code: 'unauthorized' } });
    }
    for (const header of ['Basic abc', 'Bearer', 'Bearer a b', `bearer\t${good}`]) {
      expect((await t.app.request('/api/users/me/export', { headers: { authorization: header } })).status, header).toBe(401);
    }
    // The apikey header is never trusted.
    expect((await t.app.request('/api/users/me/export', { headers: { apikey: 'public-anon-key' } })).status).toBe(401);
  });

  it('makes an ADMIN_EMAILS address an admin with premium access at sign-up', async () => {
    const admins = await createTestApp(kind, t.database, { ADMIN_EMAILS: `boss-${kind}@security.test`, AUTH_BCRYPT_COST: '4' });
    try {
      const id = await admins.services.auth.createConfirmedUser(`Boss-${kind}@security.test`, PASSWORD, 'Boss');
      const [profile] = await t.database.db.select().from(profiles).where(eq(profiles.id, id));
      expect(profile).toMatchObject({ role: 'admin', accessLevel: 'premium', email: `boss-${kind}@security.test` });
      const plain = await admins.services.auth.createConfirmedUser(`plain-${kind}@security.test`, PASSWORD, 'Plain');
      expect((await t.database.db.select().from(profiles).where(eq(profiles.id, plain)))[0]).toMatchObject({
        role: 'member',
        accessLevel: 'free',
      });
    } finally {
      await admins.close();
    }
  });

  it('deletes the account and the personal data, mails a confirmation, and the member can no longer sign in', async () => {
    const address = emailOf('another');
    await t.services.newsletter.subscribe(address, '/');
    expect((await call('another', 'DELETE', '/me')).status).toBe(204);
    expect(await t.database.db.select().from(authUsers).where(eq(authUsers.email, address))).toEqual([]);
    expect(await t.database.db.select().from(profiles).where(eq(profiles.id, ids.another))).toEqual([]);
    const mails = await t.database.db.select().from(emails).where(eq(emails.to, address));
    expect(mails.map((m) => m.template)).toContain('account-deleted');
    await expect(t.services.auth.signInWithPassword({ email: address, password: PASSWORD })).rejects.toMatchObject({
      code: 'invalid_credentials',
    });
    const exported = (await (await call('free', 'GET', '/me/export')).json()) as { profile: { id: string } };
    expect(exported.profile.id).toBe(ids.free);
  });
});
