/**
 * The offline drafter: a valid draft (the create form's rules) for any prompt, on the topic asked,
 * using the site's own related items, and marked as an offline draft. Run against the real content
 * folder's items.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { CONTENT_TYPES } from '../../src/lib/content/registry.ts';
import { createMdxSource } from '../content/mdx-source.ts';
import { CONTENT_DIR } from '../../tests/support/app.ts';
import { DraftSchema, draftRequest } from './draft.ts';
import { createOfflineDrafter, OFFLINE_NOTE, writeOfflineDraft, type CatalogueItem } from './offline.ts';

let catalogue: CatalogueItem[];

beforeAll(async () => {
  const mdx = await createMdxSource(CONTENT_DIR);
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

  it('says so when nothing on the site is related', () => {
    const draft = writeOfflineDraft(draftRequest('quantum knitting for penguins', 'blog'), catalogue);
    expect(draft.body).toContain('Nothing on this site covers this topic yet');
    expect(draft.tags).toEqual(expect.arrayContaining(['Quantum', 'Knitting', 'Penguins']));
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
