/**
 * The community API's role table: every route of the core API x every kind of caller (visitor,
 * each access level, each staff role, an expired token) with the exact status each gets, on both
 * databases, in a premium category and under a premium article and a subscriber lesson; the post
 * routes are called on another member's post. Then: nobody edits, deletes or reads the source of
 * another member's post, a held post is unknown to everyone but its author and staff, no refusal
 * carries a premium thread's title, and only the answers everyone gets are public.
 * Moderation's and the reply mails' routes have their own tables.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AccessLevel, Role } from '#shared/access.ts';
import { createTestApp, type TestApp } from '../../tests/support/app.ts';
import type { ErrorAnswer } from '../../tests/support/answers.ts';
import { DATABASE_KINDS } from '../../tests/support/databases.ts';
import { signedInMember } from '../../tests/support/events.ts';
import { makeBlogInput, makeCourseInput } from '../../tests/support/fixtures.ts';
import { badTokens } from '../../tests/support/tokens.ts';
import { communityCategories } from './tables.ts';

type Caller = 'visitor' | 'free' | 'subscriber' | 'premium' | 'editor' | 'admin' | 'expired';
type Member = Exclude<Caller, 'visitor' | 'expired'>;
const CALLERS: Caller[] = ['visitor', 'free', 'subscriber', 'premium', 'editor', 'admin', 'expired'];
const MEMBERS: Member[] = ['free', 'subscriber', 'premium', 'editor', 'admin'];
const ACCOUNTS: Record<Member, { role: Role; accessLevel: AccessLevel }> = {
  free: { role: 'member', accessLevel: 'free' },
  subscriber: { role: 'member', accessLevel: 'subscriber' },
  premium: { role: 'member', accessLevel: 'premium' },
  // Staff count as premium whatever their profile's level says.
  editor: { role: 'editor', accessLevel: 'free' },
  admin: { role: 'admin', accessLevel: 'free' },
};
const PREMIUM: Member[] = ['premium', 'editor', 'admin'];
const SUBSCRIBERS: Member[] = ['subscriber', ...PREMIUM];
const TITLE = 'Lounge thread PREMIUM-TITLE-SECRET';
/** Routes of the community's other parts (their own tables). */
const OTHER_PARTS = /\/(report|mute|settings|unsubscribe|notifications)\b/;

/** Statuses by caller: visitors and expired tokens 401 unless said otherwise. */
const only = (ok: Member[], success = 200, otherwise = 403, visitor = 401): Record<Caller, number> =>
  Object.fromEntries(
    CALLERS.map((who) => [who, who === 'visitor' ? visitor : who === 'expired' ? 401 : ok.includes(who) ? success : otherwise]),
  ) as Record<Caller, number>;

