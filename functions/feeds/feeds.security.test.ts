/**
 * Members' private feeds and the account page's progress list: who may get a feed URL, what each
 * member's feed carries (full bodies only for what they may read, judged at fetch time), revocation,
 * forged and foreign tokens. The public feed (metadata only) is checked by the leak suites.
 */
import { SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AccessLevel, Role } from '#shared/access.ts';
import type { createProgressStore } from '../content/progress/store.ts';
import { createTestApp, type TestApp } from '../../tests/support/app.ts';
import type { Api, Answer, Json } from '../../tests/support/answers.ts';
import { DATABASE_KINDS } from '../../tests/support/databases.ts';

const PASSWORD = 'feed table pass';
const PREMIUM_SENTINEL = 'PREMIUM-SENTINEL-7f3a';
type Member = 'free' | 'subscriber' | 'premium' | 'editor';
type FeedAnswer = Answer<Api['users']['me']['feed']['$get']>;
type ProgressAnswer = Answer<Api['progress']['courses'][':slug']['progress']['$put']>;
type MyProgressAnswer = Answer<Api['users']['me']['progress']['$get']>;
/** The account export with the progress domain's part (the export types each domain's part as a record). */
type ExportAnswer = Answer<Api['users']['me']['export']['$get']> &
  Json<Awaited<ReturnType<ReturnType<typeof createProgressStore>['personalData']>>>;
const ACCOUNTS: Record<Member, { role: Role; accessLevel: AccessLevel }> = {
  free: { role: 'member', accessLevel: 'free' },
  subscriber: { role: 'member', accessLevel: 'subscriber' },
  premium: { role: 'member', accessLevel: 'premium' },
  editor: { role: 'editor', accessLevel: 'free' },
};

/** Slugs whose full body a feed carries (content:encoded), in feed order. */
function bodiesIn(xml: string): string[] {
  return [...xml.matchAll(/<item>[\s\S]*?<link>[^<]*\/blog\/([a-z0-9-]+)<\/link>[\s\S]*?<\/item>/g)]
    .filter((m) => m[0].includes('<content:encoded>'))
    .map((m) => m[1]!);
}

/** The feed version a link's token carries (its payload's `v`). */
function linkVersion(url: URL): number {
  const token = url.pathname.split('/')[2]!;
  return (JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString('utf8')) as { v: number }).v;
}

