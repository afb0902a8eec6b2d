import { describe, expect, it } from 'vitest';
import { CONTENT_REGISTRY, type ContentInputOf, type ContentType, type ParsedInputOf } from '#shared/content/registry.ts';
import type { ContentRow } from './tables.ts';
import { itemFromRow, rowFromInput, slugify } from './rows.ts';

const NOW = new Date('2026-05-06T12:00:00Z');

/** A stored row of `type` with the given details JSON. */
function makeRow(type: ContentType, details: Record<string, unknown>, overrides: Partial<ContentRow> = {}): ContentRow {
  return {
    id: '0b5f7c52-2a4e-4c43-9d55-3c1f1c0e6a11',
    type,
    slug: `a-${type}`,
    title: `A ${type}`,
    description: 'A stored row.',
    tags: ['SEO'],
    accessLevel: 'subscriber',
    media: [{ url: '/media/cover.jpg', type: 'image', alt: 'Cover' }],
    details,
    published: true,
    createdBy: null,
    createdAt: NOW,
    updatedAt: NOW,
    ...overrides,
  };
}

const common = { title: 'A written item', description: 'Written in the creator tools.' };

/** A creator-tools input of `type`, validated as the service does. */
function parseInput<T extends ContentType>(type: T, input: Partial<ContentInputOf<T>> = {}): ParsedInputOf<T> {
  return CONTENT_REGISTRY[type].input.parse({ ...common, ...input }) as ParsedInputOf<T>;
}

const columns = {
  id: '0b5f7c52-2a4e-4c43-9d55-3c1f1c0e6a11',
  slug: 'a-blog',
  description: 'A stored row.',
  tags: ['SEO'],
  accessLevel: 'subscriber',
  media: [{ url: '/media/cover.jpg', type: 'image', alt: 'Cover' }],
  source: 'db',
};

const lesson = {
  id: 'one',
  title: 'One',
  content: 'Lesson body',
  media: [{ url: 'videos/one.mp4', type: 'video' }],
  downloadables: [{ name: 'Workbook', url: 'downloads/workbook.pdf' }],
};

describe('itemFromRow on rows stored before the registry', () => {
  it('reads a blog row without author or format: the team byline and Markdown', () => {
    const row = makeRow('blog', { publishedDate: '2026-03-04', content: 'Body' });
    expect(itemFromRow(row)).toEqual({
      ...columns,
      title: 'A blog',
      type: 'blog',
      publishedDate: '2026-03-04',
      author: 'Beacon Growth Team',
      content: 'Body',
      contentFormat: 'markdown',
    });
  });

  it('reads a blog row with its author and format', () => {
    const row = makeRow('blog', { publishedDate: '2026-03-04', author: 'Ann Lee', content: 'Body', contentFormat: 'mdx' });
    expect(itemFromRow(row)).toMatchObject({ author: 'Ann Lee', contentFormat: 'mdx' });
  });

  it('reads a course row with its sections and lessons', () => {
    const sections = [{ id: 'start', title: 'Start', lessons: [lesson] }];
    const row = makeRow('course', { duration: '2 weeks', skillLevel: 'advanced', sections });
    expect(itemFromRow(row)).toEqual({
      ...columns,
      slug: 'a-course',
      title: 'A course',
      type: 'course',
      duration: '2 weeks',
      skillLevel: 'advanced',
      sections,
    });
  });

  it('reads a tool row with and without its links', () => {
    const bare = itemFromRow(makeRow('tool', { updatedAt: '2026-02-01' }));
    expect(bare).toMatchObject({ type: 'tool', updatedAt: '2026-02-01' });
    expect(bare).not.toHaveProperty('downloadUrl');
    expect(bare).not.toHaveProperty('externalLink');
    const full = makeRow('tool', { updatedAt: '2026-02-01', downloadUrl: 'downloads/kit.zip', externalLink: 'https://example.com/app' });
    expect(itemFromRow(full)).toMatchObject({ downloadUrl: 'downloads/kit.zip', externalLink: 'https://example.com/app' });
  });

  it('reads a market row with and without price and links', () => {
    const bare = itemFromRow(makeRow('market', { fileType: 'PDF' }));
    expect(bare).toMatchObject({ type: 'market', fileType: 'PDF' });
    expect(bare).not.toHaveProperty('price');
    const details = { fileType: 'PDF', price: 49, downloadUrl: 'downloads/kit.pdf', externalLink: 'https://example.com/shop' };
    expect(itemFromRow(makeRow('market', details))).toMatchObject(details);
  });

  it('ignores keys the type does not know', () => {
    expect(itemFromRow(makeRow('market', { fileType: 'PDF', legacy: true }))).not.toHaveProperty('legacy');
  });

  it('keeps the columns over same-named keys in details', () => {
    expect(itemFromRow(makeRow('market', { fileType: 'PDF', title: 'From details' })).title).toBe('A market');
  });

  it.each<[ContentType, Record<string, unknown>]>([
    ['blog', {}],
    ['blog', { publishedDate: '4 March', content: 'Body' }],
    ['course', { duration: '1 week', skillLevel: 'expert', sections: [] }],
    ['tool', { updatedAt: '2026-02-01', downloadUrl: '../secret' }],
    ['market', { price: 5 }],
  ])('throws on %s details that no longer validate: %j', (type, details) => {
    expect(() => itemFromRow(makeRow(type, details))).toThrow();
  });

  it('throws on a row whose media no longer validates', () => {
    const row = makeRow('market', { fileType: 'PDF' }, { media: [{ url: 'javascript:alert(1)', type: 'image' }] });
    expect(() => itemFromRow(row)).toThrow();
  });
});

