/**
 * The support API's role table: every route x every kind of caller (visitor, each access level, each
 * staff role, an expired token) with the exact status each gets, on both databases, asked about a
 * request of ANOTHER member (so a member's 404 is the ownership check, not a missing id); then each
 * member against their own request and everyone else's, and what a member's answers never carry
 * (other members' requests, internal notes, staff's fields).
 */
import type { hc, InferResponseType } from 'hono/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AccessLevel, Role } from '#shared/access.ts';
import { createTestApp, type TestApp } from '../../tests/support/app.ts';
import type { ErrorAnswer } from '../../tests/support/answers.ts';
import { DATABASE_KINDS } from '../../tests/support/databases.ts';
import { signedInMember } from '../../tests/support/events.ts';
import { tempDir } from '../../tests/support/temp.ts';
import { badTokens } from '../../tests/support/tokens.ts';
import { multipart, PNG } from '../../tests/support/uploads.ts';
import type { SupportRoutes } from './routes.ts';

type Client = ReturnType<typeof hc<SupportRoutes>>;
type ListAnswer = InferResponseType<Client['requests']['$get']>;
type RequestAnswer = InferResponseType<Client['requests'][':id']['$get'], 200>;

type Caller = 'visitor' | 'free' | 'subscriber' | 'premium' | 'editor' | 'admin' | 'expired';
type Member = Exclude<Caller, 'visitor' | 'expired'>;
const CALLERS: Caller[] = ['visitor', 'free', 'subscriber', 'premium', 'editor', 'admin', 'expired'];
const MEMBERS: Member[] = ['free', 'subscriber', 'premium', 'editor', 'admin'];
const STAFF: Member[] = ['editor', 'admin'];
const ACCOUNTS: Record<Member, { role: Role; accessLevel: AccessLevel }> = {
  free: { role: 'member', accessLevel: 'free' },
  subscriber: { role: 'member', accessLevel: 'subscriber' },
  premium: { role: 'member', accessLevel: 'premium' },
  editor: { role: 'editor', accessLevel: 'free' },
  admin: { role: 'admin', accessLevel: 'free' },
};

/** Statuses by caller: visitors and expired tokens 401; `ok` for the members listed, `otherwise` for the rest. */
const only = (ok: Member[], status: number, otherwise: number): Record<Caller, number> =>
  Object.fromEntries(
    CALLERS.map((who) => [who, who === 'visitor' || who === 'expired' ? 401 : ok.includes(who) ? status : otherwise]),
  ) as Record<Caller, number>;

