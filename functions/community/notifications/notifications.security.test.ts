/**
 * The reply mails' role table: every route x every kind of caller (visitor, each access level, each
 * staff role, an expired token) with the exact status each gets, on both databases; then the mute
 * route's refusals one by one (a thread that does not exist, another member's held thread, a hidden
 * one, a premium thread after the level dropped), and the mail's links: a token turned to another
 * member, signed with another key or made for another purpose changes nothing.
 */
import { eq } from 'drizzle-orm';
import { SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AccessLevel, Role } from '#shared/access.ts';
import { createTestApp, type TestApp } from '../../../tests/support/app.ts';
import type { ErrorAnswer } from '../../../tests/support/answers.ts';
import { DATABASE_KINDS } from '../../../tests/support/databases.ts';
import { signedInMember } from '../../../tests/support/events.ts';
import { badTokens } from '../../../tests/support/tokens.ts';
import { communityCategories, communityFollows, communityMembers, communityThreads } from '../tables.ts';
import { mailLinks } from './round.ts';

type Caller = 'visitor' | 'free' | 'subscriber' | 'premium' | 'editor' | 'admin' | 'expired';
type Member = Exclude<Caller, 'visitor' | 'expired'>;
const CALLERS: Caller[] = ['visitor', 'free', 'subscriber', 'premium', 'editor', 'admin', 'expired'];
const MEMBERS: Member[] = ['free', 'subscriber', 'premium', 'editor', 'admin'];
const ACCOUNTS: Record<Member, { role: Role; accessLevel: AccessLevel }> = {
  free: { role: 'member', accessLevel: 'free' },
  subscriber: { role: 'member', accessLevel: 'subscriber' },
  premium: { role: 'member', accessLevel: 'premium' },
  editor: { role: 'editor', accessLevel: 'free' },
  admin: { role: 'admin', accessLevel: 'free' },
};

/** Statuses by caller: visitors and expired tokens 401 unless said otherwise. */
const only = (ok: Member[], otherwise = 403, visitor = 401): Record<Caller, number> =>
  Object.fromEntries(
    CALLERS.map((who) => [who, who === 'visitor' ? visitor : who === 'expired' ? 401 : ok.includes(who) ? 200 : otherwise]),
  ) as Record<Caller, number>;

