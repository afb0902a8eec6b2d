import { describe, expect, it } from 'vitest';
import { toPublicItem } from './public.ts';
import { PublicItemSchema, type BlogItem, type ContentItem, type CourseItem, type MarketItem, type ToolItem } from './schema.ts';

const SECRET = 'GATED-7c1e';

const base = {
  title: 'An item',
  description: 'An item with gated fields.',
  tags: ['SEO', 'Growth'],
  accessLevel: 'premium' as const,
  media: [{ url: '/media/cover.jpg', type: 'image' as const, alt: 'Cover' }],
  source: 'mdx' as const,
};

function makeBlogItem(overrides: Partial<BlogItem> = {}): BlogItem {
  return {
    ...base,
    id: 'a-blog',
    slug: 'a-blog',
    type: 'blog',
    publishedDate: '2026-03-04',
    author: 'Beacon Growth Team',
    content: `Article body ${SECRET}`,
    contentFormat: 'mdx',
    ...overrides,
  };
}

function makeCourseItem(overrides: Partial<CourseItem> = {}): CourseItem {
  return {
    ...base,
    id: 'a-course',
    slug: 'a-course',
    type: 'course',
    duration: '2 weeks',
    skillLevel: 'intermediate',
    sections: [
      {
        id: 'start',
        title: 'Start',
        lessons: [
          {
            id: 'first',
            title: 'First lesson',
            content: `Lesson body ${SECRET}`,
            media: [{ url: `videos/${SECRET}.mp4`, type: 'video' }],
            downloadables: [{ name: 'Workbook', url: `downloads/${SECRET}.pdf` }],
          },
        ],
      },
    ],
    ...overrides,
  };
}

function makeToolItem(overrides: Partial<ToolItem> = {}): ToolItem {
  return {
    ...base,
    id: 'a-tool',
    slug: 'a-tool',
    type: 'tool',
    updatedAt: '2026-03-04',
    downloadUrl: `downloads/${SECRET}.zip`,
    ...overrides,
  };
}

function makeMarketItem(overrides: Partial<MarketItem> = {}): MarketItem {
  return {
    ...base,
    id: 'a-market-item',
    slug: 'a-market-item',
    type: 'market',
    fileType: 'PDF',
    downloadUrl: `downloads/${SECRET}.pdf`,
    ...overrides,
  };
}

const FULL_ITEMS: ContentItem[] = [makeBlogItem(), makeCourseItem(), makeToolItem(), makeMarketItem()];
const GATED_KEYS = ['content', 'contentFormat', 'downloadUrl', 'source', 'downloadables'];

/** Every key anywhere in a JSON value. */
function allKeys(value: unknown): string[] {
  if (Array.isArray(value)) return value.flatMap(allKeys);
  if (value && typeof value === 'object') {
    return Object.entries(value).flatMap(([k, v]) => [k, ...allKeys(v)]);
  }
  return [];
}

describe('toPublicItem', () => {
  it.each(FULL_ITEMS.map((item) => [item.type, item] as const))('turns a full %s into a valid public item', (_type, item) => {
    expect(PublicItemSchema.safeParse(toPublicItem(item)).success).toBe(true);
  });

  it.each(FULL_ITEMS.map((item) => [item.type, item] as const))('leaves out every gated field of a %s', (_type, item) => {
    const out = toPublicItem(item);
    expect(JSON.stringify(out)).not.toContain(SECRET);
    expect(allKeys(out).filter((k) => GATED_KEYS.includes(k))).toEqual([]);
  });

  it('keeps the public fields of a blog', () => {
    expect(toPublicItem(makeBlogItem())).toEqual({
      id: 'a-blog',
      slug: 'a-blog',
      type: 'blog',
      title: base.title,
      description: base.description,
      tags: base.tags,
      accessLevel: 'premium',
      media: base.media,
      publishedDate: '2026-03-04',
      author: 'Beacon Growth Team',
    });
  });

  it('keeps the course outline with lesson ids and titles only', () => {
    const out = toPublicItem(makeCourseItem());
    expect(out).toMatchObject({ duration: '2 weeks', skillLevel: 'intermediate' });
    expect(out.type === 'course' && out.sections).toEqual([
      { id: 'start', title: 'Start', lessons: [{ id: 'first', title: 'First lesson' }] },
    ]);
  });

  it('omits externalLink and price when they are absent', () => {
    expect(toPublicItem(makeToolItem())).not.toHaveProperty('externalLink');
    const market = toPublicItem(makeMarketItem());
    expect(market).not.toHaveProperty('externalLink');
    expect(market).not.toHaveProperty('price');
  });

  it('keeps externalLink and price when they are present, including a price of 0', () => {
    expect(toPublicItem(makeToolItem({ externalLink: 'https://example.com/tool' }))).toMatchObject({
      externalLink: 'https://example.com/tool',
    });
    expect(toPublicItem(makeMarketItem({ price: 49, externalLink: 'https://example.com/shop' }))).toMatchObject({
      price: 49,
      externalLink: 'https://example.com/shop',
    });
    expect(toPublicItem(makeMarketItem({ price: 0 }))).toMatchObject({ price: 0 });
  });

  it('does not share tags or media with the input', () => {
    const input = makeBlogItem();
    const out = toPublicItem(input);
    out.tags.push('Injected');
    out.media.push({ url: '/media/other.jpg', type: 'image' });
    out.media[0]!.alt = 'Changed';
    expect(input.tags).toEqual(['SEO', 'Growth']);
    expect(input.media).toEqual([{ url: '/media/cover.jpg', type: 'image', alt: 'Cover' }]);
  });

  it('does not share course sections or lessons with the input', () => {
    const input = makeCourseItem();
    const out = toPublicItem(input);
    if (out.type !== 'course') throw new Error('expected a course');
    out.sections[0]!.lessons.push({ id: 'extra', title: 'Extra' });
    out.sections[0]!.title = 'Changed';
    expect(input.sections[0]?.title).toBe('Start');
    expect(input.sections[0]?.lessons).toHaveLength(1);
  });
});
