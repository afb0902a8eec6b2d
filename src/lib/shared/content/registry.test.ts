import { describe, expect, it } from 'vitest';
import {
  CONTENT_REGISTRY,
  CONTENT_TYPE_INFO,
  CONTENT_TYPES,
  compareItems,
  detailFailureMessage,
  itemPath,
  listFailureMessage,
  typeFromApiSegment,
  type BlogItem,
  type ContentItem,
  type ContentType,
  type CourseItem,
  type MarketItem,
  type ToolItem,
} from './registry.ts';

describe('the registry', () => {
  it('lists the types in the order of the database enum', () => {
    expect(CONTENT_TYPES).toEqual(['blog', 'tool', 'course', 'market']);
    expect(Object.keys(CONTENT_REGISTRY)).toEqual([...CONTENT_TYPES]);
  });

  it.each(CONTENT_TYPES)('files the %s entry under its own type', (type) => {
    expect(CONTENT_REGISTRY[type].type).toBe(type);
  });

  it('gives every type its own folder, API segment and path', () => {
    for (const key of ['folder', 'apiSegment', 'path'] as const) {
      expect(new Set(CONTENT_TYPES.map((t) => CONTENT_REGISTRY[t][key])).size).toBe(CONTENT_TYPES.length);
    }
  });

  it.each<[ContentType, string]>([
    ['blog', 'blog'],
    ['tool', 'tools'],
    ['course', 'courses'],
    ['market', 'market'],
  ])('reads %s files from content/%s', (type, folder) => {
    expect(CONTENT_REGISTRY[type].folder).toBe(folder);
  });

  it('gives islands plain data: the type info survives JSON unchanged', () => {
    expect(JSON.parse(JSON.stringify(CONTENT_TYPE_INFO))).toEqual(CONTENT_TYPE_INFO);
  });

  it.each<[ContentType, string]>([
    ['blog', 'Search articles…'],
    ['course', 'Search courses…'],
    ['tool', 'Search tools…'],
    ['market', 'Search the marketplace…'],
  ])('words the %s search placeholder %j', (type, text) => {
    expect(CONTENT_TYPE_INFO[type].searchPlaceholder).toBe(text);
  });
});

describe('typeFromApiSegment', () => {
  it.each([
    ['blogs', 'blog'],
    ['tools', 'tool'],
    ['courses', 'course'],
    ['market', 'market'],
  ])('maps %j to %j', (segment, type) => {
    expect(typeFromApiSegment(segment)).toBe(type);
  });

  it.each(['blog', '', 'BLOGS', '__proto__', 'constructor', 'toString', 'blogs/'])('returns undefined for %j', (segment) => {
    expect(typeFromApiSegment(segment)).toBeUndefined();
  });
});

describe('spec texts', () => {
  it.each<[ContentType, string]>([
    ['blog', 'Failed to load blog articles.'],
    ['course', 'Failed to load courses.'],
    ['tool', 'Failed to load tools.'],
    ['market', 'Failed to load marketplace items.'],
  ])('the %s list load error reads %j', (type, text) => {
    expect(CONTENT_TYPE_INFO[type].loadError).toBe(text);
  });

  it.each<[ContentType, string, string]>([
    ['blog', 'No blog articles found.', 'No articles match your search criteria.'],
    ['course', 'No courses found.', 'No courses match your search criteria.'],
    ['tool', 'No tools found.', 'No tools found.'],
    ['market', 'No marketplace items found.', 'No items match your search criteria.'],
  ])('the %s empty states read %j and %j', (type, emptyAll, emptyFiltered) => {
    expect(CONTENT_TYPE_INFO[type]).toMatchObject({ emptyAll, emptyFiltered });
  });

  it('words the list failure message with the plural', () => {
    expect(listFailureMessage('blog')).toBe('Failed to load blogs. Please try again later.');
    expect(listFailureMessage('course')).toBe('Failed to load courses. Please try again later.');
  });

  it('words the detail failure message with the singular', () => {
    expect(detailFailureMessage('market')).toBe('Failed to load market item. Please try again later.');
    expect(detailFailureMessage('blog')).toBe('Failed to load blog. Please try again later.');
  });
});

describe('itemPath', () => {
  it.each<[ContentType, string]>([
    ['blog', '/blog/my-post'],
    ['course', '/courses/my-post'],
    ['tool', '/tools/my-post'],
    ['market', '/market/my-post'],
  ])('puts a %s detail page at %s', (type, path) => {
    expect(itemPath(type, 'my-post')).toBe(path);
  });
});

const base = {
  description: 'An item used to test ordering.',
  tags: [],
  accessLevel: 'free' as const,
  media: [],
  source: 'mdx' as const,
};

function makeBlog(title: string, publishedDate: string): BlogItem {
  const slug = title.toLowerCase();
  return { ...base, id: slug, slug, title, type: 'blog', publishedDate, author: 'Team', content: '', contentFormat: 'mdx' };
}

function makeTool(title: string, updatedAt: string): ToolItem {
  const slug = title.toLowerCase();
  return { ...base, id: slug, slug, title, type: 'tool', updatedAt };
}

function makeCourse(title: string): CourseItem {
  const slug = title.toLowerCase();
  return { ...base, id: slug, slug, title, type: 'course', duration: '1 week', skillLevel: 'beginner', sections: [] };
}

function makeMarket(title: string): MarketItem {
  const slug = title.toLowerCase();
  return { ...base, id: slug, slug, title, type: 'market', fileType: 'PDF' };
}

const sortedTitles = (items: ContentItem[]) => [...items].sort(compareItems).map((i) => i.title);

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
    expect(sortedTitles([makeTool('Zed', '2026-01-01'), makeTool('Old', '2024-01-01'), makeTool('Ann', '2026-01-01')])).toEqual([
      'Ann',
      'Zed',
      'Old',
    ]);
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
