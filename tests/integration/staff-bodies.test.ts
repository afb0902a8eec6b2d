/**
 * Staff bodies (articles, events, lessons, newsletter issues) are parsed on the staff renderer's
 * thread, never the server's (issue 32, item 5). The compiler is made to refuse, on the server's
 * thread, any text carrying this suite's mark, so every place that would still render a staff body
 * there (saving an issue, its preview, test copy and send, the archive, an article's and an event's
 * first render, an article's body, a lesson) answers 422 instead of the rendered mark. The shapes the
 * community's limits catch are refused at save with a 422 naming the field, in issues and in the
 * creator tools alike; a body stored before the limits is refused by the renderer's time limit (the
 * preview says why) while the server keeps answering.
 */
import { randomUUID } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { contentItems } from '../../functions/content/tables.ts';
import { newsletterIssues } from '../../functions/newsletter/tables.ts';
import type { ErrorAnswer, WrittenAnswer } from '../support/answers.ts';
import { callerOf, createTestApp, type TestApp } from '../support/app.ts';
import { makeBlogInput, makeCourseInput, makeEventInput } from '../support/fixtures.ts';

/** In every staff body of this suite: the server's thread refuses to compile a text that carries it. */
const MARK = 'STAFF-BODY-MARK-7e3a';

vi.mock('@mdx-js/mdx', async (importOriginal) => {
  const real = await importOriginal<typeof import('@mdx-js/mdx')>();
  return {
    ...real,
    evaluateSync: (...args: Parameters<typeof real.evaluateSync>) => {
      if (String(args[0]).includes('STAFF-BODY-MARK-7e3a')) throw new Error('A staff body was rendered on the server’s thread.');
      return real.evaluateSync(...args);
    },
  };
});

const PASSWORD = 'staff bodies pass';
/** Images nested 4,000 deep: 15.5 s of the server's thread when staff bodies rendered there. */
const NESTED_IMAGES = `${'!['.repeat(4000)}x${'](a)'.repeat(4000)}`;
/** The shapes the community's limits catch, each refused at save with the limit's own words. */
const PATHOLOGICAL: [string, string, string][] = [
  ['4,000 nested images', NESTED_IMAGES, 'Links and images may be nested at most 16 levels deep'],
  ['nested emphasis', `${'*a '.repeat(2000)}x${' a*'.repeat(2000)}`, 'Use at most 500 * and _ characters in one paragraph'],
  ['400,000 table cells', `|${'a|'.repeat(100)}\n|${'-|'.repeat(100)}\n${'|\n'.repeat(4000)}`, 'Tables may have at most 5,000 cells'],
  ['5,000 underlines', 'a\n-\n'.repeat(5000), 'Use at most 100 lines of only = or -'],
];

