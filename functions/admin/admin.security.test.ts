/**
 * The admin API's role table (issue 11), on both databases: the email dashboard (queue, recent,
 * resend) and /api/admin (overview, user search, access changes, audit log) x {anonymous, free,
 * subscriber, premium, editor, admin}. Only admins get in: the email log holds other people's mail.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../tests/support/app.ts';
import type { ErrorAnswer } from '../../tests/support/answers.ts';
import { DATABASE_KINDS } from '../../tests/support/databases.ts';
import type { AccessLevel, Role } from '#shared/access.ts';
import { emails } from '../email/tables.ts';

const PASSWORD = 'admin table pass';
type Caller = 'anonymous' | 'free' | 'subscriber' | 'premium' | 'editor' | 'admin';
type Member = Exclude<Caller, 'anonymous'>;
const CALLERS: Caller[] = ['anonymous', 'free', 'subscriber', 'premium', 'editor', 'admin'];
const ACCOUNTS: Record<Member, { role: Role; accessLevel: AccessLevel }> = {
  free: { role: 'member', accessLevel: 'free' },
  subscriber: { role: 'member', accessLevel: 'subscriber' },
  premium: { role: 'member', accessLevel: 'premium' },
  editor: { role: 'editor', accessLevel: 'premium' },
  admin: { role: 'admin', accessLevel: 'premium' },
};
/** Admins only: 401 signed out, 403 for every other member. */
const ADMIN_ONLY = { anonymous: 401, free: 403, subscriber: 403, premium: 403, editor: 403, admin: 200 } satisfies Record<Caller, number>;

