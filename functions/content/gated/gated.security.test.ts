/**
 * The gated API's role table: each gated endpoint x every kind of caller (anonymous, each access
 * level, each staff role) x every item level, with the exact status each gets, on both databases;
 * plus items sold on their own (a price at the free level: buyers and staff only, whatever the plan),
 * signed links (expired, tampered, one file's link opening another), privacy of the answers
 * (never from a shared cache, never to a second viewer), bad tokens and bad input.
 */
import { SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ACCESS_LEVELS, checkAccess, type AccessLevel, type Role } from '#shared/access.ts';
import type { PublicItemOf } from '#shared/content/registry.ts';
import { createTestApp, type TestApp } from '../../../tests/support/app.ts';
import type { Api, Answer, ErrorAnswer } from '../../../tests/support/answers.ts';
import { DATABASE_KINDS } from '../../../tests/support/databases.ts';
import { makeCourseInput } from '../../../tests/support/fixtures.ts';
import { purchases } from '../../payments/tables.ts';
import { badTokens } from '../../../tests/support/tokens.ts';

const PASSWORD = 'gated table pass';
type Caller = 'anonymous' | 'free' | 'subscriber' | 'premium' | 'editor' | 'admin';
type ProgressAnswer = Answer<Api['progress']['courses'][':slug']['progress']['$get']>;
const CALLERS: Caller[] = ['anonymous', 'free', 'subscriber', 'premium', 'editor', 'admin'];
const ACCOUNTS: Record<Exclude<Caller, 'anonymous'>, { role: Role; accessLevel: AccessLevel }> = {
  free: { role: 'member', accessLevel: 'free' },
  subscriber: { role: 'member', accessLevel: 'subscriber' },
  premium: { role: 'member', accessLevel: 'premium' },
  // Staff read at premium whatever their profile's level says.
  editor: { role: 'editor', accessLevel: 'free' },
  admin: { role: 'admin', accessLevel: 'free' },
};

/** One MDX item per level and kind, from content/ (see the level table in each file). */
const ITEMS = {
  blog: {
    free: 'local-seo-playbook-baltimore',
    subscriber: 'chatbot-lead-qualification-design',
    premium: 'ecommerce-launch-first-90-days',
  },
  course: {
    free: ['seo-foundations-small-business', 'keyword-research-basics'],
    subscriber: ['social-media-growth-system', 'content-pillars'],
    premium: ['ai-automation-playbook', 'process-mapping'],
  },
  tool: { free: 'seo-audit-checklist', subscriber: 'local-seo-citation-tracker', premium: 'chatbot-conversation-script-kit' },
  market: { free: 'brand-voice-worksheet', subscriber: 'seo-content-brief-templates', premium: 'website-wireframe-kit' },
} as const;

/** What the one access rule says each caller gets for an item of `level`. */
function expected(who: Caller, level: AccessLevel): number {
  if (who === 'anonymous') return 401;
  return checkAccess(ACCOUNTS[who], level).allowed ? 200 : 403;
}

