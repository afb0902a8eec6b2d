/**
 * Community moderation through the API on both databases: a held first post waits in the queue and,
 * approved, shows and counts; a held opener holds its thread; reports wait in the queue and are
 * resolved by whatever staff do; hide, unhide and delete change what members see and find; every
 * thread action (pin, lock, move, hide, unhide, delete) and its effect on members; a suspended member
 * cannot post until it is lifted or ends; categories are created, changed and deleted only when
 * empty; and every action leaves exactly one log entry, paged newest first.
 */
import { and, eq, sql } from 'drizzle-orm';
import type { hc, InferResponseType } from 'hono/client';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { AccessLevel, Role } from '#shared/access.ts';
import { rateLimits } from '../../functions/platform/abuse/tables.ts';
import { communityMembers, communityModerationLog, communityPosts, communityReports } from '../../functions/community/tables.ts';
import type { Viewer } from '../../functions/users/service.ts';
import type { Category } from '../../functions/community/answers.ts';
import type { ModerationRoutes } from '../../functions/community/moderation/routes.ts';
import type { CommunityRoutes } from '../../functions/community/routes.ts';
import type { Json } from '../support/answers.ts';
import { callerOf, createTestApp, type TestApp } from '../support/app.ts';
import { DATABASE_KINDS } from '../support/databases.ts';

const PASSWORD = 'moderation suite pass';
const ACCOUNTS: Record<string, { role: Role; accessLevel: AccessLevel }> = {
  admin: { role: 'admin', accessLevel: 'premium' },
  editor: { role: 'editor', accessLevel: 'premium' },
  alice: { role: 'member', accessLevel: 'free' },
  bob: { role: 'member', accessLevel: 'free' },
  carol: { role: 'member', accessLevel: 'free' },
  pat: { role: 'member', accessLevel: 'premium' },
  newbie: { role: 'member', accessLevel: 'free' },
  newbie2: { role: 'member', accessLevel: 'free' },
  newbie3: { role: 'member', accessLevel: 'free' },
  newbie4: { role: 'member', accessLevel: 'free' },
  newbie5: { role: 'member', accessLevel: 'free' },
};
const ADMIN = '/api/admin/community';
const FREE_ARTICLE = 'local-seo-playbook-baltimore';
/** Another free article, whose comments stay open. */
const OPEN_ARTICLE = 'ai-automation-small-business-starter-guide';

type Staff = ReturnType<typeof hc<ModerationRoutes>>;
type QueueJson = InferResponseType<Staff['queue']['$get']>;
type LogJson = InferResponseType<Staff['log']['$get']>;
type Community = ReturnType<typeof hc<CommunityRoutes>>;
type ThreadJson = InferResponseType<Community['threads'][':id']['$get'], 200>;
type ListJson = InferResponseType<Community['threads']['$get'], 200>;
type WrittenJson = InferResponseType<Community['threads']['$post'], 201>;
type SearchJson = InferResponseType<Community['search']['$get'], 200>;
type CommentJson = InferResponseType<Community['comments']['blogs'][':slug']['$post'], 201>;

