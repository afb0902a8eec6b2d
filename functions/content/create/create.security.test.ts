/**
 * The creator API's role table and rules, on both databases: create, change and delete for every
 * content type x {anonymous, free, subscriber, premium, editor, another editor, admin}; editors
 * change (and unpublish) only what they wrote; git items and unknown ids are 404; bad input is a 422 that writes
 * nothing; slugs stay unique; a Markdown body with script renders without it; a created item is in
 * its list and at its URL at once. Events: local time and zone in, UTC kept, read back as written,
 * gated links never public, null removes a field, bad zones and dates refused.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../tests/support/app.ts';
import type { Api, Answer, EditableAnswer, ErrorAnswer, WrittenAnswer } from '../../../tests/support/answers.ts';
import { DATABASE_KINDS } from '../../../tests/support/databases.ts';
import { rowCounts } from '../../../tests/support/db-snapshot.ts';
import { makeBlogInput, makeCourseInput, makeEventInput, makeMarketInput, makeToolInput } from '../../../tests/support/fixtures.ts';
import type { AccessLevel, Role } from '#shared/access.ts';
import { CONTENT_TYPE_INFO, CONTENT_TYPES, type ContentType, type PublicItem } from '#shared/content/registry.ts';

const PASSWORD = 'creator table pass';
type Caller = 'anonymous' | 'free' | 'subscriber' | 'premium' | 'editor' | 'other-editor' | 'admin';
type SignedIn = Exclude<Caller, 'anonymous'>;
const ACCOUNTS: Record<SignedIn, { role: Role; accessLevel: AccessLevel }> = {
  free: { role: 'member', accessLevel: 'free' },
  subscriber: { role: 'member', accessLevel: 'subscriber' },
  premium: { role: 'member', accessLevel: 'premium' },
  editor: { role: 'editor', accessLevel: 'premium' },
  'other-editor': { role: 'editor', accessLevel: 'premium' },
  admin: { role: 'admin', accessLevel: 'premium' },
};
const CALLERS: Caller[] = ['anonymous', ...(Object.keys(ACCOUNTS) as SignedIn[])];
const INPUTS: Record<ContentType, () => Record<string, unknown>> = {
  blog: makeBlogInput,
  course: makeCourseInput,
  tool: makeToolInput,
  market: makeMarketInput,
  event: makeEventInput,
};

describe.each(DATABASE_KINDS)('creator API on %s', (kind) => {
  let t: TestApp;
  const tokens = {} as Record<SignedIn, string>;

  beforeAll(async () => {
    t = await createTestApp(kind, undefined, { AUTH_BCRYPT_COST: '4', DOWNLOAD_HOSTS: 'files.example.com' });
    for (const who of Object.keys(ACCOUNTS) as SignedIn[]) {
      const email = `${who}-${kind}@creator.test`;
      const id = await t.services.auth.createConfirmedUser(email, PASSWORD, `The ${who}`);
      await t.services.users.assign(id, ACCOUNTS[who].role, ACCOUNTS[who].accessLevel);
      tokens[who] = (await t.services.auth.signInWithPassword({ email, password: PASSWORD })).access_token;
    }
  });
  afterAll(() => t?.close());

  function call(who: Caller, method: string, path: string, body?: unknown) {
    const headers: Record<string, string> = {};
    if (who !== 'anonymous') headers.authorization = `Bearer ${tokens[who]}`;
    if (body !== undefined) headers['content-type'] = 'application/json';
    return t.app.request(`/api/content${path}`, { method, headers, ...(body !== undefined ? { body: JSON.stringify(body) } : {}) });
  }

  const segment = (type: ContentType) => `/${CONTENT_TYPE_INFO[type].apiSegment}`;

  async function created(who: SignedIn, type: ContentType, input = INPUTS[type]()) {
    const res = await call(who, 'POST', segment(type), input);
    expect(res.status, await res.clone().text()).toBe(201);
    return (await res.json()) as WrittenAnswer;
  }

  describe.each(CONTENT_TYPES)('%s', (type) => {
    it('create: editors and admins 201, members 403, visitors 401, nothing written when refused', async () => {
      for (const who of CALLERS) {
        const before = await rowCounts(t.database.db);
        const res = await call(who, 'POST', segment(type), INPUTS[type]());
        const want = who === 'anonymous' ? 401 : ACCOUNTS[who].role === 'member' ? 403 : 201;
        expect(res.status, who).toBe(want);
        if (want !== 201) expect(await rowCounts(t.database.db), who).toEqual(before);
      }
    });

    it('unpublish and publish: the author and admins; others refused and the item stays public', async () => {
      const mine = await created('editor', type);
      const publicStatus = async () => (await t.app.request(`/api/public${segment(type)}/${mine.item.slug}`)).status;
      for (const who of CALLERS) {
        const allowed = who === 'editor' || who === 'admin';
        const res = await call(who, 'PATCH', `${segment(type)}/${mine.item.id}`, { published: false });
        expect(res.status, who).toBe(allowed ? 200 : who === 'anonymous' ? 401 : 403);
        expect(await publicStatus(), who).toBe(allowed ? 404 : 200);
        if (allowed) {
          const read = (await (await call(who, 'GET', `${segment(type)}/${mine.item.id}`)).json()) as EditableAnswer;
          expect(read.published, who).toBe(false);
          expect((await call(who, 'PATCH', `${segment(type)}/${mine.item.id}`, { published: true })).status, who).toBe(200);
          expect(await publicStatus(), who).toBe(200);
        }
      }
      const bad = await call('admin', 'PATCH', `${segment(type)}/${mine.item.id}`, { published: 'no' });
      expect(bad.status).toBe(422);
      expect(await publicStatus()).toBe(200);
    });

    it('change and delete: the author and admins; other editors 403; members 403; visitors 401', async () => {
      const mine = await created('editor', type);
      const expectChange: Record<Caller, number> = {
        anonymous: 401,
        free: 403,
        subscriber: 403,
        premium: 403,
        editor: 200,
        'other-editor': 403,
        admin: 200,
      };
      for (const who of CALLERS) {
        const read = await call(who, 'GET', `${segment(type)}/${mine.item.id}`);
        expect(read.status, `read by ${who}`).toBe(expectChange[who]);
        const res = await call(who, 'PATCH', `${segment(type)}/${mine.item.id}`, { title: `Changed by ${who}` });
        expect(res.status, who).toBe(expectChange[who]);
      }
      for (const who of CALLERS.filter((w) => w !== 'editor' && w !== 'admin')) {
        expect((await call(who, 'DELETE', `${segment(type)}/${mine.item.id}`)).status, who).toBe(expectChange[who]);
      }
      expect((await call('editor', 'DELETE', `${segment(type)}/${mine.item.id}`)).status).toBe(204);
      expect((await call('admin', 'DELETE', `${segment(type)}/${mine.item.id}`)).status).toBe(404);
      const another = await created('other-editor', type);
      expect((await call('admin', 'DELETE', `${segment(type)}/${another.item.id}`)).status).toBe(204);
    });
  });

  it('refuses bad input with 422 and the field, writing nothing', async () => {
    const cases: [string, Record<string, unknown>, string][] = [
      ['a short title', makeBlogInput({ title: 'ab' }), 'title'],
      ['a short description', makeBlogInput({ description: 'too short' }), 'description'],
      ['an unknown level', makeBlogInput({ accessLevel: 'gold' }), 'accessLevel'],
      ['a control character in the title', makeBlogInput({ title: 'Hello\u0007 there' }), 'title'],
      ['a line break in a tag', makeBlogInput({ tags: ['one\ntwo'] }), 'tags.0'],
      ['a control character in the body', makeBlogInput({ content: 'Body \u0000 here' }), 'content'],
      ['a bad slug', makeBlogInput({ slug: '../etc/passwd' }), 'slug'],
      ['a field blogs do not have', makeBlogInput({ price: 5 }), 'price'],
      ['a script media URL', makeBlogInput({ media: [{ url: 'javascript:alert(1)', type: 'image' }] }), 'media.0.url'],
    ];
    for (const [label, body, field] of cases) {
      const before = await rowCounts(t.database.db);
      const res = await call('editor', 'POST', '/blogs', body);
      expect(res.status, label).toBe(422);
      const { error } = (await res.json()) as ErrorAnswer;
      expect(Object.keys(error.fields!), label).toContain(field);
      expect(await rowCounts(t.database.db), label).toEqual(before);
    }
    const short = (await (await call('editor', 'POST', '/blogs', makeBlogInput({ title: 'ab' }))).json()) as ErrorAnswer;
    expect(short.error.fields!.title).toEqual(['Title must be at least 3 characters']);
  });

  it('refuses outside download links whose host is not on DOWNLOAD_HOSTS with 422 naming the field, writing nothing', async () => {
    const lesson = (url: string) =>
      makeCourseInput({
        sections: [{ id: 'start', title: 'Start', lessons: [{ id: 'first', title: 'First', downloadables: [{ name: 'Workbook', url }] }] }],
      });
    const cases: [string, ContentType, Record<string, unknown>, string][] = [
      ['a tool file elsewhere', 'tool', makeToolInput({ downloadUrl: 'https://evil.example/kit.zip' }), 'downloadUrl'],
      [
        'a market file elsewhere',
        'market',
        makeMarketInput({ downloadUrl: 'https://files.example.com.evil.example/kit.zip' }),
        'downloadUrl',
      ],
      [
        'credentials before the host',
        'tool',
        makeToolInput({ downloadUrl: 'https://files.example.com@evil.example/kit.zip' }),
        'downloadUrl',
      ],
      ['a backslash trick', 'tool', makeToolInput({ downloadUrl: 'https://evil.example\\@files.example.com/kit.zip' }), 'downloadUrl'],
      ['a lesson file elsewhere', 'course', lesson('https://evil.example/workbook.pdf'), 'sections.0.lessons.0.downloadables.0.url'],
    ];
    for (const [label, type, body, field] of cases) {
      const before = await rowCounts(t.database.db);
      const res = await call('editor', 'POST', segment(type), body);
      expect(res.status, label).toBe(422);
      const { error } = (await res.json()) as ErrorAnswer;
      expect(Object.keys(error.fields!), label).toEqual([field]);
      expect(error.fields![field]![0], label).toContain('DOWNLOAD_HOSTS');
      expect(await rowCounts(t.database.db), label).toEqual(before);
    }
    // A listed host (any case) and file keys are fine; a change to an unlisted host is refused too.
    const tool = await created('editor', 'tool', makeToolInput({ downloadUrl: 'https://FILES.example.com/kit.zip' }));
    await created('editor', 'course', lesson('https://files.example.com/workbook.pdf'));
    const changed = await call('editor', 'PATCH', `/tools/${tool.item.id}`, { downloadUrl: 'https://evil.example/kit.zip' });
    expect(changed.status).toBe(422);
    expect(Object.keys(((await changed.json()) as ErrorAnswer).error.fields!)).toEqual(['downloadUrl']);
    expect((await call('editor', 'PATCH', `/tools/${tool.item.id}`, { downloadUrl: 'downloads/kit.zip' })).status).toBe(200);
  });

  it('reads an item back as its form holds it, and that input saves unchanged', async () => {
    const input = makeCourseInput({ price: 49, tags: ['One', 'Two'] });
    const mine = await created('editor', 'course', input);
    const res = await call('editor', 'GET', `/courses/${mine.item.id}`);
    const { input: back } = (await res.json()) as EditableAnswer;
    expect(back).toMatchObject({
      title: input.title,
      description: input.description,
      tags: ['One', 'Two'],
      price: 49,
      sections: input.sections,
    });
    expect(back).not.toHaveProperty('contentFormat');
    expect((await call('editor', 'PATCH', `/courses/${mine.item.id}`, back)).status).toBe(200);
    expect((await call('editor', 'GET', '/courses/not-a-uuid')).status).toBe(404);
  });

  it('an event: written in local time and its zone, kept as UTC, read back as written; its join URL and recording stay private', async () => {
    const input = makeEventInput({
      // Skipped when London's clocks go forward that night: moved on by the gap, 02:30 BST, which is 01:30 UTC.
      startsAt: '2027-03-28T01:30',
      timeZone: 'Europe/London',
      capacity: 12,
      joinUrl: 'https://meet.events.example/private-EVENT-SECRET-41c2',
      recordingUrl: 'https://video.events.example/private-EVENT-SECRET-41c2',
    });
    const mine = await created('editor', 'event', input);
    expect(mine.path).toBe(`/events/${mine.item.slug}`);
    const { input: back } = (await (await call('editor', 'GET', `/events/${mine.item.id}`)).json()) as EditableAnswer;
    expect(back).toMatchObject({ startsAt: '2027-03-28T01:30', timeZone: 'Europe/London', capacity: 12, format: 'online' });
    expect((await call('editor', 'PATCH', `/events/${mine.item.id}`, back)).status).toBe(200);
    const detail = await (await t.app.request(`/api/public/events/${mine.item.slug}`)).text();
    const list = await (await t.app.request('/api/public/events')).text();
    for (const answer of [detail, list]) expect(answer).not.toContain('EVENT-SECRET-41c2');
    expect(JSON.parse(detail)).toMatchObject({ startsAt: '2027-03-28T01:30:00.000Z', localStart: '2027-03-28T01:30', hasRecording: true });
    expect(JSON.parse(detail).bodyHtml).toContain('What the event is about.');

    // A later local time in a summer-time zone; null removes the capacity and the recording; cancelling is a change.
    const moved = await call('editor', 'PATCH', `/events/${mine.item.id}`, {
      startsAt: '2027-07-01T18:00',
      timeZone: 'America/New_York',
      capacity: null,
      recordingUrl: null,
      cancelled: true,
    });
    expect(moved.status, await moved.clone().text()).toBe(200);
    const after = (await (await t.app.request(`/api/public/events/${mine.item.slug}`)).json()) as Record<string, unknown>;
    expect(after).toMatchObject({ startsAt: '2027-07-01T22:00:00.000Z', timeZone: 'America/New_York', cancelled: true });
    expect(after).not.toHaveProperty('capacity');
    expect(after.hasRecording).toBe(false);
  });

  it('refuses bad event input with 422 and the field, writing nothing', async () => {
    const cases: [string, Record<string, unknown>, string][] = [
      ['an unknown time zone', makeEventInput({ timeZone: 'Mars/Olympus_Mons' }), 'timeZone'],
      ['a time zone that is a path', makeEventInput({ timeZone: '../../etc/passwd' }), 'timeZone'],
      ['a day that does not exist', makeEventInput({ startsAt: '2027-02-30T10:00' }), 'startsAt'],
      ['a date far away', makeEventInput({ startsAt: '9999-01-01T10:00' }), 'startsAt'],
      ['a time with seconds and a zone', makeEventInput({ startsAt: '2027-05-12T15:00:00Z' }), 'startsAt'],
      ['an online event without its link', makeEventInput({ joinUrl: undefined }), 'joinUrl'],
      ['an in-person event without its address', makeEventInput({ format: 'in-person', joinUrl: undefined }), 'address'],
      ['a join link that is not https', makeEventInput({ joinUrl: 'javascript:alert(1)' }), 'joinUrl'],
      ['a duration of a week', makeEventInput({ durationMinutes: 7 * 24 * 60 }), 'durationMinutes'],
      ['no seats', makeEventInput({ capacity: 0 }), 'capacity'],
      ['HTML in the address', makeEventInput({ format: 'in-person', address: '<b>Here</b>\n<script>' }), 'address'],
    ];
    for (const [label, body, field] of cases) {
      const before = await rowCounts(t.database.db);
      const res = await call('editor', 'POST', '/events', body);
      expect(res.status, label).toBe(422);
      const { error } = (await res.json()) as ErrorAnswer;
      expect(Object.keys(error.fields!), label).toContain(field);
      expect(await rowCounts(t.database.db), label).toEqual(before);
    }
  });

  it('a change names only fields of the type, and is checked as a whole item', async () => {
    const blog = await created('editor', 'blog');
    const path = `/blogs/${blog.item.id}`;
    expect((await call('editor', 'PATCH', path, { email: 'not@a.field' })).status).toBe(422);
    expect((await call('editor', 'PATCH', path, { title: 'no' })).status).toBe(422);
    const res = await call('editor', 'PATCH', path, { title: 'A better title', accessLevel: 'premium' });
    expect(await res.json()).toMatchObject({ item: { title: 'A better title', accessLevel: 'premium', slug: blog.item.slug } });
  });

  it('the admin content catalog lists both sources: git items with their file, database items with their author', async () => {
    const mine = await created('editor', 'tool');
    const res = await t.app.request('/api/admin/content', { headers: { authorization: `Bearer ${tokens.admin}` } });
    const { items } = (await res.json()) as Answer<Api['admin']['content']['$get']>;
    const git = items.find((i) => i.type === 'blog' && i.slug === 'ai-content-workflow-guardrails')!;
    expect(git).toMatchObject({
      source: 'mdx',
      file: 'content/blog/ai-content-workflow-guardrails.mdx',
      path: '/blog/ai-content-workflow-guardrails',
    });
    const db = items.find((i) => i.id === mine.item.id)!;
    expect(db).toMatchObject({ type: 'tool', source: 'db', file: null, path: mine.path });
    expect(db.createdBy).toEqual(expect.any(String));
    expect(new Set(items.map((i) => i.type))).toEqual(new Set(CONTENT_TYPES));
    expect((await t.app.request('/api/admin/content', { headers: { authorization: `Bearer ${tokens.editor}` } })).status).toBe(403);
  });

  it('404 for git items, unknown and malformed ids, and an id of another type', async () => {
    const blog = await created('admin', 'blog');
    for (const path of [
      '/blogs/ai-content-workflow-guardrails',
      '/blogs/00000000-0000-4000-8000-000000000000',
      '/blogs/1%20OR%201',
      `/tools/${blog.item.id}`,
    ]) {
      expect((await call('admin', 'PATCH', path, { title: 'Nope, not this one' })).status, path).toBe(404);
      expect((await call('admin', 'DELETE', path)).status, path).toBe(404);
    }
  });

  it('keeps slugs unique, and a created article is in its list and at its URL at once, script-free', async () => {
    const title = `Fresh from the editor ${kind}`;
    const first = await created(
      'editor',
      'blog',
      makeBlogInput({ title, content: 'Hello <script>alert(1)</script> **world** <img src=x onerror=alert(2)>' }),
    );
    const second = await created('editor', 'blog', makeBlogInput({ title }));
    expect(second.item.slug).not.toBe(first.item.slug);
    expect(first.path).toBe(`/blog/${first.item.slug}`);
    expect((await call('editor', 'POST', '/blogs', makeBlogInput({ slug: first.item.slug }))).status).toBe(409);

    const list = (await (await t.app.request('/api/public/blogs')).json()) as PublicItem[];
    expect(list.map((i) => i.slug)).toContain(first.item.slug);
    expect((await t.app.request(`/api/public/blogs/${first.item.slug}`)).status).toBe(200);
    const body = await (await call('editor', 'GET', `/blogs/${first.item.slug}/body`)).text();
    expect(body).toContain('<strong>world</strong>');
    expect(body).not.toMatch(/<script|onerror/i);
  });
});