describe.each(DATABASE_KINDS)('gated content API on %s', (kind) => {
  let t: TestApp;
  const tokens = {} as Record<Exclude<Caller, 'anonymous'>, string>;

  beforeAll(async () => {
    t = await createTestApp(kind, undefined, { AUTH_BCRYPT_COST: '4' });
    for (const who of CALLERS) {
      if (who === 'anonymous') continue;
      const email = `${who}-${kind}@gated.test`;
      const id = await t.services.auth.createConfirmedUser(email, PASSWORD, `The ${who}`);
      await t.services.users.assign(id, ACCOUNTS[who].role, ACCOUNTS[who].accessLevel);
      tokens[who] = (await t.services.auth.signInWithPassword({ email, password: PASSWORD })).access_token;
    }
    // The course slugs and lesson ids used below exist.
    for (const level of ACCESS_LEVELS) {
      const [slug, lessonId] = ITEMS.course[level];
      const course = await t.content.get('course', slug);
      expect(course?.accessLevel, slug).toBe(level);
      expect(course?.sections.flatMap((s) => s.lessons.map((l) => l.id))).toContain(lessonId);
      for (const type of ['blog', 'tool', 'market'] as const)
        expect((await t.content.get(type, ITEMS[type][level]))?.accessLevel).toBe(level);
    }
  });
  afterAll(() => t?.close());

  function call(who: Caller | { token: string }, path: string, init: { method?: string; body?: unknown } = {}) {
    const headers: Record<string, string> = {};
    const token = typeof who === 'object' ? who.token : who === 'anonymous' ? undefined : tokens[who];
    if (token) headers.authorization = `Bearer ${token}`;
    if (init.body !== undefined) headers['content-type'] = 'application/json';
    return t.app.request(path, {
      method: init.method ?? 'GET',
      headers,
      ...(init.body !== undefined ? { body: JSON.stringify(init.body) } : {}),
    });
  }

  const ENDPOINTS: { label: string; path: (level: AccessLevel) => string; method?: string; body?: (level: AccessLevel) => unknown }[] = [
    { label: 'article body', path: (l) => `/api/content/blogs/${ITEMS.blog[l]}/body` },
    { label: 'lesson', path: (l) => `/api/content/courses/${ITEMS.course[l][0]}/lessons/${ITEMS.course[l][1]}` },
    { label: 'lesson download', path: (l) => `/api/content/courses/${ITEMS.course[l][0]}/lessons/${ITEMS.course[l][1]}/downloads/0` },
    { label: 'course progress', path: (l) => `/api/content/courses/${ITEMS.course[l][0]}/progress` },
    {
      label: 'course progress write',
      method: 'PUT',
      path: (l) => `/api/content/courses/${ITEMS.course[l][0]}/progress`,
      body: (l) => ({ lessonId: ITEMS.course[l][1], completed: true }),
    },
    { label: 'tool download', path: (l) => `/api/content/tools/${ITEMS.tool[l]}/download` },
    { label: 'market download', path: (l) => `/api/content/market/${ITEMS.market[l]}/download` },
  ];

  describe.each(ENDPOINTS)('$label', ({ path, method, body }) => {
    it.each(ACCESS_LEVELS)('answers each caller as the access rule says for a %s item', async (level) => {
      const got: Record<string, number> = {};
      const want: Record<string, number> = {};
      for (const who of CALLERS) {
        const res = await call(who, path(level), { method, body: body?.(level) });
        got[who] = res.status;
        want[who] = expected(who, level);
        expect(res.headers.get('cache-control'), `${who} ${path(level)}`).toMatch(/private|no-store/);
        expect(res.headers.get('vary') ?? '', `${who} ${path(level)}`).toMatch(/authorization/i);
        if (res.status === 403) {
          const error = ((await res.json()) as ErrorAnswer).error;
          expect(error).toMatchObject({ code: 'forbidden', requiredLevel: level });
        }
        if (res.status === 401) expect(res.headers.get('www-authenticate')).toBe('Bearer');
      }
      expect(got).toEqual(want);
    });

    it('answers 401 to a visitor and 404 to a member for unknown items', async () => {
      const unknown = path('free').replace(/(content\/\w+\/)[a-z0-9-]+/, '$1no-such-item');
      expect((await call('anonymous', unknown, { method, body: body?.('free') })).status).toBe(401);
      expect((await call('premium', unknown, { method, body: body?.('free') })).status).toBe(404);
    });

    it('answers 401 to every kind of bad token', async () => {
      const bad = await badTokens(t.database.db, tokens.premium, crypto.randomUUID());
      for (const [label, token] of Object.entries(bad)) {
        const res = await call({ token }, path('free'), { method, body: body?.('free') });
        expect(res.status, label).toBe(401);
      }
    });
  });

  it('answers 404 for unknown lessons, files, types and malformed ids', async () => {
    const [slug, lesson] = ITEMS.course.premium;
    for (const path of [
      `/api/content/courses/${slug}/lessons/no-such-lesson`,
      `/api/content/courses/${slug}/lessons/${lesson}/downloads/99`,
      `/api/content/courses/${slug}/lessons/${lesson}/downloads/-1`,
      `/api/content/courses/${slug}/lessons/${lesson}/downloads/x`,
      `/api/content/courses/${slug}/lessons/BAD%20ID`,
      `/api/content/widgets/${slug}/body`,
      `/api/content/courses/${slug}/body`,
      `/api/content/blogs/${ITEMS.blog.premium}/download`,
      `/api/content/blogs/UPPER/body`,
    ]) {
      const res = await call('premium', path);
      expect(res.status, path).toBe(404);
      expect(((await res.json()) as ErrorAnswer).error.code).toBe('not_found');
    }
  });

  // A free course the role table above does not write to.
  const UNTOUCHED = 'ecommerce-launch-bootcamp';

  it('refuses bad progress writes with 4xx and records nothing', async () => {
    const slug = UNTOUCHED;
    for (const body of [
      {},
      { lessonId: 'no-such-lesson' },
      { lessonId: 'x', completed: 'yes' },
      { lessonId: 'platform-and-catalog', extra: 1 },
      [],
      'text',
    ]) {
      const res = await call('free', `/api/content/courses/${slug}/progress`, { method: 'PUT', body });
      expect(res.status, JSON.stringify(body)).toBeGreaterThanOrEqual(400);
      expect(res.status, JSON.stringify(body)).toBeLessThan(500);
    }
    const progress = (await (await call('free', `/api/content/courses/${slug}/progress`)).json()) as ProgressAnswer;
    expect(progress.completed).toEqual([]);
  });

  it("keeps progress per member: one member cannot read or write another one's", async () => {
    const [slug, lessonId] = [UNTOUCHED, 'platform-and-catalog'];
    await call('subscriber', `/api/content/courses/${slug}/progress`, { method: 'PUT', body: { lessonId, completed: true } });
    const mine = (await (await call('subscriber', `/api/content/courses/${slug}/progress`)).json()) as ProgressAnswer;
    expect(mine.completed).toEqual([lessonId]);
    const theirs = (await (await call('premium', `/api/content/courses/${slug}/progress`)).json()) as ProgressAnswer;
    expect(theirs.completed).not.toContain(lessonId);
  });

  describe('items sold on their own (a price at the free level): the purchase rule', () => {
    // A priced course at the free level (from the database) and a priced free market item (from content/).
    const COURSE = 'gated-priced-free-course';
    const MARKET = 'social-media-content-pack';
    let buyer: string;

    beforeAll(async () => {
      await t.content.create(
        'course',
        makeCourseInput({
          slug: COURSE,
          accessLevel: 'free',
          price: 39,
          sections: [
            {
              id: 'start',
              title: 'Getting started',
              lessons: [
                {
                  id: 'first',
                  title: 'First lesson',
                  content: 'Sold, never given.',
                  media: [],
                  downloadables: [{ name: 'Checklist', url: 'downloads/website-maintenance-checklist.md' }],
                },
              ],
            },
          ],
        }),
      );
      expect(await t.content.get('market', MARKET)).toMatchObject({ accessLevel: 'free', price: 24 });
      // A member on the free level who bought both.
      const email = `buyer-${kind}@gated.test`;
      const id = await t.services.auth.createConfirmedUser(email, PASSWORD, 'The buyer');
      await t.database.db.insert(purchases).values(
        (['course', 'market'] as const).map((itemType) => ({
          userId: id,
          itemType,
          itemSlug: itemType === 'course' ? COURSE : MARKET,
          title: itemType,
          amount: 100,
          currency: 'usd',
          sessionId: `cs_gated_${kind}_${itemType}`,
        })),
      );
      buyer = (await t.services.auth.signInWithPassword({ email, password: PASSWORD })).access_token;
    });

    const SOLD: { label: string; path: string; method?: string; body?: unknown }[] = [
      { label: 'lesson', path: `/api/content/courses/${COURSE}/lessons/first` },
      { label: 'lesson download', path: `/api/content/courses/${COURSE}/lessons/first/downloads/0` },
      { label: 'course progress', path: `/api/content/courses/${COURSE}/progress` },
      {
        label: 'course progress write',
        method: 'PUT',
        path: `/api/content/courses/${COURSE}/progress`,
        body: { lessonId: 'first', completed: true },
      },
      { label: 'market download', path: `/api/content/market/${MARKET}/download` },
    ];

    it.each(SOLD)('$label opens to its buyer and staff only, never by plan', async ({ path, method, body }) => {
      const want = { anonymous: 401, free: 403, subscriber: 403, premium: 403, editor: 200, admin: 200, buyer: 200 };
      const got: Record<string, number> = {};
      for (const who of [...CALLERS, 'buyer'] as const) {
        const res = await call(who === 'buyer' ? { token: buyer } : who, path, { method, body });
        got[who] = res.status;
        expect(res.headers.get('cache-control'), `${who} ${path}`).toMatch(/private|no-store/);
        if (res.status === 403) {
          const error = ((await res.json()) as ErrorAnswer).error;
          expect(error.code).toBe('forbidden');
          expect(error.message).toMatch(/^Buy this /);
          expect(error.requiredLevel).toBeUndefined();
        }
      }
      expect(got).toEqual(want);
    });
  });

  describe('signed links', () => {
    const downloadUrl = async (who: Caller, type: 'tool' | 'market', slug: string) => {
      const res = await call(who, `/api/content/${type === 'tool' ? 'tools' : 'market'}/${slug}/download`);
      expect(res.status).toBe(200);
      const { url, expiresAt } = (await res.json()) as Answer<Api['gated']['tools'][':slug']['download']['$get']>;
      expect(Date.parse(expiresAt) - Date.now()).toBeLessThanOrEqual(600_000);
      return new URL(url);
    };
    const fetchLink = (url: URL | string, headers: Record<string, string> = {}) => {
      const u = typeof url === 'string' ? new URL(url, 'http://x') : url;
      return t.app.request(`${u.pathname}${u.search}`, { headers });
    };

    it('open the one file they name, for anyone holding them, as an attachment', async () => {
      const url = await downloadUrl('premium', 'tool', ITEMS.tool.premium);
      const res = await fetchLink(url);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-disposition')).toMatch(/^attachment; filename="chatbot-conversation-scripts.md"/);
      expect(res.headers.get('cache-control')).toBe('private, no-store');
      expect(await res.text()).toContain('PREMIUM-DOWNLOAD-SENTINEL-9d40');
    });

    it('refuse tampered tokens: a changed payload, a changed signature, another key', async () => {
      const url = await downloadUrl('premium', 'tool', ITEMS.tool.premium);
      const token = url.searchParams.get('token')!;
      const [head, payload, signature] = token.split('.') as [string, string, string];
      const other = JSON.parse(Buffer.from(payload, 'base64url').toString()) as Record<string, unknown>;
      other.key = 'downloads/website-wireframe-kit.zip';
      const forged = [
        `${head}.${Buffer.from(JSON.stringify(other)).toString('base64url')}.${signature}`,
        `${head}.${payload}.${signature.slice(0, -2)}${signature.endsWith('A') ? 'B' : 'A'}A`,
        await new SignJWT({ key: other.key as string })
          .setProtectedHeader({ alg: 'HS256' })
          .setAudience('download')
          .sign(new Uint8Array(32)),
        `${head}.${payload}.`,
      ];
      for (const bad of forged) {
        const res = await fetchLink(`/api/files/download?token=${bad}`);
        expect(res.status, bad).toBe(404);
      }
    });

    it('refuse expired tokens', async () => {
      const expired = await t.services.tokens.sign('download', { key: 'downloads/chatbot-conversation-scripts.md' }, -10);
      const res = await fetchLink(`/api/files/download?token=${expired}`);
      expect(res.status).toBe(404);
      expect(((await res.json()) as ErrorAnswer).error.message).toMatch(/expired/);
    });

    it('refuse tokens made for another purpose and keys outside the files folder', async () => {
      const feed = await t.services.tokens.sign('member-feed', { key: 'downloads/chatbot-conversation-scripts.md' });
      const escape = await t.services.tokens.sign('download', { key: '../../package.json' }, 60);
      for (const token of [feed, escape]) expect((await fetchLink(`/api/files/download?token=${token}`)).status).toBe(404);
    });

    it('serve lesson media inline, with byte ranges, only through signed links', async () => {
      const [slug, lessonId] = ['ai-automation-playbook', 'monitoring-and-iteration'];
      const lesson = (await (await call('premium', `/api/content/courses/${slug}/lessons/${lessonId}`)).json()) as Answer<
        Api['gated']['courses'][':slug']['lessons'][':lessonId']['$get']
      >;
      const pdf = lesson.media.find((m) => m.type === 'pdf')!;
      expect(pdf.url).toMatch(/\/api\/files\/download\?token=/);
      const whole = await fetchLink(pdf.url);
      expect(whole.status).toBe(200);
      expect(whole.headers.get('content-disposition')).toMatch(/^inline/);
      const bytes = Buffer.from(await whole.arrayBuffer());
      expect(bytes.toString('latin1')).toContain('PREMIUM-MEDIA-SENTINEL-3c9e');
      const part = await fetchLink(pdf.url, { range: 'bytes=0-7' });
      expect(part.status).toBe(206);
      expect(part.headers.get('content-range')).toBe(`bytes 0-7/${bytes.length}`);
      expect(Buffer.from(await part.arrayBuffer()).toString('latin1')).toBe('%PDF-1.4');
      expect((await fetchLink(pdf.url, { range: `bytes=${bytes.length}-` })).status).toBe(416);
      // Lesson media are not public files.
      expect((await t.app.request('/media/automation-runbook-template.pdf')).status).toBe(404);
    });
  });

  describe('privacy of answers', () => {
    it("never serves one viewer's answer to another, whatever the order", async () => {
      const path = `/api/content/blogs/${ITEMS.blog.premium}/body`;
      for (const who of ['premium', 'anonymous', 'free', 'premium', 'subscriber', 'admin', 'anonymous'] as const) {
        const res = await call(who, path);
        const text = await res.text();
        expect(res.status, who).toBe(expected(who, 'premium'));
        expect(text.includes('PREMIUM-SENTINEL-7f3a'), who).toBe(res.status === 200);
        expect(res.headers.get('etag'), who).toBeNull();
      }
    });

    it('keeps the body out of the public API, which carries the public preview only', async () => {
      const res = await t.app.request(`/api/public/blogs/${ITEMS.blog.premium}`);
      const item = (await res.json()) as PublicItemOf<'blog'>;
      expect(item).not.toHaveProperty('content');
      expect(item.previewHtml).toContain('Launching a store is easy.');
      expect(JSON.stringify(item)).not.toContain('PREMIUM-SENTINEL-7f3a');
      const list = await (await t.app.request('/api/public/blogs')).text();
      expect(list).not.toContain('previewHtml');
    });

    it('renders the whole article for the entitled, preview marker removed and nothing executable', async () => {
      const { html } = (await (await call('premium', `/api/content/blogs/${ITEMS.blog.premium}/body`)).json()) as Answer<
        Api['gated']['blogs'][':slug']['body']['$get']
      >;
      expect(html).toContain('Launching a store is easy.');
      expect(html).toContain('PREMIUM-SENTINEL-7f3a');
      expect(html).not.toMatch(/preview \*\/|<script|\son\w+=/i);
    });
  });
});
