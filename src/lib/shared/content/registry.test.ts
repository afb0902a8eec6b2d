import { describe, expect, it } from 'vitest';
import {
  CONTENT_REGISTRY,
  CONTENT_TYPE_INFO,
  CONTENT_TYPES,
  compareItems,
  detailFailureMessage,
  inputFromDetails,
  listOrderChangesAt,
  sortItems,
  itemPath,
  listFailureMessage,
  typeFromApiSegment,
  type BlogItem,
  type ContentItem,
  type ContentType,
  type CourseItem,
  type EventItem,
  type MarketItem,
  type ToolItem,
} from './registry.ts';

describe('the registry', () => {
  it('lists the types in the order of the database enum', () => {
    expect(CONTENT_TYPES).toEqual(['blog', 'tool', 'course', 'market', 'event']);
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
    ['event', 'events'],
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
    ['event', 'Search events…'],
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
    ['events', 'event'],
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
    ['event', '/events/my-post'],
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

function makeEvent(title: string, startsAt: string, durationMinutes = 60): EventItem {
  const slug = title.toLowerCase();
  return {
    ...base,
    id: slug,
    slug,
    title,
    type: 'event',
    startsAt,
    localStart: startsAt.slice(0, 16),
    timeZone: 'UTC',
    durationMinutes,
    host: 'Team',
    format: 'online',
    joinUrl: 'https://meet.example/x',
    cancelled: false,
    content: '',
    contentFormat: 'mdx',
  };
}

describe('events: upcoming soonest first, then past most recent first, as of now', () => {
  const NOW = Date.parse('2027-03-10T12:00:00Z');
  const events = [
    makeEvent('Long past', '2026-01-05T10:00:00Z'),
    makeEvent('Next month', '2027-04-10T10:00:00Z'),
    makeEvent('Last week', '2027-03-03T10:00:00Z'),
    makeEvent('Tomorrow', '2027-03-11T10:00:00Z'),
    // Started an hour ago and lasts two: still upcoming until it ends.
    makeEvent('Under way', '2027-03-10T11:00:00Z', 120),
    // Started two hours ago and lasted one: past.
    makeEvent('Just ended', '2027-03-10T10:00:00Z', 60),
  ];

  it('orders by the time the list is asked for', () => {
    expect(sortItems(events, NOW).map((e) => e.title)).toEqual([
      'Under way',
      'Tomorrow',
      'Next month',
      'Just ended',
      'Last week',
      'Long past',
    ]);
  });

  it('moves an event to the past once it has ended, not when it starts', () => {
    const later = Date.parse('2027-03-10T13:00:00Z'); // "Under way" ends at 13:00
    expect(sortItems(events, later).map((e) => e.title)).toEqual([
      'Tomorrow',
      'Next month',
      'Under way',
      'Just ended',
      'Last week',
      'Long past',
    ]);
  });

  it('orders events that start together by title', () => {
    const same = [makeEvent('Beta', '2027-05-01T10:00:00Z'), makeEvent('Alpha', '2027-05-01T10:00:00Z')];
    expect(sortItems(same, NOW).map((e) => e.title)).toEqual(['Alpha', 'Beta']);
    expect(compareItems(same[0]!, same[1]!, NOW)).toBeGreaterThan(0);
  });

  it('says when the order next changes by itself: the soonest end of an upcoming event', () => {
    expect(listOrderChangesAt(events, NOW)).toBe(Date.parse('2027-03-10T13:00:00Z'));
    expect(listOrderChangesAt(events, Date.parse('2027-03-10T13:00:00Z'))).toBe(Date.parse('2027-03-11T11:00:00Z'));
    expect(listOrderChangesAt(events, Date.parse('2030-01-01T00:00:00Z'))).toBeUndefined();
  });

  it('never expires a list of a type ordered by date or title', () => {
    expect(listOrderChangesAt([makeBlog('Old', '2025-01-01'), makeCourse('Sales')], NOW)).toBeUndefined();
  });
});

describe('inputFromDetails', () => {
  it("gives an event's start back as the local time it was written in", () => {
    const stored = { startsAt: '2027-05-12T14:00:00.000Z', localStart: '2027-05-12T15:00', timeZone: 'Europe/London' };
    expect(inputFromDetails('event', stored)).toMatchObject({ startsAt: '2027-05-12T15:00', timeZone: 'Europe/London' });
  });

  it('leaves the fields of other types as stored', () => {
    const stored = { publishedDate: '2026-01-01', content: 'Body' };
    expect(inputFromDetails('blog', stored)).toEqual(stored);
  });
});
