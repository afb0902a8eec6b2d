/**
 * The newsletter's role table on both databases: the staff API (/api/admin/newsletter, editors and
 * admins; writes from a live session) and the archive (/api/newsletter: the list is public, an issue's
 * body opens at its level) x {anonymous, an expired token, free, subscriber, premium, editor, admin}.
 * Issues belong to the staff as a whole (any editor works on any issue), so there are no other
 * members' ids to try; an unsubscribe token turned to another address is refused and changes nothing.
 */
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AccessLevel, Role } from '#shared/access.ts';
import { createTestApp, type TestApp } from '../../tests/support/app.ts';
import type { ErrorAnswer } from '../../tests/support/answers.ts';
import { DATABASE_KINDS } from '../../tests/support/databases.ts';
import { badTokens } from '../../tests/support/tokens.ts';
import { profiles } from '../users/tables.ts';
import { newsletterIssues } from './tables.ts';

const PASSWORD = 'newsletter table pass';
type Caller = 'anonymous' | 'expired' | 'free' | 'subscriber' | 'premium' | 'editor' | 'admin';
type Member = Exclude<Caller, 'anonymous' | 'expired'>;
const CALLERS: Caller[] = ['anonymous', 'expired', 'free', 'subscriber', 'premium', 'editor', 'admin'];
const ACCOUNTS: Record<Member, { role: Role; accessLevel: AccessLevel }> = {
  free: { role: 'member', accessLevel: 'free' },
  subscriber: { role: 'member', accessLevel: 'subscriber' },
  premium: { role: 'member', accessLevel: 'premium' },
  editor: { role: 'editor', accessLevel: 'premium' },
  admin: { role: 'admin', accessLevel: 'premium' },
};
const staffOnly = (ok: number) => ({ anonymous: 401, expired: 401, free: 403, subscriber: 403, premium: 403, editor: ok, admin: ok });
const everyone = (status: number) => Object.fromEntries(CALLERS.map((c) => [c, status])) as Record<Caller, number>;
const INPUT = {
  subject: 'Role table issue',
  previewText: 'For the table',
  body: 'Public part.\n\n<!-- preview -->\n\nGated part NEWSLETTER-TABLE-SENTINEL.',
  accessLevel: 'premium',
  audience: ['premium'],
};
const tomorrow = () => ({ sendAt: new Date(Date.now() + 86_400_000).toISOString().slice(0, 16), timeZone: 'Europe/Paris' });

