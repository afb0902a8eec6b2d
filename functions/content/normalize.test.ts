import { describe, expect, it } from 'vitest';
import type { BlogItem, ContentItem, CourseItem, MarketItem, ToolItem } from '../../src/lib/content/schema.ts';
import { compareItems, slugify, toDateOnly } from './normalize.ts';

const base = {
  description: 'An item used to test ordering.',
  tags: [],
  accessLevel: 'free' as const,
  media: [],
  source: 'mdx' as const,
};

function makeBlog(title: string, publishedDate: string): BlogItem {
  const slug = slugify(title);
  return { ...base, id: slug, slug, title, type: 'blog', publishedDate, author: 'Team', content: '', contentFormat: 'mdx' };
}

function makeTool(title: string, updatedAt: string): ToolItem {
  const slug = slugify(title);
  return { ...base, id: slug, slug, title, type: 'tool', updatedAt };
}

function makeCourse(title: string): CourseItem {
  const slug = slugify(title);
  return { ...base, id: slug, slug, title, type: 'course', duration: '1 week', skillLevel: 'beginner', sections: [] };
}

function makeMarket(title: string): MarketItem {
  const slug = slugify(title);
  return { ...base, id: slug, slug, title, type: 'market', fileType: 'PDF' };
}

const sortedTitles = (items: ContentItem[]) => [...items].sort(compareItems).map((i) => i.title);

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

describe('toDateOnly', () => {
  it('writes the UTC calendar day as YYYY-MM-DD', () => {
    expect(toDateOnly(new Date(Date.UTC(2026, 2, 4)))).toBe('2026-03-04');
    expect(toDateOnly(new Date('2026-03-04'))).toBe('2026-03-04');
  });

  it('uses the UTC day for a time late in a western time zone', () => {
    expect(toDateOnly(new Date('2026-03-14T23:30:00-05:00'))).toBe('2026-03-15');
  });

  it('pads months and days', () => {
    expect(toDateOnly(new Date(Date.UTC(2026, 0, 9, 12)))).toBe('2026-01-09');
  });
});

describe('compareItems', () => {
  it('orders blog articles newest first', () => {
    expect(sortedTitles([makeBlog('Old', '2025-01-01'), makeBlog('New', '2026-03-01'), makeBlog('Mid', '2025-06-30')])).toEqual([
      'New',
      'Mid',
      'Old',
    ]);
  });

  it('orders blog articles of the same day by title', () => {
    expect(sortedTitles([makeBlog('Beta', '2026-01-01'), makeBlog('Alpha', '2026-01-01')])).toEqual(['Alpha', 'Beta']);
  });

  it('orders tools by last update, newest first, then by title', () => {
    expect(
      sortedTitles([makeTool('Zed', '2026-01-01'), makeTool('Old', '2024-01-01'), makeTool('Ann', '2026-01-01')]),
    ).toEqual(['Ann', 'Zed', 'Old']);
  });

  it('orders courses and market items by title', () => {
    expect(sortedTitles([makeCourse('Sales'), makeCourse('Analytics'), makeCourse('Marketing')])).toEqual([
      'Analytics',
      'Marketing',
      'Sales',
    ]);
    expect(sortedTitles([makeMarket('Toolkit'), makeMarket('Bundle')])).toEqual(['Bundle', 'Toolkit']);
  });

  it('returns 0 for two items with the same title', () => {
    expect(compareItems(makeCourse('Same'), makeCourse('Same'))).toBe(0);
  });
});
