import { describe, expect, it } from 'vitest';
import {
  EMPTY_FILTERS,
  applyFilters,
  filtersToQuery,
  hasActiveFilters,
  parseFilters,
  tagOptions,
  tagOverflow,
  toggleValue,
  type ListFilterKind,
  type ListFilters,
} from './filter.ts';
import type { PublicBlog, PublicCourse, PublicItem, PublicMarket, PublicTool } from './registry.ts';

const base = {
  description: 'A description that is long enough.',
  tags: [] as string[],
  accessLevel: 'free' as const,
  media: [],
};

function makeBlog(overrides: Partial<PublicBlog> = {}): PublicBlog {
  const slug = overrides.slug ?? 'blog-item';
  return { ...base, id: slug, slug, title: 'Blog item', type: 'blog', publishedDate: '2026-01-01', author: 'Team', ...overrides };
}

function makeCourse(overrides: Partial<PublicCourse> = {}): PublicCourse {
  const slug = overrides.slug ?? 'course-item';
  return {
    ...base,
    id: slug,
    slug,
    title: 'Course item',
    type: 'course',
    duration: '2 weeks',
    skillLevel: 'beginner',
    sections: [],
    ...overrides,
  };
}

function makeTool(overrides: Partial<PublicTool> = {}): PublicTool {
  const slug = overrides.slug ?? 'tool-item';
  return { ...base, id: slug, slug, title: 'Tool item', type: 'tool', updatedAt: '2026-01-01', ...overrides };
}

function makeMarket(overrides: Partial<PublicMarket> = {}): PublicMarket {
  const slug = overrides.slug ?? 'market-item';
  return { ...base, id: slug, slug, title: 'Market item', type: 'market', fileType: 'PDF', ...overrides };
}

function filters(overrides: Partial<ListFilters> = {}): ListFilters {
  return { ...EMPTY_FILTERS, ...overrides };
}

const slugs = (items: readonly PublicItem[]) => items.map((i) => i.slug);

describe('applyFilters: search', () => {
  const items = [
    makeBlog({ slug: 'by-title', title: 'Local SEO Playbook' }),
    makeBlog({ slug: 'by-description', title: 'Other', description: 'How to grow with local seo citations.' }),
    makeBlog({ slug: 'by-tag-only', title: 'Unrelated', description: 'Nothing to see in this text.', tags: ['SEO'] }),
  ];

  it('matches the query case-insensitively as a substring of the title or the description', () => {
    expect(slugs(applyFilters(items, filters({ q: 'LOCAL seo' })))).toEqual(['by-title', 'by-description']);
  });

  it('does not search tags', () => {
    expect(slugs(applyFilters(items, filters({ q: 'seo' })))).not.toContain('by-tag-only');
  });

  it('matches part of a word', () => {
    expect(slugs(applyFilters(items, filters({ q: 'playb' })))).toEqual(['by-title']);
  });

  it('trims the query before matching', () => {
    expect(slugs(applyFilters(items, filters({ q: '  playbook  ' })))).toEqual(['by-title']);
  });

  it.each(['', '   ', '\t\n'])('returns every item for the empty query %j', (q) => {
    expect(slugs(applyFilters(items, filters({ q })))).toEqual(slugs(items));
  });

  it('returns nothing when no title or description contains the query', () => {
    expect(applyFilters(items, filters({ q: 'zzz-no-match' }))).toEqual([]);
  });
});

describe('applyFilters: tag and category', () => {
  const items = [
    makeBlog({ slug: 'seo', tags: ['SEO', 'Local'] }),
    makeBlog({ slug: 'ai', tags: ['AI'] }),
    makeBlog({ slug: 'none', tags: [] }),
  ];

  it('keeps only items carrying the tag, ignoring case', () => {
    expect(slugs(applyFilters(items, filters({ tag: 'seo' })))).toEqual(['seo']);
  });

  it('matches whole tags, not parts of them', () => {
    expect(applyFilters(items, filters({ tag: 'SE' }))).toEqual([]);
  });

  it('treats the category as any one of the item tags, ignoring case', () => {
    expect(slugs(applyFilters(items, filters({ category: 'LOCAL' })))).toEqual(['seo']);
    expect(slugs(applyFilters(items, filters({ category: 'ai' })))).toEqual(['ai']);
  });
});