describe('staff bodies', () => {
  let t: TestApp;
  const tokens: Record<string, string> = {};

  beforeAll(async () => {
    // A short time limit, so a body the limits would refuse is refused by the renderer in a second.
    t = await createTestApp('pglite', undefined, { AUTH_BCRYPT_COST: '4' }, { staffRenderer: { timeoutMs: 1_000 } });
    for (const [who, role] of [
      ['editor', 'editor'],
      ['reader', 'member'],
    ] as const) {
      const email = `${who}@staff-bodies.test`;
      const id = await t.services.auth.createConfirmedUser(email, PASSWORD, who);
      await t.services.users.assign(id, role, 'premium');
      tokens[who] = (await t.services.auth.signInWithPassword({ email, password: PASSWORD })).access_token;
    }
  });
  afterAll(() => t?.close());

  const api = callerOf(() => t.app, tokens);
  const ok = async <T>(res: Response | Promise<Response>, status = 200): Promise<T> => {
    const answer = await res;
    const text = await answer.text();
    expect(answer.status, text).toBe(status);
    return JSON.parse(text) as T;
  };
  const issueInput = (body: string) => ({
    subject: `Notes ${randomUUID().slice(0, 6)}`,
    previewText: '',
    body,
    accessLevel: 'premium',
    audience: ['premium'],
  });
  /** A text that has two parts, each carrying the mark (the public part renders apart from the whole). */
  const marked = (what: string) => `${what} opens **${MARK}**.\n\n<!-- preview -->\n\nThe rest of the ${what}: ${MARK}.`;

  it('renders an issue’s save, preview, test copy, send and archive off the server’s thread', async () => {
    const { id } = await ok<{ id: string }>(api('editor', '/api/admin/newsletter/issues', 'POST', issueInput(marked('issue'))), 201);
    await ok(api('editor', `/api/admin/newsletter/issues/${id}`, 'PUT', issueInput(marked('changed issue'))));
    const preview = await ok<{ html: string }>(api('editor', `/api/admin/newsletter/issues/${id}/preview?level=premium`));
    expect(preview.html).toContain(`<strong>${MARK}</strong>`);
    await ok(api('editor', `/api/admin/newsletter/issues/${id}/test`, 'POST', { level: 'free' }), 202);
    await ok(api('editor', `/api/admin/newsletter/issues/${id}/send`, 'POST'), 202);
    const [sent] = await t.database.db.select().from(newsletterIssues).where(eq(newsletterIssues.id, id));
    const page = await t.services.newsletterArchive.reader.page(sent!.slug);
    expect(page?.publicHtml).toContain(MARK);
    const body = await ok<{ html: string }>(api('reader', `/api/newsletter/issues/${sent!.slug}/body`));
    expect(body.html).toContain(`The rest of the changed issue: ${MARK}`);
  });

  it('renders an article’s and an event’s first render, the article’s body and a lesson off the server’s thread', async () => {
    const written = async (segment: string, input: unknown) =>
      (await ok<WrittenAnswer>(api('editor', `/api/content/${segment}`, 'POST', input), 201)).item;
    const article = await written('blogs', makeBlogInput({ content: marked('article') }));
    const event = await written('events', makeEventInput({ content: marked('event') }));
    const lessons = [{ id: 'first', title: 'First lesson', content: marked('lesson'), media: [], downloadables: [] }];
    const course = await written('courses', makeCourseInput({ sections: [{ id: 'start', title: 'Start', lessons }] }));
    expect((await ok<{ previewHtml: string }>(api(undefined, `/api/public/blogs/${article.slug}`))).previewHtml).toContain(MARK);
    expect((await ok<{ bodyHtml: string }>(api(undefined, `/api/public/events/${event.slug}`))).bodyHtml).toContain(
      `The rest of the event`,
    );
    expect((await ok<{ html: string }>(api('reader', `/api/content/blogs/${article.slug}/body`))).html).toContain(
      'The rest of the article',
    );
    const lesson = await ok<{ content: string }>(api('reader', `/api/content/courses/${course.slug}/lessons/first`));
    expect(lesson.content).toContain('The rest of the lesson');
  });

  it.each(PATHOLOGICAL)('refuses %s at save with a 422 naming the field, in issues and in the creator tools', async (_, body, message) => {
    const expectRefused = async (res: Response | Promise<Response>, field: string) => {
      const answer = await res;
      expect(answer.status).toBe(422);
      const { error } = (await answer.json()) as ErrorAnswer;
      expect(error.fields?.[field]?.join(' ')).toContain(message);
    };
    await expectRefused(api('editor', '/api/admin/newsletter/issues', 'POST', issueInput(body)), 'body');
    await expectRefused(api('editor', '/api/content/blogs', 'POST', makeBlogInput({ content: body })), 'content');
    await expectRefused(api('editor', '/api/content/events', 'POST', makeEventInput({ content: body })), 'content');
    const lessons = [{ id: 'first', title: 'First lesson', content: body, media: [], downloadables: [] }];
    const course = makeCourseInput({ sections: [{ id: 'start', title: 'Start', lessons }] });
    await expectRefused(api('editor', '/api/content/courses', 'POST', course), 'sections.0.lessons.0.content');
  });

  it('refuses a body stored before the limits when it renders too long, and says why, while the server keeps answering', async () => {
    const [stored] = await t.database.db
      .insert(newsletterIssues)
      .values({ slug: `stored-${randomUUID().slice(0, 8)}`, subject: 'Stored', body: NESTED_IMAGES, audience: ['premium'] })
      .returning();
    const preview = api('editor', `/api/admin/newsletter/issues/${stored!.id}/preview?level=premium`);
    // While the body is parsed on the renderer's thread, the server's answers other requests.
    expect((await t.app.request('/readyz')).status).toBe(200);
    const refused = await preview;
    expect(refused.status).toBe(422);
    const { error } = (await refused.json()) as ErrorAnswer;
    expect(error.fields).toEqual({ body: ['This text is too complex to display. Please simplify its formatting.'] });

    // An event written before the limits: its first render is refused the same way, and nothing is kept.
    const { item: event } = await ok<WrittenAnswer>(api('editor', '/api/content/events', 'POST', makeEventInput()), 201);
    await t.database.db
      .update(contentItems)
      .set({ details: sql`jsonb_set(${contentItems.details}, '{content}', to_jsonb(${NESTED_IMAGES}::text))` })
      .where(eq(contentItems.id, event.id));
    t.contentCache.clear();
    const first = api(undefined, `/api/public/events/${event.slug}`);
    expect((await t.app.request('/readyz')).status).toBe(200);
    expect((await first).status).toBe(422);
  });
});
