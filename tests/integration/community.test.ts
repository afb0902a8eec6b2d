/**
 * The community through its API, on PGlite and Postgres: every category level on reading and
 * posting for every level; thread and post pages by cursor; a member's own edits and deletions
 * (never another's); likes once per member; search; comments gated like the article or lesson they
 * sit under; a new account's first posts held when they carry a link; the posting rate limit; a
 * suspended member refused; and a deleted member's posts, in the export before and read as a
 * "deleted member" with the body removed after. Moderation and reply mails have their own suites.
 */
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AccessLevel, Role } from '#shared/access.ts';
import type { ListAnswer, SearchAnswer, Written } from '../../functions/community/service.ts';
import type { CommentsPage } from '../../functions/community/service.ts';
import type { Post, ThreadPage } from '../../functions/community/answers.ts';
import { seedDemoCommunity } from '../../functions/community/demo.ts';
import { createCommunityStore, publishPost, withdrawPost, withdrawThread } from '../../functions/community/store.ts';
import { communityCategories, communityMembers, communityPosts } from '../../functions/community/tables.ts';
import { profiles } from '../../functions/users/tables.ts';
import { createTestApp, type TestApp } from '../support/app.ts';
import { DATABASE_KINDS } from '../support/databases.ts';
import { signedInMember } from '../support/events.ts';
import { makeBlogInput, makeCourseInput } from '../support/fixtures.ts';

type Level = 'visitor' | 'free' | 'subscriber' | 'premium' | 'editor' | 'admin';
const LEVELS: Level[] = ['visitor', 'free', 'subscriber', 'premium', 'editor', 'admin'];
const ACCOUNTS: Record<Exclude<Level, 'visitor'>, [Role, AccessLevel]> = {
  free: ['member', 'free'],
  subscriber: ['member', 'subscriber'],
  premium: ['member', 'premium'],
  editor: ['editor', 'free'],
  admin: ['admin', 'free'],
};
/** The categories of the suite: who reads and who posts. */
const CATEGORIES = {
  open: { accessLevel: 'free', anyoneReads: true },
  members: { accessLevel: 'free', anyoneReads: false },
  subs: { accessLevel: 'subscriber', anyoneReads: false },
  lounge: { accessLevel: 'premium', anyoneReads: false },
} as const;
type CategorySlug = keyof typeof CATEGORIES;
const READS: Record<CategorySlug, Record<Level, number>> = {
  open: { visitor: 200, free: 200, subscriber: 200, premium: 200, editor: 200, admin: 200 },
  members: { visitor: 401, free: 200, subscriber: 200, premium: 200, editor: 200, admin: 200 },
  subs: { visitor: 401, free: 403, subscriber: 200, premium: 200, editor: 200, admin: 200 },
  lounge: { visitor: 401, free: 403, subscriber: 403, premium: 200, editor: 200, admin: 200 },
};
const DAY = 24 * 3600 * 1000;