describe('applyFilters: skill level', () => {
  const items = [
    makeCourse({ slug: 'easy', skillLevel: 'beginner' }),
    makeCourse({ slug: 'hard', skillLevel: 'advanced' }),
    makeBlog({ slug: 'blog' }),
  ];

  it('keeps only courses at that level', () => {
    expect(slugs(applyFilters(items, filters({ level: 'advanced' })))).toEqual(['hard']);
  });

  it('never lets an item without a skill level through', () => {
    expect(slugs(applyFilters(items, filters({ level: 'beginner' })))).toEqual(['easy']);
  });
});

describe('applyFilters: price', () => {
  const items = [
    makeMarket({ slug: 'no-price' }),
    makeMarket({ slug: 'zero', price: 0 }),
    makeMarket({ slug: 'paid', price: 9.99 }),
    makeTool({ slug: 'tool' }),
    makeBlog({ slug: 'blog' }),
  ];

  it('treats a market item with no price or price 0 as free', () => {
    expect(slugs(applyFilters(items, filters({ price: 'free' })))).toEqual(['no-price', 'zero']);
  });

  it('treats a market item with a price above 0 as paid', () => {
    expect(slugs(applyFilters(items, filters({ price: 'paid' })))).toEqual(['paid']);
  });

  it('never lets a non-market item through a price filter', () => {
    for (const price of ['free', 'paid'] as const) {
      expect(slugs(applyFilters(items, filters({ price })))).not.toContain('tool');
      expect(slugs(applyFilters(items, filters({ price })))).not.toContain('blog');
    }
  });
});

describe('applyFilters: combinations', () => {
  const items = [
    makeMarket({ slug: 'free-seo', title: 'SEO kit', tags: ['SEO'] }),
    makeMarket({ slug: 'paid-seo', title: 'SEO pro kit', tags: ['SEO'], price: 49 }),
    makeMarket({ slug: 'paid-ai', title: 'AI kit', tags: ['AI'], price: 19 }),
  ];

  it('requires every active filter to match (AND)', () => {
    expect(slugs(applyFilters(items, filters({ q: 'kit', category: 'seo', price: 'paid' })))).toEqual(['paid-seo']);
  });

  it('returns nothing when filters contradict each other', () => {
    expect(applyFilters(items, filters({ q: 'AI', category: 'SEO' }))).toEqual([]);
  });

  it('returns every item when no filter is active', () => {
    expect(applyFilters(items, EMPTY_FILTERS)).toEqual(items);
  });
});

describe('tagOverflow', () => {
  it.each([
    { tags: [], shown: [], hidden: 0 },
    { tags: ['a', 'b', 'c'], shown: ['a', 'b', 'c'], hidden: 0 },
    { tags: ['a', 'b', 'c', 'd'], shown: ['a', 'b', 'c'], hidden: 1 },
    { tags: ['a', 'b', 'c', 'd', 'e', 'f', 'g'], shown: ['a', 'b', 'c'], hidden: 4 },
  ])('shows at most three of $tags.length tags and counts $hidden hidden', ({ tags, shown, hidden }) => {
    expect(tagOverflow(tags)).toEqual({ shown, hidden });
  });

  it('honours a custom maximum', () => {
    expect(tagOverflow(['a', 'b', 'c'], 1)).toEqual({ shown: ['a'], hidden: 2 });
  });
});

describe('tagOptions', () => {
  it('lists the most used tags first, then alphabetically', () => {
    const items = [makeBlog({ tags: ['Zeta', 'SEO'] }), makeBlog({ tags: ['SEO', 'Alpha'] }), makeBlog({ tags: ['Beta', 'Zeta', 'SEO'] })];
    expect(tagOptions(items)).toEqual(['SEO', 'Zeta', 'Alpha', 'Beta']);
  });

  it('counts a tag repeated within one item once', () => {
    const items = [makeBlog({ tags: ['B', 'B', 'B'] }), makeBlog({ tags: ['A'] }), makeBlog({ tags: ['A'] })];
    expect(tagOptions(items)).toEqual(['A', 'B']);
  });

  it('returns no options for items without tags', () => {
    expect(tagOptions([makeBlog(), makeCourse()])).toEqual([]);
  });
});

