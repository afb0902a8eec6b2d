/**
 * The community's pages as the real server renders them from the test build, on the demo content
 * (embedded defaults): a category anyone reads and its threads are in the HTML and the sitemap; the
 * premium lounge's pages are shells that carry none of its titles or posts (the island asks with a
 * member's token); unknown or malformed addresses answer 404, never 5xx; a thread staff hid leaves
 * the category page, its own page and the sitemap at once. Pages render per request, so one server
 * on PGlite shows them (the service's reads on both databases are community.test.ts's).
 */
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { loadConfig } from '../../functions/config.ts';
import { startServer, type RunningServer } from '../../functions/main.ts';
import { DEMO_PASSWORD } from '../../functions/users/demo.ts';
import type { ThreadListPage, ThreadPage } from '../../src/components/community/community-api.ts';
import { quietLogger } from '../support/fixtures.ts';
import { migratedDataDir } from '../support/databases.ts';

let server: RunningServer;
let base: string;
/** The demo premium member's and admin's bearer headers. */
let premium: Record<string, string>;
let admin: Record<string, string>;

async function bearerOf(email: string): Promise<Record<string, string>> {
  const res = await fetch(`${base}/auth/v1/token?grant_type=password`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email, password: DEMO_PASSWORD }),
  });
  expect(res.status, `sign-in of ${email}`).toBe(200);
  return { authorization: `Bearer ${((await res.json()) as { access_token: string }).access_token}` };
}

async function json<T>(path: string, headers: Record<string, string> = {}): Promise<T> {
  const res = await fetch(`${base}${path}`, { headers });
  expect(res.status, path).toBe(200);
  return (await res.json()) as T;
}

async function page(path: string): Promise<{ status: number; html: string; cacheControl: string | null }> {
  const res = await fetch(`${base}${path}`);
  return { status: res.status, html: await res.text(), cacheControl: res.headers.get('cache-control') };
}

/** Text as it may stand in HTML: as written, as React escapes it, and as Astro does. */
const inHtml = (text: string) => {
  const escape = (quote: string) =>
    text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, quote);
  return [text, escape('&#x27;'), escape('&#39;')];
};
const expectAbsent = (html: string, text: string, what: string) => {
  for (const form of inHtml(text)) expect(html, what).not.toContain(form);
};

const threadsOf = async (category: string, headers: Record<string, string> = {}) =>
  (await json<ThreadListPage>(`/api/community/threads?category=${category}`, headers)).items;

/** What a page must not carry of a thread: its title and the text of its posts (as rendered). */
async function secretsOf(id: string): Promise<string[]> {
  const { thread, posts } = await json<ThreadPage>(`/api/community/threads/${id}`, premium);
  const texts = posts.map((p) => p.html.replace(/<[^>]+>/g, ' ').trim()).filter((t) => t.length > 20);
  return [thread.title, ...texts.map((t) => t.slice(0, 40))];
}

beforeAll(async () => {
  const config = loadConfig({
    PORT: '0',
    DATA_DIR: await migratedDataDir('community-pages'),
    DIST_DIR: inject('testEnv').distDir,
    LOG_LEVEL: 'silent',
    EMAIL_WORKER: 'false',
  });
  server = await startServer(config, quietLogger());
  base = server.url;
  premium = await bearerOf('premium@demo.beacongrowth.co');
  admin = await bearerOf('admin@demo.beacongrowth.co');
});
afterAll(() => server?.close());