describe.each(DATABASE_KINDS)('support API on %s', (kind) => {
  let t: TestApp;
  const members = {} as Record<Member, Awaited<ReturnType<typeof signedInMember>>>;
  let expired = '';
  /** Another premium member's request, with an attachment on its first message and an internal note. */
  const theirs = { id: '', messageId: '', noteId: '' };
  /** Each caller's own request. */
  const own = {} as Record<Member, string>;

  function call(who: Caller | { token: string }, path: string, method = 'GET', body?: unknown) {
    const token = typeof who === 'object' ? who.token : who === 'visitor' ? undefined : who === 'expired' ? expired : members[who].token;
    return t.app.request(path, {
      method,
      headers: {
        ...(token ? { authorization: `Bearer ${token}` } : {}),
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
  }

  beforeAll(async () => {
    t = await createTestApp(kind, undefined, { AUTH_BCRYPT_COST: '4', DATA_DIR: await tempDir('support-security') });
    for (const who of MEMBERS)
      members[who] = await signedInMember(t, `${who}-${kind}@support.test`, ACCOUNTS[who].role, ACCOUNTS[who].accessLevel);
    const owner = await signedInMember(t, `owner-${kind}@support.test`, 'member', 'premium');
    expired = (await badTokens(t.database.db, members.premium.token, members.free.id)).expired!;
    const form = multipart([
      { field: 'subject', body: 'My invoice is wrong' },
      { field: 'message', body: 'The amount is off by one cent. SECRET-OWNER-TEXT' },
      { field: 'attachment', filename: 'invoice.png', type: 'image/png', body: PNG },
    ]);
    const opened = await t.app.request('/api/support/requests', {
      method: 'POST',
      headers: { ...owner.headers, 'content-type': form.contentType },
      body: new Uint8Array(form.body),
    });
    expect(opened.status).toBe(201);
    theirs.id = ((await opened.json()) as { id: string }).id;
    const note = await call('admin', `/api/support/requests/${theirs.id}/messages`, 'POST', { body: 'STAFF-ONLY-NOTE', internal: true });
    theirs.noteId = ((await note.json()) as { id: string }).id;
    const read = (await (await call(owner, `/api/support/requests/${theirs.id}`)).json()) as RequestAnswer;
    theirs.messageId = read.messages[0]!.id;
    for (const who of MEMBERS) {
      const res = await call(who, '/api/support/requests', 'POST', { subject: `Help for ${who}`, message: 'Please help.' });
      own[who] = ((await res.json()) as { id: string }).id;
    }
  });
  afterAll(() => t?.close());

  const base = () => `/api/support/requests/${theirs.id}`;
  const TABLE: { route: string; path: () => string; method?: string; body?: unknown; want: Record<Caller, number> }[] = [
    { route: 'GET /api/support/requests', path: () => '/api/support/requests', want: only(MEMBERS, 200, 200) },
    {
      route: 'POST /api/support/requests',
      method: 'POST',
      path: () => '/api/support/requests',
      body: { subject: 'Table row', message: 'A request from the role table.' },
      want: only(MEMBERS, 201, 201),
    },
    { route: 'GET /api/support/requests/:id', path: base, want: only(STAFF, 200, 404) },
    { route: 'PATCH /api/support/requests/:id', method: 'PATCH', path: base, body: { status: 'open' }, want: only(STAFF, 200, 403) },
    {
      route: 'POST /api/support/requests/:id/messages',
      method: 'POST',
      path: () => `${base()}/messages`,
      body: { body: 'A reply from the role table.', internal: true },
      want: only(STAFF, 201, 404),
    },
    {
      route: 'GET /api/support/requests/:id/messages/:messageId/attachment',
      path: () => `${base()}/messages/${theirs.messageId}/attachment`,
      want: only(STAFF, 200, 404),
    },
    { route: 'GET /api/support/staff', path: () => '/api/support/staff', want: only(STAFF, 200, 403) },
    // Without a bucket, every member is told to send the file in the message (support-direct.test.ts has the bucket).
    {
      route: 'POST /api/support/attachments',
      method: 'POST',
      path: () => '/api/support/attachments',
      body: { contentType: 'image/png', size: 1000 },
      want: only(MEMBERS, 200, 200),
    },
  ];

  it('has a row for every support route the app serves', () => {
    const served = t.app
      .endpoints()
      .map((r) => `${r.method} ${r.path}`)
      .filter((r) => r.includes('/api/support'));
    expect([...new Set(served)].sort()).toEqual(TABLE.map((row) => row.route).sort());
  });

  it.each(TABLE)('$route answers each caller as its rule says, about another member’s request', async ({ path, method, body, want }) => {
    const got: Record<string, number> = {};
    for (const who of CALLERS) {
      const res = await call(who, path(), method, body);
      got[who] = res.status;
      expect(res.headers.get('cache-control'), who).toMatch(/private, no-store|^no-store$/);
      if (res.status < 400) expect(res.headers.get('vary') ?? '', who).toMatch(/authorization/i);
      if (res.status === 401) expect(res.headers.get('www-authenticate')).toBe('Bearer');
      // The one 404 for another member's request and an unknown one: nothing of it in the answer.
      if (res.status === 404) {
        const text = await res.text();
        expect(text).not.toContain('invoice');
        expect(JSON.parse(text) as ErrorAnswer).toMatchObject({ error: { code: 'not_found' } });
      }
    }
    expect(got).toEqual(want);
  });

  it('lets every member read and reply to their own request, and nobody else’s', async () => {
    for (const who of MEMBERS) {
      expect((await call(who, `/api/support/requests/${own[who]}`)).status, who).toBe(200);
      const reply = await call(who, `/api/support/requests/${own[who]}/messages`, 'POST', { body: 'More details.' });
      expect(reply.status, who).toBe(201);
      for (const other of MEMBERS.filter((o) => o !== who)) {
        const status = (await call(who, `/api/support/requests/${own[other]}`)).status;
        expect(status, `${who} reading ${other}'s`).toBe(STAFF.includes(who) ? 200 : 404);
      }
    }
  });

  it('lists only the member’s own requests, and every request for staff (their own with scope=own)', async () => {
    for (const who of MEMBERS) {
      const list = (await (await call(who, '/api/support/requests?limit=100')).json()) as ListAnswer;
      const ids = list.requests.map((r) => r.id);
      if (STAFF.includes(who)) {
        expect(ids, who).toEqual(expect.arrayContaining([theirs.id, ...Object.values(own)]));
        const mine = (await (await call(who, '/api/support/requests?scope=own')).json()) as ListAnswer;
        expect(
          mine.requests.every((r) => r.id === own[who] || r.subject === 'Table row'),
          who,
        ).toBe(true);
      } else {
        expect(ids, who).toContain(own[who]);
        expect(ids, who).not.toContain(theirs.id);
        for (const other of MEMBERS.filter((o) => o !== who)) expect(ids, who).not.toContain(own[other]);
        // Staff's fields stay out of a member's answer.
        expect(list.requests.every((r) => r.member === null && r.assignee === null)).toBe(true);
      }
    }
  });

  it('never shows an internal note to the member, nor lets a member write one', async () => {
    const asStaff = (await (await call('admin', base())).json()) as RequestAnswer;
    expect(asStaff.messages.map((m) => m.body)).toContain('STAFF-ONLY-NOTE');
    expect(asStaff.request.member?.email).toBe(`owner-${kind}@support.test`);
    // The member, through every read they have: no note, no staff-only field.
    const mine = (await (await call('premium', `/api/support/requests/${own.premium}`)).json()) as RequestAnswer;
    expect(mine.request.member).toBeNull();
    await call('admin', `/api/support/requests/${own.premium}/messages`, 'POST', { body: 'NOTE-ABOUT-PREMIUM', internal: true });
    const after = await (await call('premium', `/api/support/requests/${own.premium}`)).text();
    expect(after).not.toContain('NOTE-ABOUT-PREMIUM');
    const list = await (await call('premium', '/api/support/requests')).text();
    expect(list).not.toContain('NOTE-ABOUT-PREMIUM');
    // A member cannot make a note or set the status.
    for (const body of [
      { body: 'x', internal: true },
      { body: 'x', status: 'closed' },
    ]) {
      const res = await call('premium', `/api/support/requests/${own.premium}/messages`, 'POST', body);
      expect(res.status).toBe(403);
    }
  });

  it("reads a member's own requests with a signed-out token until it expires, but writes and staff's reads need a live session", async () => {
    const signedOut = async (who: Member) => {
      const { email } = members[who];
      const session = await t.services.auth.signInWithPassword({ email, password: 'events suite password' });
      await t.services.auth.logout(`Bearer ${session.access_token}`, 'local');
      return { token: session.access_token };
    };
    const member = await signedOut('subscriber');
    expect((await call(member, '/api/support/requests')).status).toBe(200);
    expect((await call(member, `/api/support/requests/${own.subscriber}`)).status).toBe(200);
    const write = await call(member, `/api/support/requests/${own.subscriber}/messages`, 'POST', { body: 'Still me?' });
    expect(write.status).toBe(401);
    const admin = await signedOut('admin');
    expect((await call(admin, '/api/support/requests')).status).toBe(401);
    expect((await call(admin, base())).status).toBe(401);
    expect((await call(admin, `${base()}/messages/${theirs.messageId}/attachment`)).status).toBe(401);
  });

  it('answers 404 for unknown and malformed ids on every route that takes one', async () => {
    const unknown = '00000000-0000-4000-8000-000000000000';
    for (const id of [unknown, 'not-a-uuid', 'a'.repeat(300), '..%2F..%2Fpackage.json']) {
      for (const [method, path, body] of [
        ['GET', `/api/support/requests/${id}`],
        ['PATCH', `/api/support/requests/${id}`, { status: 'closed' }],
        ['POST', `/api/support/requests/${id}/messages`, { body: 'x' }],
        ['GET', `/api/support/requests/${id}/messages/${theirs.messageId}/attachment`],
        ['GET', `/api/support/requests/${theirs.id}/messages/${id}/attachment`],
      ] as const) {
        const res = await call('admin', path, method, body);
        expect(res.status, `${method} ${path.slice(0, 80)}`).toBe(404);
      }
    }
    // The internal note has no attachment; a message of another request is not this one's.
    expect((await call('admin', `${base()}/messages/${theirs.noteId}/attachment`)).status).toBe(404);
    expect((await call('admin', `/api/support/requests/${own.free}/messages/${theirs.messageId}/attachment`)).status).toBe(404);
  });
});
