/**
 * The public search index as the server serves it (issue 36), on both databases: made from what
 * visitors read, git and database alike, with every gated part left out; an item written, changed or
 * unpublished at run time is in the next entry without a rebuild; the files answer as files (the
 * entry under the shared policy, hashed files for a year, 304 by ETag), and nothing else under
 * /pagefind/ answers.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../support/app.ts';
import { roleAccounts } from '../support/callers.ts';
import { DATABASE_KINDS } from '../support/databases.ts';
import { makeBlogInput } from '../support/fixtures.ts';
import { filesHolding, readServedIndex, type ReadIndex } from '../support/search-index.ts';

const SHARED = 'public, max-age=0, s-maxage=30, stale-while-revalidate=30';
const GATED = 'SEARCH-INDEX-GATED-SENTINEL-c7d1';

describe.each(DATABASE_KINDS)('the public search index on %s', (kind) => {
  let t: TestApp;
  const fetchApp = ((input: string | URL | Request, init?: RequestInit) => t.app.request(String(input), init)) as typeof fetch;
  const read = () => readServedIndex('http://localhost', fetchApp);
  /** The index once `ready` holds (a change is built at most 2 s after the last build: the current files answer meanwhile). */
  const readWhen = async (ready: (index: ReadIndex) => boolean): Promise<ReadIndex> => {
    for (let i = 0; ; i++) {
      const index = await read();
      if (ready(index) || i === 60) return index;
      await new Promise((r) => setTimeout(r, 100));
    }
  };

  beforeAll(async () => {
    t = await createTestApp(kind);
  });
  afterAll(async () => {
    await t?.close();
  });

  it('holds the services, the FAQ and the git items, never a gated body', async () => {
    const index = await read();
    const urls = index.pages.map((p) => p.url);
    expect(urls).toEqual(expect.arrayContaining(['/services/seo-optimization', '/faq#faq-q1', '/blog/ecommerce-launch-first-90-days']));
    expect(index.pages.find((p) => p.url === '/blog/ecommerce-launch-first-90-days')?.meta).toMatchObject({ type: 'blog' });
    // The premium article's public opening is there, the part behind its gate is not.
    expect(filesHolding(index, 'Getting to a repeatable, profitable month three').length).toBeGreaterThan(0);
    for (const gated of ['PREMIUM-SENTINEL-7f3a', 'SUBSCRIBER-LESSON-SENTINEL-5b21', 'PREMIUM-MEDIA-SENTINEL', 'PREMIUM-DOWNLOAD-SENTINEL'])
      expect(filesHolding(index, gated), gated).toEqual([]);
  });

  it('takes in an item written at run time, its public part only, and lets it go when unpublished', async () => {
    const title = `Runtime Search Article ${kind}`;
    const item = await t.content.create(
      'blog',
      makeBlogInput({
        title,
        accessLevel: 'premium',
        content: `An opening anyone reads.\n\n<!-- preview -->\n\nBehind the gate: ${GATED}.`,
      }),
    );
    let index = await readWhen((i) => i.pages.some((p) => p.url === `/blog/${item.slug}`));
    expect(index.pages.map((p) => p.url)).toContain(`/blog/${item.slug}`);
    expect(filesHolding(index, 'An opening anyone reads.').length).toBeGreaterThan(0);
    expect(filesHolding(index, GATED)).toEqual([]);

    await t.content.update('blog', item.id, { title: `${title} Renamed` });
    index = await readWhen((i) => i.pages.some((p) => p.meta.title === `${title} Renamed`));
    expect(index.pages.find((p) => p.url === `/blog/${item.slug}`)?.meta.title).toBe(`${title} Renamed`);

    await t.content.update('blog', item.id, { published: false });
    index = await readWhen((i) => !i.pages.some((p) => p.url === `/blog/${item.slug}`));
    expect(index.pages.map((p) => p.url)).not.toContain(`/blog/${item.slug}`);
    expect(filesHolding(index, title)).toEqual([]);
  });

  it('takes in a newsletter issue as it goes out, its public part only (no notice announces it: the archive’s mark moves)', async () => {
    await read();
    const editor = {
      id: randomUUID(),
      email: `editor-${kind}@search-index.test`,
      role: 'editor' as const,
      accessLevel: 'premium' as const,
    };
    const { id } = await t.services.newsletterIssues.create(editor, {
      subject: `Search Index Issue ${kind}`,
      previewText: 'Found as soon as it goes out',
      body: `A public opening of the issue.\n\n<!-- preview -->\n\nFor subscribers: ${GATED}.`,
      accessLevel: 'subscriber',
      audience: ['subscriber'],
    });
    await t.services.newsletterIssues.send(id);
    const index = await readWhen((i) => i.pages.some((p) => p.meta.title === `Search Index Issue ${kind}`));
    const issue = index.pages.find((p) => p.meta.title === `Search Index Issue ${kind}`);
    expect(issue?.url).toMatch(/^\/newsletter\//);
    expect(filesHolding(index, 'A public opening of the issue.').length).toBeGreaterThan(0);
    expect(filesHolding(index, GATED)).toEqual([]);
  });

  it('takes in a thread written at run time in a category anyone reads, never one of a members-only category', async () => {
    await t.services.seedDemo(); // the community's categories (general, premium-lounge)
    await read();
    const { tokens } = await roleAccounts(t, `search-index-${kind}`, {
      free: { role: 'member', accessLevel: 'free' },
      premium: { role: 'member', accessLevel: 'premium' },
    });
    const post = async (token: string, category: string, title: string, body: string) => {
      const res = await t.app.request('/api/community/threads', {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ category, title, body }),
      });
      expect(res.status, await res.clone().text()).toBe(201);
      return ((await res.json()) as { id: string }).id;
    };
    const open = await post(tokens.free, 'general', `Public thread ${kind}`, 'Anyone may read this opening post.');
    await post(tokens.premium, 'premium-lounge', `Lounge thread ${kind}`, `Only premium: ${GATED}.`);
    const index = await readWhen((i) => i.pages.some((p) => p.url === `/community/threads/${open}`));
    expect(index.pages.find((p) => p.url === `/community/threads/${open}`)?.meta).toMatchObject({
      type: 'community',
      title: `Public thread ${kind}`,
    });
    expect(filesHolding(index, 'Anyone may read this opening post.').length).toBeGreaterThan(0);
    expect(filesHolding(index, `Lounge thread ${kind}`)).toEqual([]);
    expect(filesHolding(index, GATED)).toEqual([]);
  });

  it('answers its files as files: the entry under the shared policy, hashed files for a year, 304 by ETag', async () => {
    const entry = await t.app.request('/pagefind/pagefind-entry.json');
    expect(entry.status).toBe(200);
    expect(entry.headers.get('cache-control')).toBe(SHARED);
    expect(entry.headers.get('content-type')).toMatch(/^application\/json/);
    const { languages } = (await entry.json()) as { languages: { en: { hash: string } } };
    const meta = await t.app.request(`/pagefind/pagefind.${languages.en.hash}.pf_meta`);
    expect(meta.headers.get('cache-control')).toBe('public, max-age=31536000, s-maxage=600, immutable');
    const script = await t.app.request('/pagefind/pagefind.js', { headers: { 'accept-encoding': 'br' } });
    expect(script.headers.get('content-type')).toMatch(/^text\/javascript/);
    expect(script.headers.get('content-encoding')).toBe('br');
    const again = await t.app.request('/pagefind/pagefind.js', { headers: { 'if-none-match': script.headers.get('etag')! } });
    expect(again.status).toBe(304);
  });

  it('answers nothing else under its folder', async () => {
    for (const p of [
      '/pagefind/',
      '/pagefind/index.html',
      '/pagefind/../package.json',
      '/pagefind/fragment/en_0000000.pf_fragment',
      '/pagefind/pagefind-ui.js',
    ])
      expect((await t.app.request(p)).status, p).toBe(404);
    expect((await t.app.request('/pagefind/pagefind.js', { method: 'POST' })).status).toBeGreaterThanOrEqual(400);
  });
});
