/**
 * The user API's role table: every /api/users route for every kind of caller (anonymous, each access
 * level, each staff role, another member) and the exact status each gets, on both databases; plus
 * every way an access token can be wrong (all 401) and the privacy of the answers.
 */
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../tests/support/app.ts';
import type { Api, Answer, ErrorAnswer, ViewerAnswer } from '../../tests/support/answers.ts';
import { DATABASE_KINDS } from '../../tests/support/databases.ts';
import { badTokens } from '../../tests/support/tokens.ts';
import { auditLog, profiles } from './tables.ts';
import { authUsers } from '../auth/tables.ts';
import { emails } from '../email/tables.ts';
import type { AccessLevel, Role } from '#shared/access.ts';
import { DEMO_ACCOUNTS, DEMO_PASSWORD } from './demo.ts';

const PASSWORD = 'security table pass';
type ExportAnswer = Answer<Api['users']['me']['export']['$get']>;
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
      const body = (await res.json()) as Partial<ErrorAnswer>;
      if (status >= 400) expect(body.error?.requestId, `${who}`).toEqual(expect.any(String));
      expect(res.headers.get('cache-control'), `${who}`).toMatch(/private|no-store/);
      expect(res.headers.get('vary'), `${who}`).toMatch(/Authorization/);
    }
  });

  it('tells each caller who the server takes them to be, with the current access level', async () => {
    expect(await (await call('anonymous', 'GET', '/me')).json()).toEqual({ viewer: null });
    for (const who of SIGNED_IN) {
      expect(await (await call(who, 'GET', '/me')).json(), who).toEqual({
        viewer: {
          id: ids[who],
          email: emailOf(who),
          role: ACCOUNTS[who].role,
          accessLevel: ACCOUNTS[who].accessLevel,
          // Nobody chose yet: the newsletter is on where the plan includes it.
          newsletter: ACCOUNTS[who].accessLevel !== 'free',
        },
      });
    }
  });

  it('answers your own data only, and an admin’s access change is audited', async () => {
    const mine = (await (await call('another', 'GET', '/me/export')).json()) as ExportAnswer;
    expect(mine.profile).toMatchObject({ id: ids.another, email: emailOf('another') });
    const renamed = await call('another', 'PATCH', '/me', { name: 'Renamed', language: 'fr' });
    expect(await renamed.json()).toMatchObject({ id: ids.another, name: 'Renamed', language: 'fr' });
    expect((await call('admin', 'PUT', `/${ids.another}/accessLevel`, { accessLevel: 'premium' })).status).toBe(200);
    // The change shows on the member's next call (the profile cache is dropped).
    expect(await (await call('another', 'GET', '/me')).json()).toMatchObject({ viewer: { accessLevel: 'premium' } });
    // A level set by an admin is a comp in the grants ledger: both the comp and the moved level are audited.
    const trail = await t.database.db.select().from(auditLog).where(eq(auditLog.targetId, ids.another));
    expect(trail.find((e) => e.action === 'access_level.set')).toMatchObject({
      actorId: ids.admin,
      detail: { from: 'free', to: 'premium' },
    });
    expect(trail.find((e) => e.action === 'comp.granted')).toMatchObject({
      actorId: ids.admin,
      detail: { accessLevel: 'premium', until: null },
    });
    for (const bad of [{ accessLevel: 'gold' }, { accessLevel: 'premium\u0000' }, {}]) {
      expect((await call('admin', 'PUT', `/${ids.another}/accessLevel`, bad)).status).toBe(422);
    }
    expect((await call('admin', 'PUT', '/not-a-uuid/accessLevel', { accessLevel: 'free' })).status).toBe(404);
    // Anyone but an admin is refused before the id or the body is read: 403, whatever they send.
    expect((await call('premium', 'PUT', '/not-a-uuid/accessLevel', { accessLevel: 'free' })).status).toBe(403);
    expect((await call('editor', 'PUT', `/${ids.free}/accessLevel`, { accessLevel: 'bogus', extra: 1 })).status).toBe(403);
    expect((await call('another', 'PATCH', '/me', { role: 'admin' })).status).toBe(422);
    expect((await call('another', 'PATCH', '/me', { name: 'a\u0000b' })).status).toBe(422);
  });

  it('keeps a display name without the characters that make it read backwards', async () => {
    const renamed = await call('another', 'PATCH', '/me', { name: '\u202eAda\u200b Love\u2067lace\u2069\u200e' });
    expect(await renamed.json()).toMatchObject({ name: 'Ada Lovelace' });
    const [row] = await t.database.db.select().from(profiles).where(eq(profiles.id, ids.another));
    expect(row!.name).toBe('Ada Lovelace');
    // Nothing left to show is no name: refused as an empty one is, and the name stays.
    const empty = await call('another', 'PATCH', '/me', { name: '\u202e\u200b\u2066' });
    expect(empty.status).toBe(422);
    expect(await empty.json()).toMatchObject({ error: { code: 'validation_failed', fields: { name: ['name is required'] } } });
    const [kept] = await t.database.db.select().from(profiles).where(eq(profiles.id, ids.another));
    expect(kept!.name).toBe('Ada Lovelace');
  });

  it('refuses every kind of bad token with 401', async () => {
    const good = tokens.free;
    const bad = await badTokens(t.database.db, good, ids.admin);
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

  it('makes an ADMIN_EMAILS address admin only once the address is proven', async () => {
    const admins = await createTestApp(kind, t.database, {
      ADMIN_EMAILS: `boss-${kind}@security.test,squat-${kind}@security.test`,
      AUTH_BCRYPT_COST: '4',
    });
    const profileOf = async (id: string) => (await t.database.db.select().from(profiles).where(eq(profiles.id, id)))[0];
    const me = async (token: string) =>
      (await (await admins.app.request('/api/users/me', { headers: { authorization: `Bearer ${token}` } })).json()) as ViewerAnswer;
    try {
      // Made by the server (staff, demo): the server vouches for the address.
      const boss = await admins.services.auth.createConfirmedUser(`Boss-${kind}@security.test`, PASSWORD, 'Boss');
      expect(await profileOf(boss)).toMatchObject({ role: 'admin', accessLevel: 'premium', email: `boss-${kind}@security.test` });
      const plain = await admins.services.auth.createConfirmedUser(`plain-${kind}@security.test`, PASSWORD, 'Plain');
      expect(await profileOf(plain)).toMatchObject({ role: 'member', accessLevel: 'free' });

      // Signing up with a listed address proves nothing: a member until the mailed link is followed.
      const squat = `squat-${kind}@security.test`;
      const signedUp = await admins.services.auth.signUp({ email: squat, password: PASSWORD });
      const id = signedUp.kind === 'user' ? signedUp.user.id : '';
      expect(await profileOf(id)).toMatchObject({ role: 'member', accessLevel: 'free' });
      const [mail] = await t.database.db.select().from(emails).where(eq(emails.to, squat));
      const tokenHash = new URL(/https?:\/\/\S+\/auth\/v1\/verify\?\S+/.exec(mail!.bodyText)![0]).searchParams.get('token');
      const verified = await admins.services.auth.verify({ type: 'signup', tokenHash });
      if (!('session' in verified)) throw new Error('expected a session');
      expect(await me(verified.session.access_token)).toMatchObject({ viewer: { role: 'admin', accessLevel: 'premium' } });
    } finally {
      await admins.close();
    }
  });

  it('refuses a signed-out token where sign-out must bite at once, and nowhere else', async () => {
    const { access_token: token } = await t.services.auth.signInWithPassword({ email: emailOf('premium'), password: PASSWORD });
    const as = (method: string, path: string, body?: unknown) =>
      t.app.request(`/api/users${path}`, {
        method,
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
      });
    expect((await as('GET', '/me/export')).status).toBe(200);
    await t.services.auth.logout(`Bearer ${token}`, 'local');
    for (const [method, path, body] of [
      ['GET', '/me/export'],
      ['DELETE', '/me'],
      ['PUT', `/${ids.free}/accessLevel`, { accessLevel: 'free' }],
    ] as const) {
      const res = await as(method, path, body);
      expect(res.status, `${method} ${path}`).toBe(401);
      expect(await res.json()).toMatchObject({ error: { code: 'unauthorized', message: 'Your session has ended. Please sign in again.' } });
    }
    // Read-only answers about oneself still work until the token expires (signature checks only).
    expect((await as('GET', '/me')).status).toBe(200);
    expect(await t.database.db.select().from(profiles).where(eq(profiles.id, ids.premium))).toHaveLength(1);
  });

  it('seeds the demo accounts on start, each signing in with its level and role', async () => {
    const demo = await createTestApp(kind, t.database, { EMAIL_WORKER: 'false', AUTH_BCRYPT_COST: '4' });
    try {
      await demo.services.start();
      for (const account of DEMO_ACCOUNTS) {
        const session = await demo.services.auth.signInWithPassword({ email: account.email, password: DEMO_PASSWORD });
        const res = await demo.app.request('/api/users/me', { headers: { authorization: `Bearer ${session.access_token}` } });
        expect(await res.json(), account.email).toMatchObject({ viewer: { role: account.role, accessLevel: account.accessLevel } });
      }
    } finally {
      await demo.close();
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
    const exported = (await (await call('free', 'GET', '/me/export')).json()) as ExportAnswer;
    expect(exported.profile.id).toBe(ids.free);
  });
});