describe.each(DATABASE_KINDS)('community API on %s', (kind) => {
  let t: TestApp;
  const members = {} as Record<Member, Awaited<ReturnType<typeof signedInMember>>>;
  let author: Awaited<ReturnType<typeof signedInMember>>;
  let expired = '';
  const ids = { thread: '', post: '', article: '', course: '', freeThread: '', freePost: '' };

  beforeAll(async () => {
    t = await createTestApp(kind, undefined, { AUTH_BCRYPT_COST: '4' });
    for (const who of MEMBERS)
      members[who] = await signedInMember(t, `${who}-${kind}@community-table.test`, ACCOUNTS[who].role, ACCOUNTS[who].accessLevel);
    author = await signedInMember(t, `author-${kind}@community-table.test`, 'member', 'premium');
    expired = (await badTokens(t.database.db, members.premium.token, members.free.id)).expired!;
    await t.database.db.insert(communityCategories).values([
      { slug: 'lounge', name: 'Lounge', accessLevel: 'premium' },
      { slug: 'members', name: 'Members', accessLevel: 'free' },
      { slug: 'open', name: 'Open', accessLevel: 'free', anyoneReads: true },
    ]);
    const started = await call(author, '/threads', 'POST', { category: 'lounge', title: TITLE, body: 'Opening post.' });
    ids.thread = ((await started.json()) as { id: string }).id;
    const replied = await call(author, `/threads/${ids.thread}/replies`, 'POST', { body: 'A reply by the author.' });
    ids.post = ((await replied.json()) as { id: string }).id;
    const free = await call(author, '/threads', 'POST', { category: 'members', title: 'Free thread', body: 'Free words.' });
    ids.freeThread = ((await free.json()) as { id: string }).id;
    const freeReply = await call(author, `/threads/${ids.freeThread}/replies`, 'POST', { body: 'Mine, not yours.' });
    ids.freePost = ((await freeReply.json()) as { id: string }).id;
    ids.article = (await t.services.content.create('blog', makeBlogInput({ accessLevel: 'premium' }))).slug;
    ids.course = (await t.services.content.create('course', makeCourseInput({ accessLevel: 'subscriber' }))).slug;
  });
  afterAll(() => t?.close());

  function call(who: Caller | { token: string }, path: string, method = 'GET', body?: unknown) {
    const token = typeof who === 'object' ? who.token : who === 'visitor' ? undefined : who === 'expired' ? expired : members[who].token;
    return t.app.request(`/api/community${path}`, {
      method,
      headers: {
        ...(token ? { authorization: `Bearer ${token}` } : {}),
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
  }

  const TABLE: { route: string; method?: string; path: () => string; body?: unknown; want: Record<Caller, number> }[] = [
    { route: 'GET /api/community/categories', path: () => '/categories', want: { ...only(MEMBERS, 200, 200, 200), expired: 200 } },
    { route: 'GET /api/community/threads', path: () => '/threads?category=lounge', want: only(PREMIUM) },
    {
      route: 'POST /api/community/threads',
      method: 'POST',
      path: () => '/threads',
      body: { category: 'lounge', title: 'New', body: 'Words.' },
      want: only(PREMIUM, 201),
    },
    { route: 'GET /api/community/threads/:id', path: () => `/threads/${ids.thread}`, want: only(PREMIUM) },
    {
      route: 'POST /api/community/threads/:id/replies',
      method: 'POST',
      path: () => `/threads/${ids.thread}/replies`,
      body: { body: 'Words.' },
      want: only(PREMIUM, 201),
    },
    // Another member's post: nobody but its author reads its source, edits or deletes it.
    { route: 'GET /api/community/posts/:id/source', path: () => `/posts/${ids.post}/source`, want: only([]) },
    {
      route: 'PATCH /api/community/posts/:id',
      method: 'PATCH',
      path: () => `/posts/${ids.post}`,
      body: { body: 'Mine now' },
      want: only([]),
    },
    { route: 'DELETE /api/community/posts/:id', method: 'DELETE', path: () => `/posts/${ids.post}`, want: only([]) },
    { route: 'PUT /api/community/posts/:id/like', method: 'PUT', path: () => `/posts/${ids.post}/like`, want: only(PREMIUM) },
    { route: 'DELETE /api/community/posts/:id/like', method: 'DELETE', path: () => `/posts/${ids.post}/like`, want: only(PREMIUM) },
    { route: 'GET /api/community/search', path: () => '/search?q=lounge', want: only(MEMBERS, 200, 403, 200) },
    { route: 'GET /api/community/comments/blogs/:slug', path: () => `/comments/blogs/${ids.article}`, want: only(PREMIUM) },
    {
      route: 'POST /api/community/comments/blogs/:slug',
      method: 'POST',
      path: () => `/comments/blogs/${ids.article}`,
      body: { body: 'A comment.' },
      want: only(PREMIUM, 201),
    },
    {
      route: 'GET /api/community/comments/courses/:slug/lessons/:lessonId',
      path: () => `/comments/courses/${ids.course}/lessons/first`,
      want: only(SUBSCRIBERS),
    },
    {
      route: 'POST /api/community/comments/courses/:slug/lessons/:lessonId',
      method: 'POST',
      path: () => `/comments/courses/${ids.course}/lessons/first`,
      body: { body: 'A comment.' },
      want: only(SUBSCRIBERS, 201),
    },
  ];

  it('has a row for every route of the community API', () => {
    const served = t.app
      .endpoints()
      .map((r) => `${r.method} ${r.path}`)
      .filter((r) => r.includes(' /api/community/') && !OTHER_PARTS.test(r));
    expect([...new Set(served)].sort()).toEqual(TABLE.map((row) => row.route).sort());
  });

  it.each(TABLE)('$route answers each caller as its rule says', async ({ route, path, method = 'GET', body, want }) => {
    const got: Record<string, number> = {};
    for (const who of CALLERS) {
      const res = await call(who, path(), method, body);
      got[who] = res.status;
      const text = await res.text();
      if (res.status === 401) expect(res.headers.get('www-authenticate'), who).toBe('Bearer');
      if (res.status >= 400) expect(text, `${route} ${who}`).not.toContain('PREMIUM-TITLE-SECRET');
      // Only what everyone gets may be public; whatever answered a token is private.
      const policy = res.headers.get('cache-control') ?? '';
      if (who !== 'visitor' && route !== 'GET /api/community/categories')
        expect(policy, `${route} ${who}`).toMatch(/private, no-store|^no-store$/);
      if (res.status === 403 && !route.includes('/posts/:id') && !route.includes('/search'))
        expect((JSON.parse(text) as ErrorAnswer).error.requiredLevel, `${route} ${who}`).toMatch(/^(premium|subscriber)$/);
    }
    expect(got).toEqual(want);
  });

  it('answers 404 for unknown and malformed ids and slugs on every route that names one', async () => {
    const unknown = '00000000-0000-4000-8000-000000000000';
    for (const row of TABLE.filter((r) => r.route.includes(':'))) {
      for (const bad of [unknown, 'not-an-id', 'a'.repeat(300)]) {
        const path = row
          .path()
          .replace(ids.thread, bad)
          .replace(ids.post, bad)
          .replace(`/blogs/${ids.article}`, `/blogs/${bad === unknown ? 'no-such-article' : bad}`)
          .replace(`/courses/${ids.course}/`, `/courses/${bad === unknown ? 'no-such-course' : bad}/`);
        const res = await call('admin', path, row.method, row.body);
        expect(res.status, `${row.route} ${bad.slice(0, 12)}`).toBe(404);
      }
    }
  });

  it('keeps another member’s post theirs in a category every member reads', async () => {
    for (const who of MEMBERS) {
      expect((await call(who, `/posts/${ids.freePost}/source`)).status, who).toBe(403);
      expect((await call(who, `/posts/${ids.freePost}`, 'PATCH', { body: 'Hijacked' })).status, who).toBe(403);
      expect((await call(who, `/posts/${ids.freePost}`, 'DELETE')).status, who).toBe(403);
    }
    const page = (await (await call('free', `/threads/${ids.freeThread}`)).json()) as { posts: { id: string; html: string }[] };
    expect(page.posts.find((p) => p.id === ids.freePost)?.html).toBe('<p>Mine, not yours.</p>');
    expect(await (await call(author, `/posts/${ids.freePost}/source`)).json()).toEqual({ body: 'Mine, not yours.' });
  });

  it('shows a held post to its author and staff only', async () => {
    const newcomer = await signedInMember(t, `newcomer-${kind}@community-table.test`, 'member', 'free');
    const held = await call(newcomer, `/threads/${ids.freeThread}/replies`, 'POST', { body: 'Visit https://held.example.com' });
    const { id, status } = (await held.json()) as { id: string; status: string };
    expect(status).toBe('held');
    const seen = async (who: Member | typeof newcomer) =>
      ((await (await call(who, `/threads/${ids.freeThread}`)).json()) as { posts: { id: string }[] }).posts.some((p) => p.id === id);
    expect(await seen(newcomer)).toBe(true);
    expect(await seen('editor')).toBe(true);
    expect(await seen('premium')).toBe(false);
    for (const [method, path] of [
      ['PUT', `/posts/${id}/like`],
      ['GET', `/posts/${id}/source`],
      ['PATCH', `/posts/${id}`],
    ] as const)
      expect((await call('premium', path, method, method === 'PATCH' ? { body: 'x' } : undefined)).status, path).toBe(404);
  });

  it('answers visitors the categories and a category anyone reads publicly, nothing else', async () => {
    const categories = await call('visitor', '/categories');
    expect(categories.headers.get('cache-control')).toMatch(/^public, /);
    const open = await call('visitor', '/threads?category=open');
    expect(open.status).toBe(200);
    expect(open.headers.get('cache-control')).toMatch(/^public, /);
    // The same list asked with a token is the member's own, and private.
    expect((await call('free', '/threads?category=open')).headers.get('cache-control')).toBe('private, no-store');
    expect((await call('visitor', '/threads?category=members')).status).toBe(401);
  });
});
