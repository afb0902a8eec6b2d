import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { PublicContentReader } from '#shared/content/reader.ts';
import { toPublicItem, type ContentItem } from '#shared/content/registry.ts';
import { FAQS } from '#shared/faq.ts';
import { recordPage } from './pagefind.ts';
import { htmlText, publicRecords } from './public-records.ts';

const CONTENT_DIR = path.resolve(import.meta.dirname, '../../content');

const article = {
  id: 'db-1',
  slug: 'gated-words',
  type: 'blog',
  source: 'db',
  title: 'Pricing Teardown',
  description: 'What a pricing page gets wrong.',
  tags: ['Pricing'],
  accessLevel: 'premium',
  media: [],
  publishedDate: '2026-11-01',
  author: 'Maya',
  content: 'Public part\n\n<!-- preview -->\n\nGATED-WORD-91ab',
  contentFormat: 'markdown',
} as unknown as ContentItem;

/** A reader like the server's: public items, the detail with the public preview. */
const reader: PublicContentReader = {
  list: (type) => Promise.resolve(type === 'blog' ? [toPublicItem(article)] : []) as never,
  get: (type, slug) =>
    Promise.resolve(
      type === 'blog' && slug === article.slug ? { ...toPublicItem(article), previewHtml: '<p>Public &amp; part</p>' } : undefined,
    ) as never,
};

describe('publicRecords', () => {
  it('holds the services, every FAQ answer and each item’s public text, in address order', async () => {
    const records = await publicRecords({ content: reader, contentDir: CONTENT_DIR });
    expect(records.filter((r) => r.type === 'service').length).toBeGreaterThanOrEqual(6);
    expect(records.filter((r) => r.type === 'faq')).toHaveLength(FAQS.length);
    expect(records.map((r) => r.url)).toEqual(records.map((r) => r.url).toSorted());
    const item = records.find((r) => r.url === '/blog/gated-words')!;
    expect(item).toMatchObject({ type: 'blog', title: 'Pricing Teardown' });
    expect(item.text).toContain('What a pricing page gets wrong.');
    expect(item.text).toContain('Public & part');
  });

  it('never carries a gated field, the level or an address', async () => {
    const text = JSON.stringify(await publicRecords({ content: reader, contentDir: CONTENT_DIR }));
    expect(text).not.toContain('GATED-WORD-91ab');
    expect(text).not.toMatch(/"text":"[^"]*premium/);
  });

  it('adds threads and nothing of theirs but what it is given', async () => {
    const records = await publicRecords({
      content: reader,
      contentDir: CONTENT_DIR,
      threads: () => Promise.resolve([{ id: '0f6c', title: 'Local wins', text: 'Reviews first.' }]),
    });
    expect(records).toContainEqual({ url: '/community/threads/0f6c', type: 'community', title: 'Local wins', text: 'Reviews first.' });
  });
});

describe('htmlText and recordPage', () => {
  it('reads sanitised HTML as text', () => {
    expect(htmlText('<p>One &lt;two&gt;</p>\n<ul><li>three</li></ul>')).toBe('One <two> three');
  });

  it('escapes what it writes into the page Pagefind reads', () => {
    const page = recordPage({ url: '/x', type: 'faq', title: '<script>t</script>', text: '"a" & <b>' });
    expect(page).toContain('&lt;script&gt;t&lt;/script&gt;');
    expect(page).toContain('&quot;a&quot; &amp; &lt;b&gt;');
    expect(page).toContain('data-pagefind-filter="type:faq"');
  });
});
