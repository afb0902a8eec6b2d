/**
 * The offline drafter: a valid draft (the create form's rules) for any prompt, on the topic asked,
 * using the site's own related items, and marked as an offline draft. Run against the real content
 * folder's items.
 */
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { CONTENT_TYPES } from '#shared/content/registry.ts';
import { createMdxSource } from '../content/mdx-source.ts';
import { DraftSchema, draftRequest } from './draft.ts';
import { createOfflineDrafter, OFFLINE_NOTE, writeOfflineDraft, type CatalogueItem } from './offline.ts';

let catalogue: CatalogueItem[];

beforeAll(async () => {
  const mdx = await createMdxSource(path.resolve(import.meta.dirname, '../../content'));
  catalogue = CONTENT_TYPES.flatMap((type) => mdx.list(type));
});

const PROMPTS = [
  'local SEO for bakeries',
  'email marketing for e-commerce shops',
  'How to automate invoices with AI',
  'social media content calendar',
  'x',
  'AI',
  '?',
  '   ',
  '<script>alert(1)</script> & [links](javascript:alert(1)) **bold** # heading',
  'café ☕ marketing für Bäckereien — 東京 🍞',
  'line one\nline two\ttabbed',
  'seo '.repeat(500),
  'A'.repeat(2000),
  'Generate a course about: nested prompts',
];

