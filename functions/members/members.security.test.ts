/**
 * The members' business tools' routes, on both databases: the role table (admins only, from a live
 * session, for the filter's list, the members file both ways, labels, segments and API keys), the
 * API-key table (each route KEY_ROUTES opens answers a key with its scope and refuses one without;
 * every other admin route refuses keys), and the bad-input suite of the filter, labels and segments
 * (odd lists, dates, names, unknown parameters): a 4xx that writes nothing.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../tests/support/app.ts';
import { DATABASE_KINDS } from '../../tests/support/databases.ts';
import { rowCounts } from '../../tests/support/db-snapshot.ts';
import {
  ADMIN_ONLY,
  apiCaller,
  ROLE_ACCOUNTS,
  ROLE_CALLERS,
  roleAccounts,
  type RoleCaller,
  type RoleMember,
} from '../../tests/support/callers.ts';
import { API_SCOPES, type ApiScope } from '#shared/members.ts';

const UUID = '00000000-0000-4000-8000-0000000000aa';

describe.each(DATABASE_KINDS)('members tools routes on %s', (kind) => {
  let t: TestApp;
  let tokens = {} as Record<RoleMember, string>;
  let ids = {} as Record<RoleMember, string>;

  beforeAll(async () => {
    t = await createTestApp(kind, undefined, { AUTH_BCRYPT_COST: '4', EMAIL_WORKER: 'false' });
    ({ tokens, ids } = await roleAccounts(t, `members-${kind}`, ROLE_ACCOUNTS));
  });
  afterAll(() => t?.close());

  const raw = (token: string | undefined, method: string, path: string, body?: unknown) => apiCaller(t)(token, path, body, method);
  const call = (who: RoleCaller, method: string, path: string, body?: unknown) =>
    raw(who === 'anonymous' ? undefined : tokens[who], method, path, body);
  const csv = (who: RoleCaller, path: string, file: string) =>
    t.app.request(path, {
      method: 'POST',
      headers: { ...(who === 'anonymous' ? {} : { authorization: `Bearer ${tokens[who]}` }), 'content-type': 'text/csv' },
      body: file,
    });

  it.each(ROLE_CALLERS)('lets only admins use the filter, the file, labels, segments and keys (%s)', async (who) => {
    const ok = (status: number) => (who === 'admin' ? status : ADMIN_ONLY[who]);
    expect((await call(who, 'GET', '/api/admin/users?level=premium&label=Nobody')).status).toBe(ok(200));
    expect((await call(who, 'GET', '/api/admin/members/export.csv?label=Nobody')).status).toBe(ok(200));
    expect((await csv(who, '/api/admin/members/import?dryRun=1', `email\nrole-${who}@members.test`)).status).toBe(ok(200));
    expect((await call(who, 'GET', '/api/admin/members/labels')).status).toBe(ok(200));
    expect((await call(who, 'POST', '/api/admin/members/labels', { userIds: [ids.free], add: [`Role ${who}`] })).status).toBe(ok(200));
    expect((await call(who, 'DELETE', `/api/admin/members/labels/${UUID}`)).status).toBe(ok(404));
    expect((await call(who, 'GET', '/api/admin/members/segments')).status).toBe(ok(200));
    expect((await call(who, 'POST', '/api/admin/members/segments', { name: `Role ${who}`, filter: {} })).status).toBe(ok(201));
    expect((await call(who, 'DELETE', `/api/admin/members/segments/${UUID}`)).status).toBe(ok(404));
    expect((await call(who, 'GET', '/api/admin/members/keys')).status).toBe(ok(200));
    expect((await call(who, 'POST', '/api/admin/members/keys', { name: `Role ${who}`, scopes: ['read:members'] })).status).toBe(ok(201));
    expect((await call(who, 'DELETE', `/api/admin/members/keys/${UUID}`)).status).toBe(ok(404));
  });

  it('opens each route of the key table to a key with its scope only, and no other route to any key', async () => {
    const keys = {} as Record<ApiScope, string>;
    for (const scope of API_SCOPES) {
      const res = await call('admin', 'POST', '/api/admin/members/keys', { name: `Key ${scope}`, scopes: [scope] });
      keys[scope] = ((await res.json()) as { key: string }).key;
    }
    const routes: [string, string, ApiScope, unknown?][] = [
      ['GET', '/api/admin/users', 'read:members'],
      ['PATCH', `/api/admin/users/${ids.free}`, 'write:members', { accessLevel: 'free' }],
      ['GET', `/api/admin/payments/members/${ids.free}/grants`, 'read:members'],
      ['GET', '/api/admin/members/export.csv', 'read:members'],
      ['POST', '/api/admin/members/labels', 'write:members', { userIds: [ids.free], add: ['Keyed'] }],
      ['GET', '/api/admin/members/labels', 'read:members'],
      ['GET', '/api/admin/members/segments', 'read:members'],
      ['GET', '/api/admin/overview', 'read:analytics'],
      ['GET', '/api/admin/analytics/revenue', 'read:analytics'],
      ['GET', '/api/admin/analytics/revenue.csv', 'read:analytics'],
    ];
    for (const [method, path, scope, body] of routes)
      for (const held of API_SCOPES) {
        const status = (await raw(keys[held], method, path, body)).status;
        if (held === scope) expect(status, `${held} ${method} ${path}`).toBeLessThan(400);
        else expect(status, `${held} ${method} ${path}`).toBe(403);
      }
    // Routes outside the table: no key, whatever its scopes.
    const closed: [string, string, unknown?][] = [
      ['GET', '/api/admin/audit'],
      ['GET', '/api/admin/content'],
      ['GET', '/api/admin/members/keys'],
      ['POST', '/api/admin/members/keys', { name: 'Escalate', scopes: ['write:members'] }],
      ['POST', '/api/admin/members/segments', { name: 'Keyed', filter: {} }],
      ['GET', '/api/admin/outbound'],
      ['GET', '/api/admin/payments/offers'],
      ['GET', '/api/email/queue'],
      ['PUT', `/api/users/${ids.free}/accessLevel`, { accessLevel: 'premium' }],
      ['GET', '/api/users/me'],
    ];
    for (const [method, path, body] of closed)
      for (const held of API_SCOPES) expect((await raw(keys[held], method, path, body)).status, `${held} ${method} ${path}`).toBe(401);
    // A demoted author's keys stop.
    const { tokens: t2, ids: i2 } = await roleAccounts(t, `members-demoted-${kind}`, { admin: { role: 'admin', accessLevel: 'premium' } });
    const made = (await (
      await raw(t2.admin, 'POST', '/api/admin/members/keys', { name: 'Soon gone', scopes: ['read:members'] })
    ).json()) as {
      key: string;
    };
    expect((await raw(made.key, 'GET', '/api/admin/members/labels')).status).toBe(200);
    await t.services.users.assign(i2.admin, 'member', 'free');
    // At once: the author's role is read on every call (only the key's own row is kept a few seconds).
    expect((await raw(made.key, 'GET', '/api/admin/members/labels')).status).toBe(403);
  });

  it('refuses bad filters, labels and segments with a 4xx that writes nothing', async () => {
    const before = await rowCounts(t.database.db);
    const badQueries = [
      'level=gold',
      'level=premium,premium',
      'source=stolen',
      'status=happy',
      'newsletter=maybe',
      'joinedFrom=2026-02-30',
      'joinedFrom=2026-03-01&joinedTo=2026-02-01',
      'seenTo=9999-12-31',
      'seenFrom=0000-01-01',
      'joinedFrom=yesterday',
      `q=${'x'.repeat(201)}`,
      'q=a%00b',
      'label=a;b',
      `label=${Array.from({ length: 21 }, (_, i) => `L${i}`).join(',')}`,
      'colour=red',
      'page=0',
      'limit=500',
    ];
    for (const q of badQueries) {
      expect((await call('admin', 'GET', `/api/admin/users?${q}`)).status, q).toBe(422);
      if (!q.startsWith('page') && !q.startsWith('limit'))
        expect((await call('admin', 'GET', `/api/admin/members/export.csv?${q}`)).status, q).toBe(422);
    }
    const badBodies: unknown[] = [
      {},
      { add: [] },
      { add: ['ok'], extra: 1 },
      { add: [''] },
      { add: ['a,b'] },
      { add: ['x'.repeat(61)] },
      { add: ['line\nbreak'] },
      { add: 'VIP' },
      { userIds: ['not-a-uuid'], add: ['ok'] },
      { userIds: [], add: ['ok'] },
      { filter: { level: ['gold'] }, add: ['ok'] },
      { add: Array.from({ length: 21 }, (_, i) => `L${i}`) },
    ];
    for (const body of badBodies)
      expect((await call('admin', 'POST', '/api/admin/members/labels', body)).status, JSON.stringify(body)).toBe(422);
    const badSegments: unknown[] = [
      {},
      { name: 'No filter' },
      { name: '', filter: {} },
      { name: 'x'.repeat(81), filter: {} },
      { name: 'Bad', filter: { level: 42 } },
      { name: 'Bad', filter: { joinedFrom: '2026-13-01' } },
      { name: 'Bad', filter: { colour: 'red' } },
      { name: 'Bad\u0000', filter: {} },
    ];
    for (const body of badSegments)
      expect((await call('admin', 'POST', '/api/admin/members/segments', body)).status, JSON.stringify(body)).toBe(422);
    for (const body of [
      {},
      { name: 'k', scopes: [] },
      { name: 'k', scopes: ['admin:all'] },
      { name: 'k', scopes: ['read:members', 'read:members'] },
    ])
      expect((await call('admin', 'POST', '/api/admin/members/keys', body)).status, JSON.stringify(body)).toBe(422);
    expect((await call('admin', 'DELETE', '/api/admin/members/labels/not-a-uuid')).status).toBe(404);
    expect((await call('admin', 'DELETE', '/api/admin/members/segments/not-a-uuid')).status).toBe(404);
    expect((await call('admin', 'DELETE', '/api/admin/members/keys/not-a-uuid')).status).toBe(404);
    expect((await csv('admin', '/api/admin/members/import?dryRun=yes', 'email\na@b.test')).status).toBe(422);
    expect(await rowCounts(t.database.db)).toEqual(before);
  });
});