describe.each(DATABASE_KINDS)('community reply mail routes on %s', (kind) => {
  let t: TestApp;
  const members = {} as Record<Member, Awaited<ReturnType<typeof signedInMember>>>;
  let expired = '';
  let lounge = '';
  let general = '';

  beforeAll(async () => {
    t = await createTestApp(kind, undefined, { AUTH_BCRYPT_COST: '4' });
    for (const who of MEMBERS)
      members[who] = await signedInMember(t, `${who}-${kind}@notify-table.test`, ACCOUNTS[who].role, ACCOUNTS[who].accessLevel);
    expired = (await badTokens(t.database.db, members.premium.token, members.free.id)).expired!;
    const [open, premium] = await t.database.db
      .insert(communityCategories)
      .values([
        { slug: `open-${kind}`, name: 'Open', accessLevel: 'free', anyoneReads: true },
        { slug: `lounge-${kind}`, name: 'Lounge', accessLevel: 'premium' },
      ])
      .returning();
    const threads = await t.database.db
      .insert(communityThreads)
      .values([
        { categoryId: open!.id, authorId: members.free.id, title: 'An open thread' },
        { categoryId: premium!.id, authorId: members.premium.id, title: 'A lounge thread' },
      ])
      .returning();
    [general, lounge] = threads.map((row) => row.id) as [string, string];
  });
  afterAll(() => t?.close());

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
  const links = (who: Member, threadId = lounge) => mailLinks(t.services.tokens, t.config.siteUrl, members[who].id, threadId);
  const tokenOf = (url: string) => new URL(url).searchParams.get('token')!;

  const TABLE: { route: string; path: () => string; method: string; body?: () => unknown; want: Record<Caller, number> }[] = [
    { route: 'GET /api/community/settings', method: 'GET', path: () => '/api/community/settings', want: only(MEMBERS) },
    {
      route: 'PUT /api/community/settings',
      method: 'PUT',
      path: () => '/api/community/settings',
      body: () => ({ notifications: true }),
      want: only(MEMBERS),
    },
    {
      route: 'PUT /api/community/threads/:id/mute',
      method: 'PUT',
      path: () => `/api/community/threads/${lounge}/mute`,
      body: () => ({ muted: false }),
      want: only(['premium', 'editor', 'admin']),
    },
    // The mail's links need no session: the token is the capability, whoever sends it.
    {
      route: 'POST /api/community/notifications/unsubscribe',
      method: 'POST',
      path: () => `/api/community/notifications/unsubscribe?token=${tokenOf(links('subscriber').oneClickUrl)}`,
      want: { ...only(MEMBERS, 200, 200), expired: 200 },
    },
    {
      route: 'POST /api/community/notifications/mute',
      method: 'POST',
      path: () => '/api/community/notifications/mute',
      body: () => ({ token: tokenOf(links('subscriber', general).muteUrl) }),
      want: { ...only(MEMBERS, 200, 200), expired: 200 },
    },
  ];

  it('has a row for every route of the reply mails', () => {
    const ours = /^\/api\/community\/(settings|notifications\/|threads\/:id\/mute)/;
    const served = t.app
      .endpoints()
      .filter((r) => ours.test(r.path))
      .map((r) => `${r.method} ${r.path}`);
    expect([...new Set(served)].sort()).toEqual(TABLE.map((row) => row.route).sort());
  });

  it.each(TABLE)('$route answers each caller as its rule says', async ({ path, method, body, want }) => {
    const got: Record<string, number> = {};
    for (const who of CALLERS) {
      const res = await call(who, path(), method, body?.());
      got[who] = res.status;
      expect(res.headers.get('cache-control'), who).toMatch(/private, no-store|^no-store$/);
      if (res.status === 401) expect(res.headers.get('www-authenticate')).toBe('Bearer');
      if (res.status === 403) expect(((await res.json()) as ErrorAnswer).error.requiredLevel).toBe('premium');
    }
    expect(got).toEqual(want);
  });

  it('answers 404 for threads that do not exist or that the member cannot see, without changing anything', async () => {
    const mute = (who: Member, id: string) => call(who, `/api/community/threads/${id}/mute`, 'PUT', { muted: true });
    for (const id of ['00000000-0000-4000-8000-000000000000', 'not-a-uuid', 'a'.repeat(300)])
      expect((await mute('admin', id)).status, id).toBe(404);
    // Another member's held thread: its author and staff may, others never learn it exists.
    const [held] = await t.database.db
      .insert(communityThreads)
      .values({ categoryId: (await categoryOf(general))!, authorId: members.subscriber.id, title: 'Held', status: 'held' })
      .returning();
    expect((await mute('free', held!.id)).status).toBe(404);
    expect((await mute('subscriber', held!.id)).status).toBe(200);
    expect((await mute('editor', held!.id)).status).toBe(200);
    await t.database.db.update(communityThreads).set({ status: 'hidden' }).where(eq(communityThreads.id, held!.id));
    expect((await mute('subscriber', held!.id)).status).toBe(404);
    const rows = await t.database.db.select().from(communityFollows).where(eq(communityFollows.threadId, held!.id));
    expect(rows.map((r) => r.userId).sort()).toEqual([members.subscriber.id, members.editor.id].sort());
  });

  it('refuses the premium thread once the level dropped', async () => {
    const dropping = await signedInMember(t, `dropping-${kind}@notify-table.test`, 'member', 'premium');
    const mute = () => call(dropping, `/api/community/threads/${lounge}/mute`, 'PUT', { muted: true });
    expect((await mute()).status).toBe(200);
    await t.services.users.assign(dropping.id, 'member', 'subscriber');
    expect((await mute()).status).toBe(403);
  });

  it("refuses a link's token turned to another member, signed elsewhere or made for another purpose", async () => {
    const good = tokenOf(links('free').oneClickUrl);
    const [head, payload, signature] = good.split('.') as [string, string, string];
    const claims = JSON.parse(Buffer.from(payload, 'base64url').toString()) as Record<string, unknown>;
    const bad = [
      `${head}.${Buffer.from(JSON.stringify({ ...claims, sub: members.admin.id })).toString('base64url')}.${signature}`,
      await new SignJWT(claims).setProtectedHeader({ alg: 'HS256' }).setAudience('community-unsubscribe').sign(new Uint8Array(32)),
      tokenOf(links('free').muteUrl),
      await t.services.tokens.sign('newsletter-unsubscribe', { sub: members.free.id }),
      await t.services.tokens.sign('community-unsubscribe', { sub: 'not-a-uuid' }),
      'not-a-token',
    ];
    const state = async () => ({
      members: await t.database.db.select().from(communityMembers).orderBy(communityMembers.userId),
      follows: await t.database.db.select().from(communityFollows).orderBy(communityFollows.threadId, communityFollows.userId),
    });
    const before = await state();
    for (const token of bad) {
      const res = await t.app.request(`/api/community/notifications/unsubscribe?token=${encodeURIComponent(token)}`, { method: 'POST' });
      expect(res.status, token).toBe(400);
    }
    const muteBad = [tokenOf(links('free').oneClickUrl), await t.services.tokens.sign('community-mute', { sub: members.free.id, t: 'x' })];
    for (const token of muteBad) {
      const res = await call('visitor', '/api/community/notifications/mute', 'POST', { token });
      expect(res.status, token).toBe(400);
    }
    // Nothing changed for anyone.
    expect(await state()).toEqual(before);
  });

  async function categoryOf(threadId: string) {
    const [row] = await t.database.db.select().from(communityThreads).where(eq(communityThreads.id, threadId));
    return row?.categoryId;
  }
});