describe.each(DATABASE_KINDS)('the community on %s', (kind) => {
  let t: TestApp;
  let n = 0;
  const slug = (name: CategorySlug) => `${name}-${kind}`;

  beforeAll(async () => {
    t = await createTestApp(kind, undefined, { AUTH_BCRYPT_COST: '4' });
    let position = 0;
    for (const [name, rule] of Object.entries(CATEGORIES))
      await t.database.db
        .insert(communityCategories)
        .values({ slug: slug(name as CategorySlug), name, position: (position += 1), ...rule });
  });
  afterAll(() => t?.close());

  /** A signed-in member at a level; `ageDays` back-dates the account (the hold rule spares accounts a week old). */
  async function member(level: Exclude<Level, 'visitor'>, ageDays = 30) {
    const [role, accessLevel] = ACCOUNTS[level];
    const m = await signedInMember(t, `${level}-${(n += 1)}-${kind}@community.test`, role, accessLevel);
    if (ageDays)
      await t.database.db
        .update(profiles)
        .set({ createdAt: new Date(Date.now() - ageDays * DAY) })
        .where(eq(profiles.id, m.id));
    return m;
  }
  type Member = Awaited<ReturnType<typeof member>>;
  const call = (who: Member | undefined, path: string, method = 'GET', body?: unknown) =>
    t.app.request(`/api/community${path}`, {
      method,
      headers: { ...(who?.headers ?? {}), ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
  const json = async <T>(res: Response | Promise<Response>, status = 200): Promise<T> => {
    const answer = await res;
    const text = await answer.text();
    expect(answer.status, text).toBe(status);
    return JSON.parse(text) as T;
  };
  const startThread = (who: Member, category: CategorySlug, title: string, body = 'Opening words.') =>
    json<Written>(call(who, '/threads', 'POST', { category: slug(category), title, body }), 201);
  const replyTo = (who: Member, threadId: string, body: string) =>
    json<Written>(call(who, `/threads/${threadId}/replies`, 'POST', { body }), 201);

  it('lets each level read and post in exactly the categories at or below it', async () => {
    const members = { visitor: undefined } as Record<Level, Member | undefined>;
    for (const level of LEVELS) if (level !== 'visitor') members[level] = await member(level);
    const host = await member('admin');
    for (const category of Object.keys(CATEGORIES) as CategorySlug[]) {
      const secret = `Title-${category}-${kind}-SECRET`;
      const { id } = await startThread(host, category, secret);
      for (const level of LEVELS) {
        const who = members[level];
        const list = await call(who, `/threads?category=${slug(category)}`);
        const thread = await call(who, `/threads/${id}`);
        const text = (await list.text()) + (await thread.text());
        expect([list.status, thread.status], `${level} reads ${category}`).toEqual([READS[category][level], READS[category][level]]);
        // Below the level nothing of the thread is in any answer, errors included.
        if (READS[category][level] !== 200) expect(text).not.toContain(secret);
        else expect(text).toContain(secret);
        const posted = await call(who, '/threads', 'POST', { category: slug(category), title: `By ${level}`, body: 'Hello.' });
        expect(posted.status, `${level} posts in ${category}`).toBe(level === 'visitor' ? 401 : READS[category][level] === 200 ? 201 : 403);
        const replied = await call(who, `/threads/${id}/replies`, 'POST', { body: 'A reply.' });
        expect(replied.status, `${level} replies in ${category}`).toBe(
          level === 'visitor' ? 401 : READS[category][level] === 200 ? 201 : 403,
        );
      }
    }
    // Everyone gets the same categories, with the visible threads counted.
    const { items } = await json<{ items: { slug: string; accessLevel: string; threadCount: number }[] }>(call(undefined, '/categories'));
    expect(items.map((c) => c.slug)).toEqual(Object.keys(CATEGORIES).map((c) => slug(c as CategorySlug)));
    expect(items.find((c) => c.slug === slug('lounge'))).toMatchObject({ accessLevel: 'premium', threadCount: 4 });
  });

  it('pages a thread of 120 replies oldest first and a category newest first, pinned on top, by cursor', async () => {
    const author = await member('free');
    const { id } = await startThread(author, 'members', 'A long thread');
    const store = createCommunityStore(t.database.db);
    for (let i = 1; i <= 120; i += 1)
      await store.createReply({ threadId: id, authorId: author.id, body: `Reply ${i}`, html: `<p>Reply ${i}</p>`, status: 'visible' });
    const seen: Post[] = [];
    let cursor: string | null = '';
    while (cursor !== null) {
      const page: ThreadPage = await json<ThreadPage>(call(author, `/threads/${id}?limit=50${cursor ? `&cursor=${cursor}` : ''}`));
      seen.push(...page.posts);
      cursor = page.nextCursor;
    }
    expect(seen).toHaveLength(121);
    expect(new Set(seen.map((p) => p.id)).size).toBe(121);
    expect(seen[0]).toMatchObject({ isOpener: true });
    expect(seen.slice(1).map((p) => p.html)).toEqual(Array.from({ length: 120 }, (_, i) => `<p>Reply ${i + 1}</p>`));
    expect((await json<ThreadPage>(call(author, `/threads/${id}`))).thread.replyCount).toBe(120);
    // Default page 50, at most 100; a cursor that is not ours is refused.
    expect((await json<ThreadPage>(call(author, `/threads/${id}`))).posts).toHaveLength(50);
    expect((await call(author, `/threads/${id}?limit=101`)).status).toBe(422);
    expect((await call(author, `/threads/${id}?cursor=bm90LWEtY3Vyc29y`)).status).toBe(422);

    // The category: 33 more threads, one pinned (staff's flag), paged 30 then the rest.
    const poster = await member('admin');
    const [subs] = await t.database.db
      .select()
      .from(communityCategories)
      .where(eq(communityCategories.slug, slug('subs')));
    const titles: string[] = [];
    for (let i = 0; i < 33; i += 1) {
      const made = await t.database.db.transaction((tx) =>
        createCommunityStore(tx).createThread(
          { categoryId: subs!.id, contentId: null, authorId: poster.id, title: `Paged ${i}`, status: 'visible' },
          { body: 'x', html: '<p>x</p>' },
        ),
      );
      titles.push(made.thread.id);
    }
    await t.database.db.execute(sql`update community_threads set pinned = true where id = ${titles[0]}`);
    const first = await json<ListAnswer>(call(poster, `/threads?category=${slug('subs')}`));
    expect(first.items).toHaveLength(30);
    expect(first.items[0]).toMatchObject({ id: titles[0], pinned: true });
    const rest = await json<ListAnswer>(call(poster, `/threads?category=${slug('subs')}&cursor=${first.nextCursor}`));
    const all = [...first.items, ...rest.items].map((i) => i.id);
    expect(new Set(all).size).toBe(all.length);
    expect(all).toEqual(expect.arrayContaining(titles));
    expect(rest.nextCursor).toBeNull();
  });

  it('lets members edit and delete their own posts, never another member’s', async () => {
    const [author, other] = [await member('free'), await member('free')];
    const { id: threadId } = await startThread(author, 'members', 'Editing');
    const { id } = await replyTo(author, threadId, 'First **draft**');
    expect(await json<{ body: string }>(call(author, `/posts/${id}/source`))).toEqual({ body: 'First **draft**' });
    expect((await call(other, `/posts/${id}/source`)).status).toBe(403);
    expect((await call(other, `/posts/${id}`, 'PATCH', { body: 'Hijacked' })).status).toBe(403);
    expect((await call(other, `/posts/${id}`, 'DELETE')).status).toBe(403);
    const edited = await json<Post>(call(author, `/posts/${id}`, 'PATCH', { body: 'Second _take_' }));
    expect(edited).toMatchObject({ id, html: '<p>Second <em>take</em></p>', mine: true });
    expect(edited.editedAt).not.toBeNull();
    expect(await json(call(author, `/posts/${id}`, 'DELETE'))).toEqual({ id, status: 'deleted' });
    const page = await json<ThreadPage>(call(other, `/threads/${threadId}`));
    expect(page.posts.find((p) => p.id === id)).toMatchObject({ status: 'deleted', html: '' });
    expect(page.thread.replyCount).toBe(0);
    const [row] = await t.database.db.select().from(communityPosts).where(eq(communityPosts.id, id));
    expect(row).toMatchObject({ body: '', html: '', status: 'deleted' });
    expect((await call(author, `/posts/${id}`, 'PATCH', { body: 'Back' })).status).toBe(409);
  });

  it('counts one like per member and none for one’s own post', async () => {
    const [author, a, b] = [await member('free'), await member('free'), await member('subscriber')];
    const { id: threadId } = await startThread(author, 'members', 'Likes');
    const { id } = await replyTo(author, threadId, 'Like me');
    expect(await json(call(a, `/posts/${id}/like`, 'PUT'))).toEqual({ likeCount: 1, liked: true });
    expect(await json(call(a, `/posts/${id}/like`, 'PUT'))).toEqual({ likeCount: 1, liked: true });
    expect(await json(call(b, `/posts/${id}/like`, 'PUT'))).toEqual({ likeCount: 2, liked: true });
    expect(await json(call(a, `/posts/${id}/like`, 'DELETE'))).toEqual({ likeCount: 1, liked: false });
    expect(await json(call(a, `/posts/${id}/like`, 'DELETE'))).toEqual({ likeCount: 1, liked: false });
    expect((await call(author, `/posts/${id}/like`, 'PUT')).status).toBe(409);
    const page = await json<ThreadPage>(call(b, `/threads/${threadId}`));
    expect(page.posts.find((p) => p.id === id)).toMatchObject({ likeCount: 1, liked: true });
  });

  it('searches titles and bodies in the categories the caller may read', async () => {
    const [premium, free] = [await member('premium'), await member('free')];
    const word = `zephyr${kind}`;
    const { id: open } = await startThread(premium, 'open', `Thinking about ${word} again`);
    const { id: lounge } = await startThread(premium, 'lounge', 'Lounge talk', `Our ${word} numbers are up.`);
    const find = async (who: Member | undefined) =>
      (await json<SearchAnswer>(call(who, `/search?q=${word}`))).items.map((i) => i.threadId).sort();
    expect(await find(undefined)).toEqual([open]);
    expect(await find(free)).toEqual([open]);
    expect(await find(premium)).toEqual([open, lounge].sort());
    const hit = (await json<SearchAnswer>(call(premium, `/search?q=${word}`))).items.find((i) => i.threadId === lounge);
    expect(hit).toMatchObject({ title: 'Lounge talk', category: { slug: slug('lounge') } });
    expect(hit!.excerpt).toContain(word);
    expect((await call(free, '/search?q=')).status).toBe(422);
    // Past eight words the rest of a query is dropped (the excerpt's cost grows with each word): a ninth matching nothing changes nothing.
    const long = encodeURIComponent(`${word} ${'xa '.repeat(50)}`);
    expect((await json<SearchAnswer>(call(undefined, `/search?q=${long}`))).items.map((i) => i.threadId)).toEqual([]);
    expect(
      (
        await json<SearchAnswer>(call(undefined, `/search?q=${encodeURIComponent(`${word} ${'again '.repeat(7)}nowhere${kind}`)}`))
      ).items.map((i) => i.threadId),
    ).toEqual([open]);
  });

  it('opens an article’s and a lesson’s comments to exactly those who may read the body', async () => {
    const article = await t.services.content.create('blog', makeBlogInput({ accessLevel: 'premium' }));
    const course = await t.services.content.create('course', makeCourseInput({ accessLevel: 'subscriber' }));
    const [free, subscriber, premium] = [await member('free'), await member('subscriber'), await member('premium')];
    const articlePath = `/comments/blogs/${article.slug}`;
    const lessonPath = `/comments/courses/${course.slug}/lessons/first`;
    expect(await json<CommentsPage>(call(premium, articlePath))).toEqual({ thread: null, posts: [], nextCursor: null });
    for (const [who, path, read] of [
      [undefined, articlePath, 401],
      [free, articlePath, 403],
      [subscriber, articlePath, 403],
      [premium, articlePath, 200],
      [undefined, lessonPath, 401],
      [free, lessonPath, 403],
      [subscriber, lessonPath, 200],
    ] as const) {
      expect((await call(who, path)).status, `${path} read`).toBe(read);
      const posted = await call(who, path, 'POST', { body: 'Useful, thanks!' });
      expect(posted.status, `${path} post`).toBe(read === 200 ? 201 : read);
    }
    expect((await call(premium, '/comments/blogs/no-such-article')).status).toBe(404);
    expect((await call(subscriber, `/comments/courses/${course.slug}/lessons/no-such-lesson`)).status).toBe(404);
    const comments = await json<CommentsPage>(call(premium, articlePath));
    expect(comments.thread).toMatchObject({ place: { kind: 'comments', type: 'blog', slug: article.slug }, replyCount: 1 });
    expect(comments.posts.map((p) => p.html)).toEqual(['<p>Useful, thanks!</p>']);
    // The comments thread is read by the same rule through its id, and never listed or searched.
    expect((await call(free, `/threads/${comments.thread!.id}`)).status).toBe(403);
    expect((await call(premium, `/threads/${comments.thread!.id}`)).status).toBe(200);
  });

  it('holds a new account’s first posts that carry a link until staff approve them', async () => {
    const newbie = await member('free', 0);
    const other = await member('free');
    const held = await startThread(newbie, 'open', 'Check my site', 'See https://spam.example.com today');
    expect(held.status).toBe('held');
    const listFor = async (who: Member | undefined) =>
      (await json<ListAnswer>(call(who, `/threads?category=${slug('open')}&limit=100`))).items.map((i) => i.id);
    // A visitor's first page is one serialised answer, kept until the community changes.
    const publicFirstPage = async () =>
      (await json<ListAnswer>(call(undefined, `/threads?category=${slug('open')}`))).items.map((i) => i.id);
    expect(await publicFirstPage()).not.toContain(held.id);
    expect(await listFor(undefined)).not.toContain(held.id);
    expect(await listFor(other)).not.toContain(held.id);
    expect(await listFor(newbie)).toContain(held.id);
    expect((await call(other, `/threads/${held.id}`)).status).toBe(404);
    expect((await json<ThreadPage>(call(newbie, `/threads/${held.id}`))).thread.status).toBe('held');
    // Without a link the same account posts at once; an older account's link is not held.
    const { id: openThread } = await startThread(other, 'open', 'A fine question');
    expect((await replyTo(newbie, openThread, 'Plain words')).status).toBe('visible');
    const linked = await replyTo(newbie, openThread, '[my page](https://spam.example.com)');
    expect(linked.status).toBe('held');
    expect((await replyTo(other, openThread, 'https://docs.example.com helps')).status).toBe('visible');
    const before = await json<ThreadPage>(call(other, `/threads/${openThread}`));
    expect(before.posts.map((p) => p.id)).not.toContain(linked.id);
    expect(before.thread.replyCount).toBe(2);
    // Approval (moderation's action) shows both and counts the reply.
    const opener = (await json<ThreadPage>(call(newbie, `/threads/${held.id}`))).posts[0]!;
    await t.database.db.transaction(async (tx) => {
      await publishPost(tx, opener.id);
      await publishPost(tx, linked.id);
    });
    expect(await listFor(undefined)).toContain(held.id);
    // The kept answer heard of it through the change notice (what another instance's write sends too).
    await expect.poll(publicFirstPage, { timeout: 3000 }).toContain(held.id);
    const after = await json<ThreadPage>(call(other, `/threads/${openThread}`));
    expect(after.posts.map((p) => p.id)).toContain(linked.id);
    expect(after.thread.replyCount).toBe(3);
  });

  it('takes a hidden thread and a hidden post out of members’ view, keeping them for staff, marked', async () => {
    const [writer, reader, staff] = [await member('free'), await member('free'), await member('editor')];
    const { id } = await startThread(writer, 'members', 'To be hidden');
    const { id: postId } = await replyTo(writer, id, 'Hidden words');
    const listed = async (who: Member) =>
      (await json<ListAnswer>(call(who, `/threads?category=${slug('members')}&limit=100`))).items.find((i) => i.id === id);
    await t.database.db.transaction((tx) => withdrawPost(tx, postId, 'hidden'));
    const page = await json<ThreadPage>(call(reader, `/threads/${id}`));
    expect(page.posts.find((p) => p.id === postId)).toMatchObject({ status: 'hidden', html: '' });
    expect(page.thread.replyCount).toBe(0);
    const staffPage = await json<ThreadPage>(call(staff, `/threads/${id}`));
    expect(staffPage.posts.find((p) => p.id === postId)).toMatchObject({ status: 'hidden', html: '<p>Hidden words</p>' });
    await t.database.db.transaction((tx) => withdrawThread(tx, id, 'hidden'));
    expect(await listed(reader)).toBeUndefined();
    expect(await listed(writer)).toBeUndefined();
    expect((await call(reader, `/threads/${id}`)).status).toBe(404);
    expect((await call(writer, `/threads/${id}/replies`, 'POST', { body: 'Still here?' })).status).toBe(404);
    expect(await listed(staff)).toMatchObject({ status: 'hidden' });
    expect((await json<ThreadPage>(call(staff, `/threads/${id}`))).thread.status).toBe('hidden');
  });

  it('names authors in the visitors’ kept lists as they are now, after a rename', async () => {
    const author = await member('free');
    const { id } = await startThread(author, 'open', 'Who wrote this?');
    const authorIn = async () =>
      (await json<ListAnswer>(call(undefined, `/threads?category=${slug('open')}`))).items.find((i) => i.id === id)?.author?.name;
    // Once the thread's own change notice has come back (Postgres delivers it a moment later), the
    // visitors' answer is kept.
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(await authorIn()).not.toBe('Renamed Person');
    const renamed = await t.app.request('/api/users/me', {
      method: 'PATCH',
      headers: { ...author.headers, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'Renamed Person' }),
    });
    expect(renamed.status).toBe(200);
    await expect.poll(authorIn, { timeout: 5_000 }).toBe('Renamed Person');
  });

  it('limits threads per account and refuses a suspended member', async () => {
    const busy = await member('free');
    for (let i = 0; i < 5; i += 1) await startThread(busy, 'members', `Busy ${i}`);
    const refused = await call(busy, '/threads', 'POST', { category: slug('members'), title: 'One more', body: 'x' });
    expect(refused.status).toBe(429);
    expect(refused.headers.get('retry-after')).toMatch(/^\d+$/);

    const suspended = await member('free');
    const { id } = await startThread(suspended, 'members', 'Before the suspension');
    await t.database.db.insert(communityMembers).values({ userId: suspended.id, suspendedAt: new Date(), suspendedReason: 'spam' });
    expect((await call(suspended, '/threads', 'POST', { category: slug('members'), title: 'x', body: 'y' })).status).toBe(403);
    expect((await call(suspended, `/threads/${id}/replies`, 'POST', { body: 'y' })).status).toBe(403);
    // A refused first comment leaves no comments thread behind.
    const article = await t.services.content.create('blog', makeBlogInput({ accessLevel: 'free' }));
    expect((await call(suspended, `/comments/blogs/${article.slug}`, 'POST', { body: 'y' })).status).toBe(403);
    expect((await json<CommentsPage>(call(suspended, `/comments/blogs/${article.slug}`))).thread).toBeNull();
    expect((await json<ThreadPage>(call(suspended, `/threads/${id}`))).thread.canReply).toBe(false);
    // A suspension that ended lets them post again.
    await t.database.db
      .update(communityMembers)
      .set({ suspendedUntil: new Date(Date.now() - 1000) })
      .where(eq(communityMembers.userId, suspended.id));
    expect((await call(suspended, `/threads/${id}/replies`, 'POST', { body: 'Back again' })).status).toBe(201);
  });

  it('refuses empty, huge, wrongly typed and hostile posts with 4xx, and changes nothing', async () => {
    const writer = await member('free');
    const { id: threadId } = await startThread(writer, 'members', 'Bad input');
    const { id: postId } = await replyTo(writer, threadId, 'Kept as it is');
    const count = async () => (await t.database.db.select({ n: sql<number>`count(*)::int` }).from(communityPosts))[0]!.n;
    const before = await count();
    const deep = `${'> '.repeat(40)}deep`;
    const nestedEmphasis = `${'*a '.repeat(2000)}x${' a*'.repeat(2000)}`;
    const bodies: [string, unknown, number][] = [
      ['empty', { body: '' }, 422],
      ['blank', { body: ' \n\t ' }, 422],
      ['only invisible characters', { body: '\u200b\u202e\u2066' }, 422],
      ['too long', { body: 'x'.repeat(20_001) }, 422],
      ['a number', { body: 42 }, 422],
      ['an array', { body: ['a'] }, 422],
      ['null', { body: null }, 422],
      ['missing', {}, 422],
      ['quotes nested 40 deep', { body: deep }, 422],
      ['lists nested 40 deep', { body: Array.from({ length: 40 }, (_, i) => `${'  '.repeat(i)}- item`).join('\n') }, 422],
      ['images nested 3,000 deep', { body: `${'!['.repeat(3000)}x${'](a)'.repeat(3000)}` }, 422],
      ['400,000 table cells', { body: `|${'a|'.repeat(100)}\n|${'-|'.repeat(100)}\n${'|\n'.repeat(4000)}` }, 422],
    ];
    for (const [label, body, status] of bodies) {
      for (const [method, path] of [
        ['POST', `/threads/${threadId}/replies`],
        ['PATCH', `/posts/${postId}`],
        ['POST', '/comments/blogs/local-seo-playbook-baltimore'],
      ] as const) {
        const res = await call(writer, path, method, body);
        expect(res.status, `${label} ${method} ${path}`).toBe(status);
      }
    }
    // Emphasis the parser would take seconds on (and overflow its stack with) is refused before parsing.
    expect((await call(writer, `/threads/${threadId}/replies`, 'POST', { body: nestedEmphasis })).status).toBe(422);
    // Inside a fenced code block they are code: a long one is fine.
    expect((await call(writer, `/threads/${threadId}/replies`, 'POST', { body: `\`\`\`\n${'*'.repeat(2000)}\n\`\`\`` })).status).toBe(201);
    for (const [label, body] of [
      ['no title', { category: slug('members'), body: 'x' }],
      ['a title on two lines', { category: slug('members'), title: 'a\nb', body: 'x' }],
      ['a huge title', { category: slug('members'), title: 'x'.repeat(151), body: 'x' }],
      ['a category that is not a slug', { category: '../admin', title: 'x', body: 'x' }],
      ['a category of the wrong type', { category: 7, title: 'x', body: 'x' }],
    ] as const)
      expect((await call(writer, '/threads', 'POST', body)).status, label).toBe(422);
    expect((await call(writer, '/threads', 'POST', { category: 'no-such-category', title: 'x', body: 'x' })).status).toBe(404);
    for (const path of [`/threads/${crypto.randomUUID()}`, `/threads/${crypto.randomUUID()}/replies`, '/threads/not-a-uuid/replies'])
      expect((await (path.endsWith('replies') ? call(writer, path, 'POST', { body: 'x' }) : call(writer, path))).status, path).toBe(404);
    expect(await count()).toBe(before + 1);
    expect(await json<{ body: string }>(call(writer, `/posts/${postId}/source`))).toEqual({ body: 'Kept as it is' });
  });

  it('keeps a post that opens with an HTML block as the text typed, running none of it; a post with nothing to show is refused', async () => {
    const writer = await member('free');
    const firstLines = {
      div: '<div>Hello all,\nmy first question',
      script: '<script>alert(document.cookie)</script>\nStill my question',
      comment: '<!-- draft -->\nMy question',
      pre: '<pre>\nlog line\n</pre>\nAny idea?',
      table: '<table><tr><td>a cell</td></tr></table>\nWhy is this empty?',
    };
    const { id: threadId } = await startThread(writer, 'members', 'HTML first lines', firstLines.div);
    for (const body of Object.values(firstLines).slice(1)) await replyTo(writer, threadId, body);
    const page = await json<ThreadPage>(call(writer, `/threads/${threadId}`));
    expect(page.posts).toHaveLength(5);
    const shown = page.posts.map((p) => p.html);
    for (const [i, [label, body]] of Object.entries(firstLines).entries()) {
      const html = shown[i]!;
      // Every line the member wrote is there, as text: the tags escaped, not dropped, and none of them markup.
      for (const line of body.split('\n')) expect(html, label).toContain(line.replaceAll('<', '&lt;').replaceAll('>', '&gt;'));
      expect(html, label).not.toMatch(/<(?:script|div|table|tr|td|pre)\b|<!--/i);
    }
    const stored = await t.database.db
      .select({ html: communityPosts.html })
      .from(communityPosts)
      .where(eq(communityPosts.threadId, threadId));
    expect(stored.every((p) => p.html.startsWith('<p>'))).toBe(true);
    // Only a link definition renders to nothing: refused (422 on the body) rather than stored empty.
    const empty = await call(writer, `/threads/${threadId}/replies`, 'POST', { body: '[docs]: https://example.com/docs' });
    expect(empty.status).toBe(422);
    expect(await empty.json()).toMatchObject({
      error: { code: 'validation_failed', fields: { body: [expect.stringMatching(/nothing to display/)] } },
    });
  });

  it('keeps a deleted member’s threads readable as a deleted member’s, after exporting their posts', async () => {
    const [leaving, staying] = [await member('free'), await member('free')];
    const { id: threadId } = await startThread(leaving, 'members', 'Leaving soon', 'My *opening* words');
    const { id: replyId } = await replyTo(staying, threadId, 'Stay!');
    await replyTo(leaving, threadId, 'Sorry, **goodbye**');
    expect(await json(call(leaving, `/posts/${replyId}/like`, 'PUT'))).toMatchObject({ likeCount: 1 });
    const exported = await json<{ community: { posts: { body: string }[]; threads: { title: string }[]; likes: unknown[] } }>(
      t.app.request('/api/users/me/export', { headers: leaving.headers }),
    );
    expect(exported.community.posts.map((p) => p.body)).toEqual(['My *opening* words', 'Sorry, **goodbye**']);
    expect(exported.community.threads.map((x) => x.title)).toEqual(['Leaving soon']);
    expect(exported.community.likes).toHaveLength(1);
    expect((await t.app.request('/api/users/me', { method: 'DELETE', headers: leaving.headers })).status).toBe(204);

    const page = await json<ThreadPage>(call(staying, `/threads/${threadId}`));
    expect(page.thread).toMatchObject({ title: 'Leaving soon', author: null, replyCount: 1 });
    expect(page.posts.map((p) => [p.author?.name ?? null, p.status, p.html])).toEqual([
      [null, 'deleted', ''],
      [staying.email.split('@')[0] ? `Member ${staying.email.split('@')[0]}` : '', 'visible', '<p>Stay!</p>'],
      [null, 'deleted', ''],
    ]);
    expect(page.posts[1]!.likeCount).toBe(0);
    const bodies = await t.database.db
      .select({ body: communityPosts.body })
      .from(communityPosts)
      .where(eq(communityPosts.threadId, threadId));
    expect(bodies.map((b) => b.body).sort()).toEqual(['', '', 'Stay!']);
  });

  it('seeds the demo categories and threads once, general for anyone to read and the lounge for premium members', async () => {
    const accounts = await Promise.all(
      (['free', 'subscriber', 'premium', 'editor', 'admin'] as const).map(async (level) => {
        const [role, accessLevel] = ACCOUNTS[level];
        return { id: (await member(level)).id, role, accessLevel };
      }),
    );
    await seedDemoCommunity(t.database.db, accounts);
    await seedDemoCommunity(t.database.db, accounts);
    const general = await json<ListAnswer>(call(undefined, '/threads?category=general'));
    expect(general.category).toMatchObject({ accessLevel: 'free', anyoneReads: true, threadCount: 3 });
    expect(general.items[0]).toMatchObject({ title: 'Welcome to the Beacon Growth community', pinned: true, replyCount: 2 });
    expect((await call(undefined, '/threads?category=premium-lounge')).status).toBe(401);
    const lounge = await t.database.db.select().from(communityCategories).where(eq(communityCategories.slug, 'premium-lounge'));
    expect(lounge).toHaveLength(1);
    const threads = await json<ListAnswer>(call(await member('premium'), '/threads?category=premium-lounge'));
    expect(threads.items.map((i) => [i.title, i.author?.name.replace(/-\d+-.*/, '')])).toEqual([
      ['Monthly strategy clinic: bring your questions', 'Member editor'],
      ['Funnel review: 3% trial-to-paid, where is the leak?', 'Member premium'],
    ]);
  });
});