describe.each(DATABASE_KINDS)('newsletter roles on %s', (kind) => {
  let t: TestApp;
  const tokens = {} as Record<Exclude<Caller, 'anonymous'>, string>;
  /** Per caller, the issue each write acts on (members share one they must not change). */
  const target = {} as Record<'put' | 'delete' | 'send' | 'schedule' | 'cancel', Record<Caller, string>>;
  let shared = '';
  const slugs = { premium: '', subscriber: '' };

  beforeAll(async () => {
    t = await createTestApp(kind, undefined, { AUTH_BCRYPT_COST: '4' });
    const ids = {} as Record<Member, string>;
    for (const who of Object.keys(ACCOUNTS) as Member[]) {
      const email = `${who}-${kind}@newsletter-table.test`;
      ids[who] = await t.services.auth.createConfirmedUser(email, PASSWORD, `The ${who}`);
      await t.services.users.assign(ids[who], ACCOUNTS[who].role, ACCOUNTS[who].accessLevel);
      tokens[who] = (await t.services.auth.signInWithPassword({ email, password: PASSWORD })).access_token;
    }
    tokens.expired = (await badTokens(t.database.db, tokens.admin, ids.free)).expired!;
    const [editor] = await t.database.db.select().from(profiles).where(eq(profiles.id, ids.editor));
    const viewer = { id: editor!.id, email: editor!.email, role: editor!.role, accessLevel: editor!.accessLevel };
    const issues = t.services.newsletterIssues;
    const make = async () => (await issues.create(viewer, { ...INPUT, accessLevel: 'premium', audience: ['premium'] })).id;
    shared = await make();
    for (const action of ['put', 'delete', 'send', 'schedule', 'cancel'] as const) {
      target[action] = {} as Record<Caller, string>;
      for (const who of CALLERS) target[action][who] = who === 'editor' || who === 'admin' ? await make() : shared;
    }
    for (const who of ['editor', 'admin'] as const) await issues.schedule(target.cancel[who], tomorrow());
    for (const level of ['premium', 'subscriber'] as const) {
      const { id } = await issues.create(viewer, { ...INPUT, subject: `A ${level} issue`, accessLevel: level, audience: [level] });
      slugs[level] = (await issues.send(id)).slug;
    }
  });
  afterAll(() => t?.close());

  function call(who: Caller, method: string, path: string, body?: unknown) {
    const headers: Record<string, string> = {};
    if (who !== 'anonymous') headers.authorization = `Bearer ${tokens[who]}`;
    if (body !== undefined) headers['content-type'] = 'application/json';
    return t.app.request(path, { method, headers, ...(body !== undefined ? { body: JSON.stringify(body) } : {}) });
  }

  const base = '/api/admin/newsletter/issues';
  const TABLE: { label: string; method: string; path: (who: Caller) => string; body?: unknown; expect: Record<Caller, number> }[] = [
    { label: 'POST /api/admin/newsletter/issues', method: 'POST', path: () => base, body: INPUT, expect: staffOnly(201) },
    { label: 'GET /api/admin/newsletter/issues', method: 'GET', path: () => base, expect: staffOnly(200) },
    {
      label: 'GET /api/admin/newsletter/audiences',
      method: 'GET',
      path: () => '/api/admin/newsletter/audiences?selected=newsletter,premium',
      expect: staffOnly(200),
    },
    { label: 'GET /api/admin/newsletter/issues/{id}', method: 'GET', path: () => `${base}/${shared}`, expect: staffOnly(200) },
    {
      label: 'PUT /api/admin/newsletter/issues/{id}',
      method: 'PUT',
      path: (w) => `${base}/${target.put[w]}`,
      body: INPUT,
      expect: staffOnly(200),
    },
    {
      label: 'DELETE /api/admin/newsletter/issues/{id}',
      method: 'DELETE',
      path: (w) => `${base}/${target.delete[w]}`,
      expect: staffOnly(204),
    },
    {
      label: 'GET /api/admin/newsletter/issues/{id}/preview',
      method: 'GET',
      path: () => `${base}/${shared}/preview?level=visitor`,
      expect: staffOnly(200),
    },
    {
      label: 'POST /api/admin/newsletter/issues/{id}/test',
      method: 'POST',
      path: () => `${base}/${shared}/test`,
      body: { level: 'free' },
      expect: staffOnly(202),
    },
    {
      label: 'POST /api/admin/newsletter/issues/{id}/send',
      method: 'POST',
      path: (w) => `${base}/${target.send[w]}/send`,
      expect: staffOnly(202),
    },
    {
      label: 'POST /api/admin/newsletter/issues/{id}/schedule',
      method: 'POST',
      path: (w) => `${base}/${target.schedule[w]}/schedule`,
      body: tomorrow(),
      expect: staffOnly(200),
    },
    {
      label: 'POST /api/admin/newsletter/issues/{id}/cancel',
      method: 'POST',
      path: (w) => `${base}/${target.cancel[w]}/cancel`,
      expect: staffOnly(200),
    },
    {
      label: 'GET /api/admin/newsletter/articles/{slug}',
      method: 'GET',
      path: () => '/api/admin/newsletter/articles/ecommerce-launch-first-90-days',
      expect: staffOnly(200),
    },
    { label: 'GET /api/newsletter/issues', method: 'GET', path: () => '/api/newsletter/issues', expect: everyone(200) },
    {
      label: 'GET /api/newsletter/issues/{slug}/body (premium)',
      method: 'GET',
      path: () => `/api/newsletter/issues/${slugs.premium}/body`,
      expect: { anonymous: 401, expired: 401, free: 403, subscriber: 403, premium: 200, editor: 200, admin: 200 },
    },
    {
      label: 'GET /api/newsletter/issues/{slug}/body (subscriber)',
      method: 'GET',
      path: () => `/api/newsletter/issues/${slugs.subscriber}/body`,
      expect: { anonymous: 401, expired: 401, free: 403, subscriber: 200, premium: 200, editor: 200, admin: 200 },
    },
  ];

  it.each(TABLE)('$label', async (row) => {
    for (const who of CALLERS) {
      const res = await call(who, row.method, row.path(who), row.body);
      expect(res.status, `${row.label} as ${who}: ${await res.clone().text()}`).toBe(row.expect[who]);
      expect(res.headers.get('cache-control'), who).toMatch(/private|no-store/);
      if (res.status >= 400) expect(((await res.json()) as Partial<ErrorAnswer>).error?.requestId, who).toEqual(expect.any(String));
    }
    // What members tried changed nothing: their shared draft is as it was.
    const [draft] = await t.database.db.select().from(newsletterIssues).where(eq(newsletterIssues.id, shared));
    expect(draft).toMatchObject({ status: 'draft', subject: INPUT.subject });
  });

  it('gives a gated body only to those entitled, and never the gated text otherwise', async () => {
    for (const who of CALLERS) {
      const text = await (await call(who, 'GET', `/api/newsletter/issues/${slugs.premium}/body`)).text();
      expect(text.includes('NEWSLETTER-TABLE-SENTINEL'), who).toBe(['premium', 'editor', 'admin'].includes(who));
    }
    expect(await (await call('anonymous', 'GET', '/api/newsletter/issues')).text()).not.toContain('NEWSLETTER-TABLE-SENTINEL');
  });

  it('checks the role before reading anything: hostile input from a member is still 401/403', async () => {
    for (const who of ['anonymous', 'expired', 'free', 'premium'] as const) {
      const expected = who === 'anonymous' || who === 'expired' ? 401 : 403;
      for (const [method, path, body] of [
        ['POST', base, { subject: '\u0000' }],
        ['GET', `${base}/not-a-uuid`],
        ['GET', `${base}/${shared}/preview?level=gold`],
        ['POST', `${base}/${shared}/schedule`, { sendAt: 'tomorrow', timeZone: 'Mars/Olympus' }],
      ] as [string, string, unknown?][]) {
        expect((await call(who, method, path, body)).status, `${who} ${method} ${path}`).toBe(expected);
      }
    }
  });

  it('serves the preview frame by its signed link alone, under a policy of its own; a turned or foreign link is 404', async () => {
    const issues = t.services.newsletterIssues;
    const { url } = await issues.preview(shared, 'premium');
    for (const who of CALLERS) {
      // A frame sends no bearer token: the link is the permission, whoever holds it.
      const res = await call(who, 'GET', url);
      expect(res.status, who).toBe(200);
      expect(res.headers.get('content-type'), who).toMatch(/^text\/html/);
      const policy = res.headers.get('content-security-policy') ?? '';
      for (const directive of [
        "default-src 'none'",
        "style-src 'unsafe-inline'",
        "frame-ancestors 'self'",
        "form-action 'none'",
        'sandbox',
      ])
        expect(policy, `${who} ${directive}`).toContain(directive);
      expect(policy, who).not.toMatch(/script-src|unsafe-eval/);
      expect(res.headers.get('x-frame-options'), who).toBe('SAMEORIGIN');
      expect(res.headers.get('cache-control'), who).toBe('private, no-store');
      expect(await res.text(), who).toContain('NEWSLETTER-TABLE-SENTINEL');
    }
    const visitor = (await issues.preview(shared, 'visitor')).url;
    expect(await (await call('anonymous', 'GET', visitor)).text()).not.toContain('NEWSLETTER-TABLE-SENTINEL');
    // The visitor's link turned to the premium copy, an unsubscribe link, and nonsense: none opens a copy.
    const [head, payload, signature] = visitor.split('/').pop()!.split('.') as [string, string, string];
    const claims = JSON.parse(Buffer.from(payload, 'base64url').toString()) as Record<string, unknown>;
    const turned = `${head}.${Buffer.from(JSON.stringify({ ...claims, l: 'premium' })).toString('base64url')}.${signature}`;
    const foreign = await t.services.tokens.sign('newsletter-unsubscribe', { i: shared, l: 'premium' });
    for (const token of [turned, foreign, 'not-a-token']) {
      const res = await call('admin', 'GET', `/api/newsletter/previews/${token}`);
      expect(res.status, token).toBe(404);
      expect(((await res.json()) as ErrorAnswer).error.code).toBe('not_found');
    }
  });

  it('refuses an unsubscribe token turned to another address, and changes nothing', async () => {
    const good = await t.services.tokens.sign('newsletter-unsubscribe', { i: shared, a: `free-${kind}@newsletter-table.test` });
    const [head, payload, signature] = good.split('.') as [string, string, string];
    const claims = JSON.parse(Buffer.from(payload, 'base64url').toString()) as Record<string, unknown>;
    const turned = `${head}.${Buffer.from(JSON.stringify({ ...claims, a: `premium-${kind}@newsletter-table.test` })).toString('base64url')}.${signature}`;
    const res = await t.app.request(`/api/newsletter/unsubscribe?token=${turned}`, { method: 'POST' });
    expect(res.status).toBe(400);
    const viewer = await (await call('premium', 'GET', '/api/users/me')).json();
    expect(viewer).toMatchObject({ viewer: { newsletter: true } });
  });
});