describe.each(DATABASE_KINDS)('member feeds on %s', (kind) => {
  let t: TestApp;
  const ids = {} as Record<Member, string>;
  const tokens = {} as Record<Member, string>;
  const levels = new Map<string, AccessLevel>();

  beforeAll(async () => {
    t = await createTestApp(kind, undefined, { AUTH_BCRYPT_COST: '4' });
    for (const who of Object.keys(ACCOUNTS) as Member[]) {
      const email = `${who}-${kind}@feeds.test`;
      ids[who] = await t.services.auth.createConfirmedUser(email, PASSWORD, who);
      await t.services.users.assign(ids[who], ACCOUNTS[who].role, ACCOUNTS[who].accessLevel);
      tokens[who] = (await t.services.auth.signInWithPassword({ email, password: PASSWORD })).access_token;
    }
    for (const post of await t.content.list('blog')) levels.set(post.slug, post.accessLevel);
  });
  afterAll(() => t?.close());

  const api = (who: Member | undefined, path: string, method = 'GET') =>
    t.app.request(path, { method, headers: who ? { authorization: `Bearer ${tokens[who]}` } : {} });
  const feedUrl = async (who: Member) => new URL(((await (await api(who, '/api/users/me/feed')).json()) as FeedAnswer).url);
  const fetchFeed = (url: URL) => t.app.request(url.pathname);

  it('refuses feed URLs and progress lists to visitors', async () => {
    for (const [path, method] of [
      ['/api/users/me/feed', 'GET'],
      ['/api/users/me/feed/reset', 'POST'],
      ['/api/users/me/progress', 'GET'],
    ] as const) {
      expect((await api(undefined, path, method)).status, path).toBe(401);
    }
  });

  it.each<[Member, AccessLevel[]]>([
    ['free', ['free']],
    ['subscriber', ['free', 'subscriber']],
    ['premium', ['free', 'subscriber', 'premium']],
    ['editor', ['free', 'subscriber', 'premium']],
  ])('gives the %s member full bodies of exactly the %j articles', async (who, readable) => {
    const res = await fetchFeed(await feedUrl(who));
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/application\/rss\+xml/);
    expect(res.headers.get('cache-control')).toBe('private, no-store');
    expect(res.headers.get('x-robots-tag')).toBe('noindex');
    const xml = await res.text();
    const expected = [...levels].filter(([, level]) => readable.includes(level)).map(([slug]) => slug);
    expect(bodiesIn(xml).sort()).toEqual(expected.sort());
    expect(xml.includes(PREMIUM_SENTINEL)).toBe(readable.includes('premium'));
    // Every article is listed, readable or not.
    expect((xml.match(/<item>/g) ?? []).length).toBe(levels.size);
  });

  it("follows the member's level at fetch time, not when the link was made", async () => {
    const url = await feedUrl('free');
    await t.services.users.assign(ids.free, 'member', 'premium');
    expect(await (await fetchFeed(url)).text()).toContain(PREMIUM_SENTINEL);
    await t.services.users.assign(ids.free, 'member', 'free');
    expect(await (await fetchFeed(url)).text()).not.toContain(PREMIUM_SENTINEL);
  });

  it('revokes every earlier link on reset', async () => {
    const old = await feedUrl('subscriber');
    const reset = await api('subscriber', '/api/users/me/feed/reset', 'POST');
    const fresh = new URL(((await reset.json()) as Answer<Api['users']['me']['feed']['reset']['$post']>).url);
    expect(fresh.href).not.toBe(old.href);
    expect((await fetchFeed(old)).status).toBe(404);
    expect((await fetchFeed(fresh)).status).toBe(200);
    // The link the account page shows now is the reset's (signed again, so its iat may differ by a second).
    const shown = await feedUrl('subscriber');
    expect((await fetchFeed(shown)).status).toBe(200);
    expect(linkVersion(shown)).toBe(linkVersion(fresh));
    expect(linkVersion(fresh)).toBeGreaterThan(linkVersion(old));
  });

  it('refuses forged, foreign-purpose and malformed feed tokens with 404', async () => {
    const good = (await feedUrl('premium')).pathname.split('/')[2]!;
    const [head, payload, signature] = good.split('.') as [string, string, string];
    const claims = JSON.parse(Buffer.from(payload, 'base64url').toString()) as Record<string, unknown>;
    const bad = [
      `${head}.${Buffer.from(JSON.stringify({ ...claims, sub: ids.free })).toString('base64url')}.${signature}`,
      await new SignJWT(claims).setProtectedHeader({ alg: 'HS256' }).setAudience('member-feed').sign(new Uint8Array(32)),
      await t.services.tokens.sign('download', { sub: ids.premium, v: 1 }),
      'not-a-token',
      `${good}x`,
    ];
    for (const token of bad) {
      const res = await t.app.request(`/feeds/${token}/rss.xml`);
      expect(res.status, token).toBe(404);
      expect(await res.text()).not.toContain(PREMIUM_SENTINEL);
    }
  });

  it("stops a deleted member's feed", async () => {
    const url = await feedUrl('editor');
    await t.services.users.deleteMe({ id: ids.editor, email: `editor-${kind}@feeds.test`, role: 'editor', accessLevel: 'free' });
    expect((await fetchFeed(url)).status).toBe(404);
  });

  it("lists a member's course progress for the account page", async () => {
    const course = '/api/content/courses/ai-automation-playbook/progress';
    const put = (lessonId: string, completed?: boolean) =>
      t.app.request(course, {
        method: 'PUT',
        headers: { authorization: `Bearer ${tokens.premium}`, 'content-type': 'application/json' },
        body: JSON.stringify({ lessonId, ...(completed === undefined ? {} : { completed }) }),
      });
    expect((await put('process-mapping', true)).status).toBe(200);
    const last = (await (await put('roi-modeling')).json()) as ProgressAnswer;
    expect(last).toMatchObject({ completed: ['process-mapping'], lastLessonId: 'roi-modeling', courseSlug: 'ai-automation-playbook' });
    const list = (await (await api('premium', '/api/users/me/progress')).json()) as MyProgressAnswer;
    expect(list.courses).toEqual([
      expect.objectContaining({
        courseSlug: 'ai-automation-playbook',
        title: 'The AI Automation Playbook',
        total: last.total,
        completed: ['process-mapping'],
      }),
    ]);
    const exported = (await (await api('premium', '/api/users/me/export')).json()) as ExportAnswer;
    expect(exported.courseProgress.courses).toEqual([expect.objectContaining({ courseSlug: 'ai-automation-playbook' })]);
    expect(exported.courseProgress.completedLessons).toEqual([expect.objectContaining({ lessonId: 'process-mapping' })]);
    expect((await (await put('process-mapping', false)).json()) as ProgressAnswer).toMatchObject({ completed: [] });
    // Another member sees nothing of it.
    expect(((await (await api('subscriber', '/api/users/me/progress')).json()) as MyProgressAnswer).courses).toEqual([]);
  });
});