describe('offline drafter', () => {
  it.each(CONTENT_TYPES.flatMap((type) => PROMPTS.map((prompt) => [type, prompt] as const)))(
    'writes a valid %s draft for %j',
    (type, prompt) => {
      const draft = writeOfflineDraft(draftRequest(prompt, type), catalogue);
      expect(DraftSchema.safeParse(draft).success).toBe(true);
      expect(draft.body.startsWith(OFFLINE_NOTE)).toBe(true);
      expect(draft.description).toMatch(/^Offline draft: /);
      expect(draft.tags.length).toBeGreaterThan(0);
      // The user's text never becomes markup: every bracket of it is escaped, so no raw tags and no links of its own.
      expect(draft.body).not.toMatch(/(^|[^\\])<script|(^|[^\\])\]\(javascript:/i);
    },
  );

  it('writes on the topic asked, with related items from the site', () => {
    const draft = writeOfflineDraft(draftRequest('Generate a blog about: local SEO for bakeries'), catalogue);
    expect(draft.title).toBe('Local SEO for Bakeries: A Practical Guide');
    expect(draft.description).toContain('local SEO for bakeries');
    expect(draft.tags).toEqual(expect.arrayContaining(['Local SEO']));
    const related = catalogue.filter((i) => i.tags.includes('Local SEO'));
    expect(related.length).toBeGreaterThan(0);
    expect(related.some((i) => draft.body.includes(i.title.replace(/[()[\]]/g, '')))).toBe(true);
    expect(draft.body).toMatch(/\]\(\/(blog|tools|courses|market)\/[a-z0-9-]+\)/);
  });

  it('differs by topic and by type', () => {
    const seo = writeOfflineDraft(draftRequest('local SEO', 'blog'), catalogue);
    const email = writeOfflineDraft(draftRequest('email marketing', 'blog'), catalogue);
    expect(seo.body).not.toBe(email.body);
    expect(seo.tags).not.toEqual(email.tags);
    const course = writeOfflineDraft(draftRequest('email marketing', 'course'), catalogue);
    expect(course.body).toMatch(/## Modules/);
    expect(course.title).toMatch(/From First Steps to Results/);
    expect(writeOfflineDraft(draftRequest('email marketing', 'market'), catalogue).body).toMatch(/## What is included/);
    expect(writeOfflineDraft(draftRequest('email marketing', 'tool'), catalogue).body).toMatch(/## How to use it/);
  });

  it("fills the type's wording with the topic as typed, even one that looks like a template", () => {
    const draft = writeOfflineDraft(draftRequest('{subject} and $& tricks', 'tool'), catalogue);
    expect(draft.title).toBe('{subject} and $& Tricks Toolkit');
    expect(draft.description).toBe(
      'Offline draft: A ready-to-use toolkit for {subject} and $& tricks: what it does, how to set it up and how to get the most from it.',
    );
  });

  it('says so when nothing on the site is related', () => {
    const draft = writeOfflineDraft(draftRequest('quantum knitting for penguins', 'blog'), catalogue);
    expect(draft.body).toContain('Nothing on this site covers this topic yet');
    expect(draft.tags).toEqual(expect.arrayContaining(['Quantum', 'Knitting', 'Penguins']));
  });

  // Does a text share a word with the topic? Loosely, as a reader would judge: equal words, or the same first five letters.
  const stem = (w: string) => (w.length > 5 ? w.slice(0, 5) : w);
  const wordsOf = (text: string) => text.toLowerCase().match(/[\p{L}\p{N}]+(?:-[\p{L}\p{N}]+)*/gu) ?? [];
  const relates = (text: string, topic: string) => {
    const topicStems = new Set(
      wordsOf(topic)
        .filter((w) => w.length > 2 || w === 'ai')
        .map(stem),
    );
    return wordsOf(text).some((w) => topicStems.has(stem(w)));
  };
  const headings = (body: string) => [...body.matchAll(/^#{2,3} (.+)$/gm)].map((m) => m[1]!.replace(/\\/g, '').replaceAll('&amp;', '&'));
  // Section names every draft of a type has, whatever the topic.
  const FIXED =
    /^(Key points|Step by step|Mistakes to avoid|Related on this site|Next steps|Features|How to use it|Modules|What you will learn|Who it is for|Module \d+: Measuring results|Agenda|Who should join)$/;
  const linkedTitles = (body: string) =>
    [...body.matchAll(/^- \[(.+?)\]\(\/(?:blog|tools|courses|market|events)\//gm)].map((m) =>
      m[1]!.replace(/\\/g, '').replaceAll('&amp;', '&'),
    );

  const ON_SITE = [
    'local SEO for bakeries',
    'email marketing for e-commerce shops',
    'chatbots for a dental clinic',
    'social media content calendar',
    'How to automate invoices with AI',
  ];
  const OFF_SITE = ['hiring your first employee', 'customer retention for gyms', 'podcast growth', 'marketing plan for dentists'];

  it.each(CONTENT_TYPES.flatMap((type) => [...ON_SITE, ...OFF_SITE].map((topic) => [type, topic] as const)))(
    'keeps a %s draft about %j: title, tags and headings relate to the topic',
    (type, topic) => {
      const draft = writeOfflineDraft(draftRequest(topic, type), catalogue);
      expect(draft.title.toLowerCase()).toContain(topic.toLowerCase());
      for (const tag of draft.tags) expect(relates(tag, topic), `tag ${tag}`).toBe(true);
      const all = headings(draft.body);
      expect(
        all.some((h) => h.toLowerCase().includes(topic.toLowerCase())),
        all.join(' | '),
      ).toBe(true);
      for (const heading of all.filter((h) => !FIXED.test(h))) expect(relates(heading, topic), `heading ${heading}`).toBe(true);
      // Key points are the topic's own angles: each bold angle relates, and no other item's description is quoted.
      for (const [, angle] of draft.body.matchAll(/^- \*\*(.+?)\*\*/gm)) expect(relates(angle!, topic), `point ${angle}`).toBe(true);
    },
  );

  it.each(ON_SITE)('lists only related items from the site for %j', (topic) => {
    const draft = writeOfflineDraft(draftRequest(topic, 'blog'), catalogue);
    const titles = linkedTitles(draft.body);
    expect(titles.length).toBeGreaterThan(0);
    for (const title of titles) {
      const item = catalogue.find((i) => i.title === title)!;
      expect(relates(`${item.title} ${item.tags.join(' ')}`, topic), title).toBe(true);
    }
  });

  it.each(OFF_SITE)('writes an outline from the topic alone when nothing on the site is about %j', (topic) => {
    const draft = writeOfflineDraft(draftRequest(topic, 'blog'), catalogue);
    expect(linkedTitles(draft.body)).toEqual([]);
    expect(draft.body).toContain('Nothing on this site covers this topic yet');
    // No product blurbs: no sentence of any item's description is in the draft.
    for (const item of catalogue) expect(draft.body).not.toContain(item.description.slice(0, 40));
  });

  it('takes related items by the subject, not the audience, of a topic', () => {
    const draft = writeOfflineDraft(draftRequest('chatbots for a dental clinic', 'course'), catalogue);
    expect(linkedTitles(draft.body)).toEqual(expect.arrayContaining(['Chatbot Development Essentials']));
    expect(draft.tags).toEqual(expect.arrayContaining(['Chatbots', 'Dental', 'Clinic']));
    expect(draft.body).toContain('### Module 2: Chatbots');
  });

  it('answers through the port with the site catalogue, and with an empty one', async () => {
    const request = draftRequest('content strategy', 'blog');
    const drafter = createOfflineDrafter({ catalogue: async () => catalogue });
    expect(drafter.kind).toBe('offline');
    expect(DraftSchema.safeParse(await drafter.draft(request)).success).toBe(true);
    const empty = createOfflineDrafter({ catalogue: async () => [] });
    expect(DraftSchema.safeParse(await empty.draft(request)).success).toBe(true);
  });

  it('reads the spec prompt back into type and topic', () => {
    expect(draftRequest('Generate a course about: SEO basics')).toMatchObject({
      type: 'course',
      topic: 'SEO basics',
      prompt: 'Generate a course about: SEO basics',
    });
    expect(draftRequest('Generate a market about: kits')).toMatchObject({ type: 'market', topic: 'kits' });
    expect(draftRequest('just a topic')).toMatchObject({
      type: 'blog',
      topic: 'just a topic',
      prompt: 'Generate a blog about: just a topic',
    });
    expect(draftRequest('SEO basics', 'tool')).toMatchObject({ type: 'tool', prompt: 'Generate a tool about: SEO basics' });
  });
});
