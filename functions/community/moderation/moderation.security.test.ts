/**
 * Moderation's role table on both databases: the report route (a signed-in member who can read the
 * post; 404 for one they cannot read, held, hidden or unknown) and the staff API under
 * /api/admin/community (editors and admins; categories admins only), every route x {anonymous, an
 * expired token, free, subscriber, premium, editor, admin}. Members try the staff actions on posts,
 * threads, a member and a category that must come out unchanged; staff act on targets of their own.
 */
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AccessLevel, Role } from '#shared/access.ts';
import { createTestApp, type TestApp } from '../../../tests/support/app.ts';
import type { ErrorAnswer } from '../../../tests/support/answers.ts';
import { DATABASE_KINDS } from '../../../tests/support/databases.ts';
import { badTokens } from '../../../tests/support/tokens.ts';
import { rateLimits } from '../../platform/abuse/tables.ts';
import type { Viewer } from '../../users/service.ts';
import {
  communityCategories,
  communityMembers,
  communityModerationLog,
  communityPosts,
  communityReports,
  communityThreads,
} from '../tables.ts';

const PASSWORD = 'moderation table pass';
type Caller = 'anonymous' | 'expired' | 'free' | 'subscriber' | 'premium' | 'editor' | 'admin';
type Member = Exclude<Caller, 'anonymous' | 'expired'>;
/** Admin last: the category it deletes is the one everyone else tried first. */
const CALLERS: Caller[] = ['anonymous', 'expired', 'free', 'subscriber', 'premium', 'editor', 'admin'];
const ACCOUNTS: Record<Member | 'author' | 'troll', { role: Role; accessLevel: AccessLevel }> = {
  free: { role: 'member', accessLevel: 'free' },
  subscriber: { role: 'member', accessLevel: 'subscriber' },
  premium: { role: 'member', accessLevel: 'premium' },
  editor: { role: 'editor', accessLevel: 'premium' },
  admin: { role: 'admin', accessLevel: 'premium' },
  author: { role: 'member', accessLevel: 'premium' },
  troll: { role: 'member', accessLevel: 'free' },
};
const STAFF = new Set<Caller>(['editor', 'admin']);
const staffOnly = (ok: number) => ({ anonymous: 401, expired: 401, free: 403, subscriber: 403, premium: 403, editor: ok, admin: ok });
const adminOnly = (ok: number) => ({ ...staffOnly(ok), editor: 403 });