describe('community pages', () => {
  it('lists every category on /community with its level, and no thread title of the premium lounge', async () => {
    const { status, html, cacheControl } = await page('/community');
    expect(status).toBe(200);
    expect(cacheControl).toMatch(/^public/);
    expect(html).toContain('href="/community/general"');
    expect(html).toContain('href="/community/premium-lounge"');
    expect(html).toContain('Premium lounge');
    for (const thread of await threadsOf('premium-lounge', premium)) expectAbsent(html, thread.title, 'a lounge title');
  });

  it("renders a category anyone reads with its threads, and a thread with its posts' stored HTML", async () => {
    const threads = await threadsOf('general');
    expect(threads.length).toBeGreaterThan(0);
    const list = await page('/community/general');
    expect(list.status).toBe(200);
    for (const thread of threads) expect(list.html).toContain(`href="/community/threads/${thread.id}"`);

    const { thread, posts } = await json<ThreadPage>(`/api/community/threads/${threads[0]!.id}`);
    const shown = await page(`/community/threads/${thread.id}`);
    expect(shown.status).toBe(200);
    expect(shown.cacheControl).toMatch(/^public/);
    expect(shown.html).toContain(`<title>${inHtml(thread.title)[2]} | General | Beacon Growth</title>`);
    expect(shown.html).toContain('"@type":"DiscussionForumPosting"');
    expect(shown.html).not.toContain('<meta name="robots" content="noindex"');
    // Every post of the first page is in the HTML as the server stored it.
    for (const post of posts) expect(shown.html).toContain(post.html);
  });

  it("serves the premium lounge's category and thread pages as shells without a title or a post", async () => {
    const [thread] = await threadsOf('premium-lounge', premium);
    expect(thread, 'the demo lounge has threads').toBeDefined();
    const secrets = await secretsOf(thread!.id);
    const category = await page('/community/premium-lounge');
    expect(category.status).toBe(200);
    expect(category.html).toContain('Premium lounge');
    const shell = await page(`/community/threads/${thread!.id}`);
    expect(shell.status).toBe(200);
    expect(shell.html).toContain('<meta name="robots" content="noindex"');
    expect(shell.html).toContain('<title>Community discussion | Beacon Growth</title>');
    for (const html of [category.html, shell.html]) for (const secret of secrets) expectAbsent(html, secret, 'a lounge title or post');
  });

  it('answers unknown categories, unknown or malformed thread ids and bad cursors with 404, never a 5xx', async () => {
    const [thread] = await threadsOf('general');
    for (const path of [
      '/community/no-such-category',
      '/community/NOT%20A%20SLUG',
      '/community/threads/00000000-0000-4000-8000-000000000000',
      '/community/threads/not-a-uuid',
      `/community/threads/${thread!.id}?cursor=not*a*cursor`,
      `/community/threads/${thread!.id}?cursor=eyJ0IjoiMSJ9`,
      '/community/general?cursor=%00',
      '/community/general?cursor=eyJwIjp0cnVlfQ',
    ]) {
      const res = await page(path);
      expect(res.status, path).toBe(404);
      expect(res.cacheControl, path).toBe('no-store');
    }
  });

  it('lists /community, the categories anyone reads and their threads in the sitemap, and nothing of the lounge', async () => {
    const sitemap = (await page('/sitemap.xml')).html;
    const paths = [...sitemap.matchAll(/<loc>([^<]+)<\/loc>/g)].map((m) => new URL(m[1]!).pathname);
    expect(paths).toContain('/community');
    expect(paths).toContain('/community/general');
    expect(paths).not.toContain('/community/premium-lounge');
    for (const thread of await threadsOf('general')) expect(paths).toContain(`/community/threads/${thread.id}`);
    for (const thread of await threadsOf('premium-lounge', premium)) expect(paths).not.toContain(`/community/threads/${thread.id}`);
  });

  it('takes a thread staff hid off its category page, its own page and the sitemap at once', async () => {
    const [thread] = (await threadsOf('general')).filter((t) => !t.pinned);
    const hide = (action: 'hide' | 'unhide') =>
      fetch(`${base}/api/admin/community/threads/${thread!.id}`, {
        method: 'POST',
        headers: { ...admin, 'content-type': 'application/json' },
        body: JSON.stringify({ action }),
      });
    expect((await hide('hide')).status).toBe(200);
    try {
      expect((await page('/community/general')).html).not.toContain(thread!.id);
      const own = await page(`/community/threads/${thread!.id}`);
      expect(own.status).toBe(404);
      expectAbsent(own.html, thread!.title, 'the hidden title');
      expect((await page('/sitemap.xml')).html).not.toContain(thread!.id);
    } finally {
      expect((await hide('unhide')).status).toBe(200);
    }
    expect((await page('/community/general')).html).toContain(`href="/community/threads/${thread!.id}"`);
  });
});