describe('parseFilters', () => {
  const ALL: ListFilterKind[] = ['search', 'tag', 'category', 'skillLevel', 'price'];

  it('reads every supported kind from its query key', () => {
    const params = new URLSearchParams('q=seo&tag=AI&category=Local&level=advanced&price=paid');
    expect(parseFilters(params, ALL)).toEqual({ q: 'seo', tag: 'AI', category: 'Local', level: 'advanced', price: 'paid' });
  });

  it('ignores keys for kinds the list does not support', () => {
    const params = new URLSearchParams('q=seo&tag=AI&category=Local&level=advanced&price=paid');
    expect(parseFilters(params, ['search', 'tag'])).toEqual(filters({ q: 'seo', tag: 'AI' }));
    expect(parseFilters(params, [])).toEqual(EMPTY_FILTERS);
  });

  it.each(['cheap', 'FREE', ' paid', ''])('drops the unknown price value %j', (price) => {
    expect(parseFilters(new URLSearchParams({ price }), ['price']).price).toBe('');
  });

  it('caps each value at 100 characters', () => {
    const long = 'x'.repeat(250);
    const parsed = parseFilters(new URLSearchParams({ q: long, tag: long }), ALL);
    expect(parsed.q).toBe('x'.repeat(100));
    expect(parsed.tag).toBe('x'.repeat(100));
  });

  it('returns the empty filters for an empty query', () => {
    expect(parseFilters(new URLSearchParams(), ALL)).toEqual(EMPTY_FILTERS);
  });
});

describe('filtersToQuery', () => {
  it('returns an empty string when no filter is set', () => {
    expect(filtersToQuery(EMPTY_FILTERS)).toBe('');
    expect(filtersToQuery(filters({ q: '   ' }))).toBe('');
  });

  it('writes only the active filters', () => {
    expect(filtersToQuery(filters({ q: 'seo', price: 'free' }))).toBe('?q=seo&price=free');
  });

  it('keeps unrelated query parameters and removes filters that are now empty', () => {
    const base = new URLSearchParams('page=2&tag=old&utm_source=mail');
    expect(filtersToQuery(filters({ category: 'SEO' }), base)).toBe('?page=2&utm_source=mail&category=SEO');
  });

  it('does not change the base parameters it was given', () => {
    const base = new URLSearchParams('tag=old');
    filtersToQuery(EMPTY_FILTERS, base);
    expect(base.toString()).toBe('tag=old');
  });

  it('round-trips through parseFilters', () => {
    const original = filters({ q: 'local seo & more', tag: 'Growth hacks', category: 'AI/ML', level: 'advanced', price: 'paid' });
    const query = filtersToQuery(original);
    expect(parseFilters(new URLSearchParams(query), ['search', 'tag', 'category', 'skillLevel', 'price'])).toEqual(original);
  });
});

describe('toggleValue', () => {
  it('clears the filter when the active value is chosen again, ignoring case', () => {
    expect(toggleValue('SEO', 'SEO')).toBe('');
    expect(toggleValue('seo', 'SEO')).toBe('');
  });

  it('switches to the chosen value otherwise', () => {
    expect(toggleValue('', 'SEO')).toBe('SEO');
    expect(toggleValue('AI', 'SEO')).toBe('SEO');
  });
});

describe('hasActiveFilters', () => {
  it('is false for the empty filters and a whitespace-only query', () => {
    expect(hasActiveFilters(EMPTY_FILTERS)).toBe(false);
    expect(hasActiveFilters(filters({ q: '  ' }))).toBe(false);
  });

  it.each<Partial<ListFilters>>([{ q: 'x' }, { tag: 'x' }, { category: 'x' }, { level: 'beginner' }, { price: 'free' }])(
    'is true when %o is set',
    (active) => {
      expect(hasActiveFilters(filters(active))).toBe(true);
    },
  );
});