describe.each(DATABASE_KINDS)('moderation roles on %s', (kind) => {
  let t: TestApp;
  const tokens = {} as Record<Exclude<Caller, 'anonymous'>, string>;
  const viewers = {} as Record<keyof typeof ACCOUNTS, Viewer>;
  /** The free category's shared thread and reply (members' tries), and per staff caller a thread and a reply of its own. */
  const threads = {} as Record<Caller, string>;
  const replies = {} as Record<Caller, string>;
  let premiumReply = '';
  let heldReply = '';
  let hiddenReply = '';

  /** Clears the rate limits the set-up's many posts would reach. */
  const fresh = () => t.database.db.delete(rateLimits);

  async function post(who: Viewer, threadId: string, body: string) {
    await fresh();
    return (await t.services.community.reply(who, threadId, async () => body)).id;
  }

  beforeAll(async () => {
    t = await createTestApp(kind, undefined, { AUTH_BCRYPT_COST: '4' });
    for (const who of Object.keys(ACCOUNTS) as (keyof typeof ACCOUNTS)[]) {
      const email = `${who}-${kind}@moderation-table.test`;
      const id = await t.services.auth.createConfirmedUser(email, PASSWORD, `The ${who}`);
      await t.services.users.assign(id, ACCOUNTS[who].role, ACCOUNTS[who].accessLevel);
      viewers[who] = { id, email, ...ACCOUNTS[who] };
      if (who !== 'author' && who !== 'troll')
        tokens[who] = (await t.services.auth.signInWithPassword({ email, password: PASSWORD })).access_token;
    }
    tokens.expired = (await badTokens(t.database.db, tokens.admin, viewers.free.id)).expired!;
    const categories = t.services.communityCategories;
    const base = { description: '', anyoneReads: false, position: 0 };
    await categories.create(viewers.admin, { ...base, slug: 'open-floor', name: 'Open floor', accessLevel: 'free', anyoneReads: true });
    await categories.create(viewers.admin, { ...base, slug: 'lounge', name: 'Lounge', accessLevel: 'premium' });
    await categories.create(viewers.admin, { ...base, slug: 'doomed', name: 'Doomed', accessLevel: 'free' });
    const thread = async (category: string) => {
      await fresh();
      return (await t.services.community.createThread(viewers.author, { category, title: `A ${category} thread`, body: 'An opener.' })).id;
    };
    const shared = await thread('open-floor');
    for (const who of CALLERS) threads[who] = STAFF.has(who) ? await thread('open-floor') : shared;
    const sharedReply = await post(viewers.author, shared, 'A reply everyone may read.');
    for (const who of CALLERS)
      replies[who] = STAFF.has(who) ? await post(viewers.author, threads[who], `A reply for ${who}.`) : sharedReply;
    premiumReply = await post(viewers.author, await thread('lounge'), 'A premium reply.');
    // A new account with no posts yet: a post with a link waits for staff.
    heldReply = await post(viewers.troll, shared, 'See [my site](https://example.com).');
    hiddenReply = await post(viewers.author, shared, 'Soon hidden.');
    await t.services.communityModeration.actOnPost(viewers.admin, hiddenReply, { action: 'hide' });
  });
  afterAll(() => t?.close());

  function call(who: Caller, method: string, path: string, body?: unknown) {
    const headers: Record<string, string> = {};
    if (who !== 'anonymous') headers.authorization = `Bearer ${tokens[who]}`;
    if (body !== undefined) headers['content-type'] = 'application/json';
    return t.app.request(path, { method, headers, ...(body !== undefined ? { body: JSON.stringify(body) } : {}) });
  }

  const admin = '/api/admin/community';
  const TABLE: {
    label: string;
    method: string;
    path: (who: Caller) => string;
    body?: (who: Caller) => unknown;
    expect: Record<Caller, number>;
  }[] = [
    {
      label: 'POST /api/community/posts/{id}/report (a free category)',
      method: 'POST',
      path: () => `/api/community/posts/${replies.free}/report`,
      body: () => ({ reason: 'Off topic' }),
      expect: { anonymous: 401, expired: 401, free: 201, subscriber: 201, premium: 201, editor: 201, admin: 201 },
    },
    {
      label: 'POST /api/community/posts/{id}/report (the premium lounge)',
      method: 'POST',
      path: () => `/api/community/posts/${premiumReply}/report`,
      body: () => ({}),
      expect: { anonymous: 401, expired: 401, free: 404, subscriber: 404, premium: 201, editor: 201, admin: 201 },
    },
    { label: 'GET /api/admin/community/queue', method: 'GET', path: () => `${admin}/queue`, expect: staffOnly(200) },
    {
      label: 'POST /api/admin/community/posts/{id}',
      method: 'POST',
      path: (w) => `${admin}/posts/${replies[w]}`,
      body: () => ({ action: 'hide' }),
      expect: staffOnly(200),
    },
    {
      label: 'POST /api/admin/community/threads/{id}',
      method: 'POST',
      path: (w) => `${admin}/threads/${threads[w]}`,
      body: () => ({ action: 'pin' }),
      expect: staffOnly(200),
    },
    {
      label: 'POST /api/admin/community/members/{userId}/suspension',
      method: 'POST',
      path: () => `${admin}/members/${viewers.troll.id}/suspension`,
      body: () => ({ suspended: true, reason: 'Spam' }),
      expect: staffOnly(200),
    },
    { label: 'GET /api/admin/community/log', method: 'GET', path: () => `${admin}/log`, expect: staffOnly(200) },
    { label: 'GET /api/admin/community/categories', method: 'GET', path: () => `${admin}/categories`, expect: adminOnly(200) },
    {
      label: 'POST /api/admin/community/categories',
      method: 'POST',
      path: () => `${admin}/categories`,
      body: (w) => ({ slug: `new-${w}`, name: `New ${w}`, accessLevel: 'subscriber' }),
      expect: adminOnly(201),
    },
    {
      label: 'PUT /api/admin/community/categories/{slug}',
      method: 'PUT',
      path: () => `${admin}/categories/lounge`,
      body: (w) => ({ name: `Lounge (${w})`, description: '', accessLevel: 'premium', anyoneReads: false, position: 2 }),
      expect: adminOnly(200),
    },
    {
      label: 'DELETE /api/admin/community/categories/{slug}',
      method: 'DELETE',
      path: () => `${admin}/categories/doomed`,
      expect: adminOnly(204),
    },
  ];

  it.each(TABLE)('$label', async (row) => {
    const before = await t.database.db.select().from(communityModerationLog);
    for (const who of CALLERS) {
      await fresh();
      const res = await call(who, row.method, row.path(who), row.body?.(who));
      expect(res.status, `${row.label} as ${who}: ${await res.clone().text()}`).toBe(row.expect[who]);
      expect(res.headers.get('cache-control'), who).toMatch(/private|no-store/);
      if (res.status >= 400) expect(((await res.json()) as Partial<ErrorAnswer>).error?.requestId, who).toEqual(expect.any(String));
    }
    // What members tried changed nothing: the shared reply and thread, the member and the categories are as they were.
    const [reply] = await t.database.db.select().from(communityPosts).where(eq(communityPosts.id, replies.free));
    expect(reply).toMatchObject({ status: 'visible' });
    const [thread] = await t.database.db.select().from(communityThreads).where(eq(communityThreads.id, threads.free));
    expect(thread).toMatchObject({ pinned: false, status: 'visible' });
    const slugs = (await t.database.db.select().from(communityCategories)).map((c) => c.slug);
    expect(
      slugs.filter((s) => s.startsWith('new-') && s !== 'new-admin'),
      'only the admin creates',
    ).toEqual([]);
    // Only staff's successful actions wrote to the log.
    const after = await t.database.db.select().from(communityModerationLog);
    const actors = after.filter((e) => !before.some((b) => b.id === e.id)).map((e) => e.actorId);
    expect(actors.every((id) => id === viewers.editor.id || id === viewers.admin.id)).toBe(true);
  });

  it('leaves what members tried alone: the suspension is staff’s, the lounge keeps its name until the admin’s change', async () => {
    const log = await t.database.db.select().from(communityModerationLog).where(eq(communityModerationLog.action, 'suspend'));
    expect(new Set(log.map((e) => e.actorId))).toEqual(new Set([viewers.editor.id, viewers.admin.id]));
    const [lounge] = await t.database.db.select().from(communityCategories).where(eq(communityCategories.slug, 'lounge'));
    expect(lounge?.name).toBe('Lounge (admin)');
    const updates = await t.database.db.select().from(communityModerationLog).where(eq(communityModerationLog.action, 'category-update'));
    expect(updates.map((e) => e.actorId)).toEqual([viewers.admin.id]);
  });

  it('answers 404 to a member reporting a post they cannot read, held, hidden, unknown or no id at all, and records nothing', async () => {
    const statusOf = async (id: string) => (await t.database.db.select().from(communityPosts).where(eq(communityPosts.id, id)))[0]?.status;
    expect([await statusOf(heldReply), await statusOf(hiddenReply)]).toEqual(['held', 'hidden']);
    const before = await t.database.db.select().from(communityReports);
    const cases: [Caller, string][] = [
      ['free', premiumReply],
      ['subscriber', premiumReply],
      ['premium', heldReply],
      ['premium', hiddenReply],
      ['premium', '00000000-0000-4000-8000-000000000000'],
      ['premium', 'not-a-post'],
    ];
    for (const [who, id] of cases) {
      await fresh();
      const res = await call(who, 'POST', `/api/community/posts/${id}/report`, { reason: 'x' });
      expect(res.status, `${who} reporting ${id}`).toBe(404);
      expect(await res.text()).not.toContain('lounge thread');
    }
    expect(await t.database.db.select().from(communityReports)).toEqual(before);
  });

  it('takes one report per member and post: a repeat answers 200 and adds nothing; one’s own post is refused', async () => {
    const again = await call('premium', 'POST', `/api/community/posts/${replies.free}/report`, { reason: 'Twice' });
    expect(again.status).toBe(200);
    const mine = await t.database.db
      .select()
      .from(communityReports)
      .where(and(eq(communityReports.postId, replies.free), eq(communityReports.reporterId, viewers.premium.id)));
    expect(mine).toHaveLength(1);
    expect(mine[0]!.reason).toBe('Off topic');
    const author = await t.services.auth.signInWithPassword({ email: viewers.author.email, password: PASSWORD });
    const own = await t.app.request(`/api/community/posts/${replies.free}/report`, {
      method: 'POST',
      headers: { authorization: `Bearer ${author.access_token}`, 'content-type': 'application/json' },
      body: '{}',
    });
    expect(own.status).toBe(409);
  });

  it('checks the role before reading anything: hostile input from a member is still 401/403', async () => {
    for (const who of ['anonymous', 'expired', 'free', 'premium'] as const) {
      const expected = who === 'anonymous' || who === 'expired' ? 401 : 403;
      for (const [method, path, body] of [
        ['POST', `${admin}/posts/not-a-uuid`, { action: 'explode' }],
        ['POST', `${admin}/threads/${threads.free}`, { action: 'move', category: '\u0000' }],
        ['POST', `${admin}/members/${viewers.troll.id}/suspension`, { suspended: 'yes' }],
        ['GET', `${admin}/log?cursor=%00`],
        ['DELETE', `${admin}/categories/..%2F..`],
      ] as [string, string, unknown?][]) {
        expect((await call(who, method, path, body)).status, `${who} ${method} ${path}`).toBe(expected);
      }
    }
    expect((await call('editor', 'POST', `${admin}/categories`, { slug: '\u0000' })).status).toBe(403);
    const [troll] = await t.database.db.select().from(communityMembers).where(eq(communityMembers.userId, viewers.troll.id));
    expect(troll?.suspendedBy === viewers.editor.id || troll?.suspendedBy === viewers.admin.id).toBe(true);
  });
});