describe.each(DATABASE_KINDS)('admin API roles on %s', (kind) => {
  let t: TestApp;
  const ids = {} as Record<Member, string>;
  const tokens = {} as Record<Member, string>;
  let failedId = '';

  beforeAll(async () => {
    t = await createTestApp(kind, undefined, { AUTH_BCRYPT_COST: '4', EMAIL_WORKER: 'false' });
    for (const who of Object.keys(ACCOUNTS) as Member[]) {
      const email = `${who}-${kind}@admin-table.test`;
      ids[who] = await t.services.auth.createConfirmedUser(email, PASSWORD, `The ${who}`);
      await t.services.users.assign(ids[who], ACCOUNTS[who].role, ACCOUNTS[who].accessLevel);
      tokens[who] = (await t.services.auth.signInWithPassword({ email, password: PASSWORD })).access_token;
    }
    const [failed] = await t.database.db
      .insert(emails)
      .values({
        subject: 'Welcome',
        bodyHtml: '<p>Hi</p>',
        bodyText: 'Hi',
        to: `free-${kind}@admin-table.test`,
        from: 'hello@example.com',
        template: 'welcome',
        status: 'failed',
        failedAt: new Date(),
        errorMessage: 'Mailbox unavailable',
      })
      .returning();
    failedId = failed!.id;
  });
  afterAll(() => t?.close());

  function call(who: Caller, method: string, path: string, body?: unknown) {
    const headers: Record<string, string> = {};
    if (who !== 'anonymous') headers.authorization = `Bearer ${tokens[who]}`;
    if (body !== undefined) headers['content-type'] = 'application/json';
    return t.app.request(path, { method, headers, ...(body !== undefined ? { body: JSON.stringify(body) } : {}) });
  }

  const TABLE: { label: string; method: string; path: () => string; body?: unknown; expect: Record<Caller, number> }[] = [
    { label: 'GET /api/email/queue', method: 'GET', path: () => '/api/email/queue?limit=10', expect: ADMIN_ONLY },
    { label: 'GET /api/email/recent', method: 'GET', path: () => '/api/email/recent?limit=10', expect: ADMIN_ONLY },
    // The admin goes last and resends the failed mail once.
    { label: 'POST /api/email/{id}/resend', method: 'POST', path: () => `/api/email/${failedId}/resend`, expect: ADMIN_ONLY },
    { label: 'GET /api/admin/overview', method: 'GET', path: () => '/api/admin/overview', expect: ADMIN_ONLY },
    { label: 'GET /api/admin/users', method: 'GET', path: () => '/api/admin/users?q=admin-table&page=1&limit=20', expect: ADMIN_ONLY },
    {
      label: 'PATCH /api/admin/users/{id}',
      method: 'PATCH',
      path: () => `/api/admin/users/${ids.free}`,
      body: { accessLevel: 'free', role: 'member' },
      expect: ADMIN_ONLY,
    },
    { label: 'GET /api/admin/audit', method: 'GET', path: () => `/api/admin/audit?userId=${ids.free}`, expect: ADMIN_ONLY },
    { label: 'GET /api/admin/content', method: 'GET', path: () => '/api/admin/content', expect: ADMIN_ONLY },
  ];

  it.each(TABLE)('$label', async (row) => {
    for (const who of CALLERS) {
      const res = await call(who, row.method, row.path(), row.body);
      expect(res.status, `${row.label} as ${who}: ${await res.clone().text()}`).toBe(row.expect[who]);
      const body = (await res.json()) as Partial<ErrorAnswer>;
      if (res.status >= 400) expect(body.error?.requestId, who).toEqual(expect.any(String));
      expect(res.headers.get('cache-control'), who).toMatch(/private|no-store/);
    }
  });

  it('checks the role before reading anything: hostile input from a non-admin is still 401/403', async () => {
    for (const who of CALLERS.filter((c) => c !== 'admin')) {
      const expected = who === 'anonymous' ? 401 : 403;
      for (const [method, path, body] of [
        ['GET', '/api/email/queue?limit=abc'],
        ['GET', '/api/admin/users?page=-1'],
        ['PATCH', `/api/admin/users/${ids.admin}`, { role: 'member' }],
        ['GET', '/api/admin/audit?userId=x'],
      ] as [string, string, unknown?][]) {
        expect((await call(who, method, path, body)).status, `${who} ${method} ${path}`).toBe(expected);
      }
    }
  });

  it('answers 404 to a malformed email id whoever asks (the path takes only an id)', async () => {
    for (const who of CALLERS) {
      for (const path of ['/api/email/not-a-uuid/resend', '/api/email/events/resend', `/api/email/${failedId}x/resend`]) {
        expect((await call(who, 'POST', path)).status, `${who} ${path}`).toBe(404);
      }
    }
  });

  it('refuses bad input from an admin with a clear 4xx', async () => {
    const cases: [string, string, number, unknown?][] = [
      ['GET', '/api/email/queue?limit=0', 422],
      ['GET', '/api/email/queue?limit=51', 422],
      ['GET', '/api/email/recent?limit=abc', 422],
      ['GET', '/api/email/recent?limit=1.5', 422],
      ['POST', '/api/email/00000000-0000-4000-8000-000000000000/resend', 404],
      ['GET', '/api/admin/users?page=0', 422],
      ['GET', '/api/admin/users?limit=500', 422],
      ['GET', '/api/admin/users?q=a%00b', 422],
      ['GET', '/api/admin/audit?userId=nope', 422],
      ['PATCH', '/api/admin/users/not-a-uuid', 404, { role: 'member' }],
      ['PATCH', '/api/admin/users/00000000-0000-4000-8000-000000000000', 404, { role: 'member' }],
      ['PATCH', `/api/admin/users/${ids.free}`, 422, {}],
      ['PATCH', `/api/admin/users/${ids.free}`, 422, { role: 'owner' }],
      ['PATCH', `/api/admin/users/${ids.free}`, 422, { accessLevel: 'gold' }],
      ['PATCH', `/api/admin/users/${ids.free}`, 422, { role: 'admin', extra: 1 }],
    ];
    for (const [method, path, status, body] of cases) {
      const res = await call('admin', method, path, body);
      expect(res.status, `${method} ${path} ${JSON.stringify(body)}`).toBe(status);
      expect(await res.json()).toMatchObject({ error: { code: expect.any(String), requestId: expect.any(String) } });
    }
  });
});