describe.each(DATABASE_KINDS)('community moderation on %s', (kind) => {
  let t: TestApp;
  const tokens: Record<string, string> = {};
  const viewers: Record<string, Viewer> = {};
  const as = callerOf(() => t.app, tokens);
  /** The JSON of a call that must answer `status`. */
  async function json<T>(res: Response | Promise<Response>, status: number): Promise<T> {
    const answer = await res;
    expect(answer.status, await answer.clone().text()).toBe(status);
    return (await answer.json()) as T;
  }
  const thread = (who: string | undefined, id: string) => json<ThreadJson>(as(who, `/api/community/threads/${id}`), 200);
  const list = (who: string | undefined, category: string) => json<ListJson>(as(who, `/api/community/threads?category=${category}`), 200);
  const startThread = async (who: string, category: string, title: string, body: string) =>
    json<WrittenJson>(as(who, '/api/community/threads', 'POST', { category, title, body }), 201);
  const reply = async (who: string, threadId: string, body: string) =>
    json<WrittenJson>(as(who, `/api/community/threads/${threadId}/replies`, 'POST', { body }), 201);
  const act = (who: string, what: 'posts' | 'threads', id: string, body: Record<string, string | null>) =>
    as(who, `${ADMIN}/${what}/${id}`, 'POST', body);
  const queue = async () => (await json<QueueJson>(as('admin', `${ADMIN}/queue`), 200)).items;
  const search = async (who: string, q: string) =>
    (await json<SearchJson>(as(who, `/api/community/search?q=${q}`), 200)).items.map((i) => i.postId);
  /** Log entries written since `since` (their count), oldest first. */
  const logSince = async (since: number) =>
    (await t.database.db.select().from(communityModerationLog).orderBy(communityModerationLog.createdAt)).slice(since);
  const logCount = async () => (await t.database.db.select().from(communityModerationLog)).length;

  beforeAll(async () => {
    t = await createTestApp(kind, undefined, { AUTH_BCRYPT_COST: '4' });
    for (const [who, account] of Object.entries(ACCOUNTS)) {
      const email = `${who}-${kind}@moderation-suite.test`;
      const id = await t.services.auth.createConfirmedUser(email, PASSWORD, who);
      await t.services.users.assign(id, account.role, account.accessLevel);
      viewers[who] = { id, email, ...account };
      tokens[who] = (await t.services.auth.signInWithPassword({ email, password: PASSWORD })).access_token;
    }
    const category = { description: '', anyoneReads: false, position: 0 };
    await json(
      as('admin', `${ADMIN}/categories`, 'POST', { ...category, slug: 'general', name: 'General', accessLevel: 'free', anyoneReads: true }),
      201,
    );
    await json(
      as('admin', `${ADMIN}/categories`, 'POST', { ...category, slug: 'lounge', name: 'Lounge', accessLevel: 'premium', position: 1 }),
      201,
    );
  });
  afterAll(() => t?.close());
  // The suite posts more than one member's hourly limits allow.
  beforeEach(() => t.database.db.delete(rateLimits));

  it('keeps a new account’s first post with a link in the queue, and approved it shows and counts', async () => {
    const { id: threadId } = await startThread('alice', 'general', 'Welcome thread', 'Say hello.');
    const held = await reply('newbie', threadId, 'My shop: [visit](https://shop.example.com)');
    expect(held.status).toBe('held');
    let seen = await thread('bob', threadId);
    expect(seen.posts.map((p) => p.id)).not.toContain(held.id);
    expect(seen.thread.replyCount).toBe(0);
    const waiting = (await queue()).find((i) => i.post.id === held.id);
    expect(waiting).toMatchObject({
      post: { status: 'held' },
      thread: { title: 'Welcome thread', category: { slug: 'general' } },
      author: { id: viewers.newbie!.id },
    });

    const before = await logCount();
    expect(await json(act('editor', 'posts', held.id, { action: 'approve' }), 200)).toEqual({ post: { id: held.id, status: 'visible' } });
    seen = await thread('bob', threadId);
    expect(seen.posts.find((p) => p.id === held.id)).toMatchObject({ status: 'visible', html: expect.stringContaining('nofollow') });
    expect(seen.thread.replyCount).toBe(1);
    expect((await queue()).map((i) => i.post.id)).not.toContain(held.id);
    expect(await logSince(before)).toMatchObject([
      { action: 'approve', actorId: viewers.editor!.id, postId: held.id, threadId, targetUserId: viewers.newbie!.id },
    ]);
    // Approving what is already shown changes nothing and logs nothing; a deleted post cannot be approved.
    await json(act('editor', 'posts', held.id, { action: 'approve' }), 200);
    expect(await logCount()).toBe(before + 1);
  });

  it('holds a new account’s thread with its opener, and approving the opener opens the thread', async () => {
    const held = await startThread('newbie2', 'general', 'Buy my course', 'Here: <https://course.example.com>');
    expect(held.status).toBe('held');
    expect((await list('bob', 'general')).items.map((i) => i.id)).not.toContain(held.id);
    expect((await as('bob', `/api/community/threads/${held.id}`)).status).toBe(404);
    const [item] = (await queue()).filter((i) => i.thread.id === held.id);
    await json(act('admin', 'posts', item!.post.id, { action: 'approve' }), 200);
    expect((await list('bob', 'general')).items.map((i) => i.id)).toContain(held.id);
    expect(
      (await list(undefined, 'general')).items.map((i) => i.id),
      'the visitors’ cached page too',
    ).toContain(held.id);
  });

  it('lists the queue longest waiting first, and a held thread hidden then unhidden goes back to waiting', async () => {
    const { id: threadId } = await startThread('alice', 'general', 'Queue order', 'Plain.');
    const newer = await reply('newbie3', threadId, 'Now: <https://now.example.com>');
    const older = await startThread('newbie4', 'general', 'Unapproved title', 'Days ago: <https://old.example.com>');
    expect([newer.status, older.status]).toEqual(['held', 'held']);
    await t.database.db
      .update(communityPosts)
      .set({ createdAt: new Date(Date.now() - 5 * 86_400_000) })
      .where(and(eq(communityPosts.threadId, older.id), eq(communityPosts.isOpener, true)));
    const ids = (await queue()).map((i) => i.thread.id);
    expect(ids.indexOf(older.id)).toBeGreaterThanOrEqual(0);
    expect(ids.indexOf(older.id)).toBeLessThan((await queue()).findIndex((i) => i.post.id === newer.id));

    await json(act('admin', 'threads', older.id, { action: 'hide' }), 200);
    await json(act('admin', 'threads', older.id, { action: 'unhide' }), 200);
    expect((await list(undefined, 'general')).items.map((i) => i.id)).not.toContain(older.id);
    expect((await list('bob', 'general')).items.map((i) => i.id)).not.toContain(older.id);
    expect((await as('bob', `/api/community/threads/${older.id}`)).status).toBe(404);
    expect((await as('bob', `/api/community/threads/${older.id}/replies`, 'POST', { body: 'x' })).status).toBe(404);
    expect((await queue()).map((i) => i.thread.id)).toContain(older.id);
  });

  it('refuses to approve a held post its author edited since staff read it', async () => {
    const { id: threadId } = await startThread('alice', 'general', 'Edited while waiting', 'Plain.');
    const held = await reply('newbie5', threadId, 'First: <https://first.example.com>');
    const seen = (await queue()).find((i) => i.post.id === held.id)!.post.editedAt;
    expect(seen).toBeNull();
    await json(as('newbie5', `/api/community/posts/${held.id}`, 'PATCH', { body: 'Now: <https://other.example.com>' }), 200);
    const stale = await act('admin', 'posts', held.id, { action: 'approve', seen });
    expect(stale.status).toBe(409);
    const fresh = (await queue()).find((i) => i.post.id === held.id)!.post.editedAt;
    expect(fresh).not.toBeNull();
    await json(act('admin', 'posts', held.id, { action: 'approve', seen: fresh }), 200);
  });

  it('queues reported posts; hide takes one out of members’ views and the search, unhide brings it back, delete empties it', async () => {
    const { id: threadId } = await startThread('alice', 'general', 'Reported thread', 'An opener.');
    const post = await reply('carol', threadId, 'Rude words zephyrquartz everywhere.');
    expect(await json(as('bob', `/api/community/posts/${post.id}/report`, 'POST', { reason: 'Rude' }), 201)).toEqual({ reported: true });
    await json(as('alice', `/api/community/posts/${post.id}/report`, 'POST', {}), 201);
    const [item] = (await queue()).filter((i) => i.post.id === post.id);
    expect(item?.reports.map((r) => [r.reason, r.reporter?.id])).toEqual([
      ['Rude', viewers.bob!.id],
      ['', viewers.alice!.id],
    ]);
    expect(await search('bob', 'zephyrquartz')).toContain(post.id);

    const before = await logCount();
    await json(act('editor', 'posts', post.id, { action: 'hide' }), 200);
    expect((await thread('bob', threadId)).posts.find((p) => p.id === post.id)).toMatchObject({ status: 'hidden', html: '' });
    expect(await search('bob', 'zephyrquartz')).not.toContain(post.id);
    expect((await thread('bob', threadId)).thread.replyCount).toBe(0);
    const reports = await t.database.db.select().from(communityReports).where(eq(communityReports.postId, post.id));
    expect(reports.map((r) => [r.resolution, r.resolvedBy, r.resolvedAt !== null])).toEqual([
      ['hide', viewers.editor!.id, true],
      ['hide', viewers.editor!.id, true],
    ]);
    expect((await queue()).map((i) => i.post.id)).not.toContain(post.id);

    await json(act('admin', 'posts', post.id, { action: 'unhide' }), 200);
    expect((await thread('bob', threadId)).posts.find((p) => p.id === post.id)?.html).toContain('zephyrquartz');
    expect(await search('bob', 'zephyrquartz')).toContain(post.id);

    await json(act('admin', 'posts', post.id, { action: 'delete' }), 200);
    const [row] = await t.database.db.select().from(communityPosts).where(eq(communityPosts.id, post.id));
    expect(row).toMatchObject({ status: 'deleted', body: '', html: '' });
    expect(await search('bob', 'zephyrquartz')).not.toContain(post.id);
    expect((await act('admin', 'posts', post.id, { action: 'hide' })).status).toBe(409);
    expect((await act('admin', 'posts', post.id, { action: 'approve' })).status).toBe(409);
    const entries = await logSince(before);
    expect(entries.map((e) => [e.action, e.postId, e.detail])).toEqual([
      ['hide', post.id, { title: 'Reported thread', from: 'visible', reports: 2 }],
      ['unhide', post.id, { title: 'Reported thread', from: 'hidden', reports: 0 }],
      ['delete', post.id, { title: 'Reported thread', from: 'visible', reports: 0 }],
    ]);
  });

  it('dismisses reports: the post stays and leaves the queue; with none open it is a conflict', async () => {
    const { id: threadId } = await startThread('alice', 'general', 'Fine thread', 'An opener.');
    const post = await reply('carol', threadId, 'A fine reply.');
    await json(as('bob', `/api/community/posts/${post.id}/report`, 'POST', { reason: 'Mistake' }), 201);
    await json(act('admin', 'posts', post.id, { action: 'dismiss' }), 200);
    const [report] = await t.database.db.select().from(communityReports).where(eq(communityReports.postId, post.id));
    expect(report).toMatchObject({ resolution: 'dismiss', resolvedBy: viewers.admin!.id });
    expect((await thread('bob', threadId)).posts.find((p) => p.id === post.id)?.status).toBe('visible');
    expect((await queue()).map((i) => i.post.id)).not.toContain(post.id);
    expect((await act('admin', 'posts', post.id, { action: 'dismiss' })).status).toBe(409);
    // A report again (the member already reported it): nothing new opens.
    expect((await as('bob', `/api/community/posts/${post.id}/report`, 'POST', { reason: 'Again' })).status).toBe(200);
    expect((await queue()).map((i) => i.post.id)).not.toContain(post.id);
  });

  it('pins, locks, moves, hides and deletes threads, with their effect on members and one log entry each', async () => {
    const older = await startThread('alice', 'general', 'Older thread', 'First.');
    await startThread('alice', 'general', 'Newer thread', 'Second.');
    const before = await logCount();
    await json(act('editor', 'threads', older.id, { action: 'pin' }), 200);
    expect((await list('bob', 'general')).items[0]).toMatchObject({ id: older.id, pinned: true });
    expect((await list(undefined, 'general')).items[0]?.id, 'the visitors’ cached page too').toBe(older.id);
    await json(act('editor', 'threads', older.id, { action: 'pin' }), 200);

    await json(act('editor', 'threads', older.id, { action: 'lock' }), 200);
    expect((await as('bob', `/api/community/threads/${older.id}/replies`, 'POST', { body: 'Let me in' })).status).toBe(409);
    await reply('admin', older.id, 'Staff may still reply.');
    await json(act('editor', 'threads', older.id, { action: 'unlock' }), 200);
    await reply('bob', older.id, 'Open again.');

    await json(act('admin', 'threads', older.id, { action: 'move', category: 'lounge' }), 200);
    expect((await as('bob', `/api/community/threads/${older.id}`)).status).toBe(403);
    expect((await list('bob', 'general')).items.map((i) => i.id)).not.toContain(older.id);
    expect((await list('pat', 'lounge')).items.map((i) => i.id)).toContain(older.id);
    const moveTo = (category: string) => act('admin', 'threads', older.id, { action: 'move', category });
    expect((await moveTo('no-such-category')).status).toBe(422);

    await json(act('admin', 'threads', older.id, { action: 'hide' }), 200);
    expect((await as('pat', `/api/community/threads/${older.id}`)).status).toBe(404);
    expect((await list('pat', 'lounge')).items.map((i) => i.id)).not.toContain(older.id);
    expect((await as('admin', `/api/community/threads/${older.id}`)).status).toBe(200);
    await json(act('admin', 'threads', older.id, { action: 'unhide' }), 200);
    expect((await as('pat', `/api/community/threads/${older.id}`)).status).toBe(200);
    await json(act('admin', 'threads', older.id, { action: 'delete' }), 200);
    expect((await as('pat', `/api/community/threads/${older.id}`)).status).toBe(404);
    expect((await act('admin', 'threads', older.id, { action: 'unhide' })).status).toBe(409);

    const entries = await logSince(before);
    expect(entries.map((e) => [e.action, e.threadId])).toEqual(
      ['pin', 'lock', 'unlock', 'move', 'hide', 'unhide', 'delete'].map((action) => [action, older.id]),
    );
    expect(entries[3]!.detail).toEqual({ title: 'Older thread', from: 'general', to: 'lounge' });
  });

  it('locks an article’s comments but refuses pinning or moving them', async () => {
    const comment = await json<CommentJson>(
      as('alice', `/api/community/comments/blogs/${FREE_ARTICLE}`, 'POST', { body: 'Nice read.' }),
      201,
    );
    expect((await act('admin', 'threads', comment.threadId, { action: 'pin' })).status).toBe(409);
    expect((await act('admin', 'threads', comment.threadId, { action: 'move', category: 'general' })).status).toBe(409);
    await json(act('admin', 'threads', comment.threadId, { action: 'lock' }), 200);
    expect((await as('bob', `/api/community/comments/blogs/${FREE_ARTICLE}`, 'POST', { body: 'Me too.' })).status).toBe(409);
    await json(as('bob', `/api/community/comments/blogs/${FREE_ARTICLE}`, 'GET'), 200);
  });

  it('suspends a member from posting until lifted, or until its end passes; staff cannot be suspended', async () => {
    const { id: threadId } = await startThread('alice', 'general', 'Suspension thread', 'Opener.');
    const until = new Date(Date.now() + 86_400_000).toISOString();
    const answer = await json<InferResponseType<Staff['members'][':userId']['suspension']['$post']>>(
      as('editor', `${ADMIN}/members/${viewers.bob!.id}/suspension`, 'POST', { suspended: true, until, reason: 'Cooling off' }),
      200,
    );
    expect(answer).toMatchObject({ userId: viewers.bob!.id, suspended: true, until, reason: 'Cooling off' });
    expect((await as('bob', '/api/community/threads', 'POST', { category: 'general', title: 'Hi', body: 'Hi' })).status).toBe(403);
    expect((await as('bob', `/api/community/threads/${threadId}/replies`, 'POST', { body: 'Hi' })).status).toBe(403);
    expect((await as('bob', `/api/community/comments/blogs/${OPEN_ARTICLE}`, 'POST', { body: 'Hi' })).status).toBe(403);
    await thread('bob', threadId);

    await json(as('editor', `${ADMIN}/members/${viewers.bob!.id}/suspension`, 'POST', { suspended: false }), 200);
    await reply('bob', threadId, 'Back again.');
    // Suspended until lifted, then an end that has passed: posting works again without staff.
    await json(as('admin', `${ADMIN}/members/${viewers.bob!.id}/suspension`, 'POST', { suspended: true }), 200);
    expect((await as('bob', `/api/community/threads/${threadId}/replies`, 'POST', { body: 'Hi' })).status).toBe(403);
    await t.database.db
      .update(communityMembers)
      .set({ suspendedUntil: sql`now() - interval '1 minute'` })
      .where(eq(communityMembers.userId, viewers.bob!.id));
    await reply('bob', threadId, 'The suspension ended.');

    expect((await as('admin', `${ADMIN}/members/${viewers.editor!.id}/suspension`, 'POST', { suspended: true })).status).toBe(409);
    expect(
      (await as('admin', `${ADMIN}/members/00000000-0000-4000-8000-000000000000/suspension`, 'POST', { suspended: true })).status,
    ).toBe(404);
    const past = { suspended: true, until: new Date(Date.now() - 1000).toISOString() };
    expect((await as('admin', `${ADMIN}/members/${viewers.bob!.id}/suspension`, 'POST', past)).status).toBe(422);
    const entries = await t.database.db
      .select()
      .from(communityModerationLog)
      .where(and(eq(communityModerationLog.targetUserId, viewers.bob!.id), sql`${communityModerationLog.action} like '%suspend'`))
      .orderBy(communityModerationLog.createdAt);
    expect(entries.map((e) => [e.action, e.actorId])).toEqual([
      ['suspend', viewers.editor!.id],
      ['unsuspend', viewers.editor!.id],
      ['suspend', viewers.admin!.id],
    ]);
  });

  it('creates, changes and deletes categories (only when empty), each logged; editors cannot', async () => {
    const before = await logCount();
    const base = { description: 'For a while', anyoneReads: false, position: 5 };
    await json(as('admin', `${ADMIN}/categories`, 'POST', { ...base, slug: 'temp', name: 'Temp', accessLevel: 'free' }), 201);
    expect((await as('admin', `${ADMIN}/categories`, 'POST', { ...base, slug: 'temp', name: 'Again', accessLevel: 'free' })).status).toBe(
      409,
    );
    const open = { ...base, slug: 'paid-open', name: 'Paid', accessLevel: 'premium', anyoneReads: true };
    expect((await as('admin', `${ADMIN}/categories`, 'POST', open)).status).toBe(422);
    await list('bob', 'temp');
    await json(as('admin', `${ADMIN}/categories/temp`, 'PUT', { ...base, name: 'Temp (paid)', accessLevel: 'subscriber' }), 200);
    expect((await as('bob', '/api/community/threads?category=temp')).status).toBe(403);
    await list('pat', 'temp');
    const categories = await json<Json<{ items: Category[] }>>(as('bob', '/api/community/categories'), 200);
    expect(categories.items.find((c) => c.slug === 'temp')?.name).toBe('Temp (paid)');
    expect((await as('editor', `${ADMIN}/categories/temp`, 'DELETE')).status).toBe(403);
    expect((await as('admin', `${ADMIN}/categories/general`, 'DELETE')).status).toBe(409);
    expect((await as('admin', `${ADMIN}/categories/temp`, 'DELETE')).status).toBe(204);
    expect((await as('admin', `${ADMIN}/categories/temp`, 'DELETE')).status).toBe(404);
    expect((await logSince(before)).map((e) => [e.action, e.detail.slug])).toEqual([
      ['category-create', 'temp'],
      ['category-update', 'temp'],
      ['category-delete', 'temp'],
    ]);
  });

  it('pages the log newest first, 50 at a time', async () => {
    const { id } = await startThread('alice', 'general', 'Toggled thread', 'Opener.');
    for (let i = 0; i < 26; i++) {
      await t.services.communityModeration.actOnThread(viewers.admin!, id, { action: 'lock' });
      await t.services.communityModeration.actOnThread(viewers.admin!, id, { action: 'unlock' });
    }
    const total = await logCount();
    const first = await json<LogJson>(as('editor', `${ADMIN}/log`), 200);
    expect(first.items).toHaveLength(50);
    expect(first.items[0]).toMatchObject({ action: 'unlock', threadId: id, actor: { id: viewers.admin!.id } });
    const rest: LogJson['items'] = [];
    for (let cursor = first.nextCursor; cursor;) {
      const page = await json<LogJson>(as('editor', `${ADMIN}/log?cursor=${cursor}`), 200);
      rest.push(...page.items);
      cursor = page.nextCursor;
    }
    const ids = [...first.items, ...rest].map((e) => e.id);
    expect(new Set(ids).size).toBe(total);
    expect(ids).toHaveLength(total);
    expect((await as('editor', `${ADMIN}/log?cursor=00000000-0000-4000-8000-000000000000`)).status).toBe(422);
  });
});