describe('rowFromInput', () => {
  it('stores a blog in the details shape rows have always had', () => {
    const row = rowFromInput('blog', 'a-post', parseInput('blog', { content: 'Body' }), NOW);
    expect(row).toEqual({
      type: 'blog',
      slug: 'a-post',
      title: common.title,
      description: common.description,
      tags: [],
      accessLevel: 'free',
      media: [],
      details: { publishedDate: '2026-05-06', content: 'Body', contentFormat: 'markdown' },
    });
  });

  it('keeps an explicit blog author and publication date', () => {
    const row = rowFromInput('blog', 'a-post', parseInput('blog', { author: 'Ann Lee', publishedDate: '2026-01-02' }), NOW);
    expect(row.details).toEqual({ publishedDate: '2026-01-02', author: 'Ann Lee', content: '', contentFormat: 'markdown' });
  });

  it('stores a course, a tool and a market item with only the fields they have', () => {
    expect(rowFromInput('course', 'c', parseInput('course'), NOW).details).toEqual({
      duration: 'Self-paced',
      skillLevel: 'beginner',
      sections: [],
    });
    expect(rowFromInput('tool', 't', parseInput('tool'), NOW).details).toEqual({ updatedAt: '2026-05-06' });
    expect(rowFromInput('market', 'm', parseInput('market', { price: 0 }), NOW).details).toEqual({
      fileType: 'Digital download',
      price: 0,
    });
  });

  it.each<[ContentType, Record<string, unknown>]>([
    ['blog', { content: 'Body', author: 'Ann' }],
    ['course', { duration: '3 weeks', skillLevel: 'intermediate', sections: [{ id: 's', title: 'S', lessons: [lesson] }] }],
    ['tool', { downloadUrl: 'downloads/kit.zip', externalLink: 'https://example.com/app', updatedAt: '2026-01-01' }],
    ['market', { fileType: 'PDF', price: 12, downloadUrl: 'downloads/kit.pdf' }],
  ])('writes a %s row that reads back as the same item', (type, input) => {
    const row = rowFromInput(type, `a-${type}`, parseInput(type, input), NOW);
    const item = itemFromRow(
      makeRow(type, row.details ?? {}, { title: row.title, description: row.description, tags: [], accessLevel: 'free', media: [] }),
    );
    expect(item).toMatchObject({ type, title: common.title, ...input });
  });
});

describe('slugify', () => {
  it.each([
    ['Hello, World!', 'hello-world'],
    ['Café Déjà Vu', 'cafe-deja-vu'],
    ['  Leading and trailing  ', 'leading-and-trailing'],
    ['SEO & PPC: 10 Tips', 'seo-ppc-10-tips'],
    ['already-a-slug', 'already-a-slug'],
    ['multiple---hyphens___and   spaces', 'multiple-hyphens-and-spaces'],
  ])('turns %j into %j', (title, slug) => {
    expect(slugify(title)).toBe(slug);
  });

  it.each(['', '   ', '!!!', '???---', '日本語'])('falls back to "item" for %j', (title) => {
    expect(slugify(title)).toBe('item');
  });

  it('cuts a long title to 80 characters', () => {
    expect(slugify('a'.repeat(120))).toBe('a'.repeat(80));
  });

  it('does not leave a trailing hyphen where the cut falls on a word boundary', () => {
    // "word-" repeated: character 80 is a hyphen.
    const slug = slugify('word '.repeat(30));
    expect(slug).toBe('word-'.repeat(16).slice(0, 79));
    expect(slug.endsWith('-')).toBe(false);
  });
});
