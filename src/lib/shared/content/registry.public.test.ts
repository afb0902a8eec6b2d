/**
 * The public projection: what a visitor may see of each type. The gated-field checks are derived from
 * the registry, so a new type or a new gated field is covered without editing them.
 */
import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { schemaAt } from './content-type.ts';
import {
  CONTENT_REGISTRY,
  CONTENT_TYPES,
  PublicItemSchema,
  toPublicItem,
  type BlogItem,
  type ContentItem,
  type ContentItemOf,
  type ContentType,
  type CourseItem,
  type EventItem,
  type MarketItem,
  type ToolItem,
} from './registry.ts';

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

function makeEventItem(overrides: Partial<EventItem> = {}): EventItem {
  return {
    ...base,
    id: 'an-event',
    slug: 'an-event',
    type: 'event',
    startsAt: '2027-05-12T14:00:00.000Z',
    localStart: '2027-05-12T15:00',
    timeZone: 'Europe/London',
    durationMinutes: 60,
    host: 'Beacon Growth Team',
    format: 'online',
    joinUrl: `https://meet.example/${SECRET}`,
    recordingUrl: `https://video.example/${SECRET}`,
    cancelled: false,
    content: 'What the event is about.',
    contentFormat: 'mdx',
    ...overrides,
  };
}

/** One full item per type; typed so that a new type needs its builder here before the suite compiles. */
const BUILDERS: { [T in ContentType]: () => ContentItemOf<T> } = {
  blog: makeBlogItem,
  course: makeCourseItem,
  tool: makeToolItem,
  market: makeMarketItem,
  event: makeEventItem,
};

const FULL_ITEMS: ContentItem[] = CONTENT_TYPES.map((type) => BUILDERS[type]());
const GATED_KEYS = ['content', 'contentFormat', 'downloadUrl', 'source', 'downloadables', 'joinUrl', 'recordingUrl'];

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

  it("keeps an event's public facts and says whether a recording exists, never where", () => {
    expect(toPublicItem(makeEventItem())).toEqual({
      id: 'an-event',
      slug: 'an-event',
      type: 'event',
      title: base.title,
      description: base.description,
      tags: base.tags,
      accessLevel: 'premium',
      media: base.media,
      startsAt: '2027-05-12T14:00:00.000Z',
      localStart: '2027-05-12T15:00',
      timeZone: 'Europe/London',
      durationMinutes: 60,
      host: 'Beacon Growth Team',
      format: 'online',
      cancelled: false,
      hasRecording: true,
    });
    expect(toPublicItem(makeEventItem({ recordingUrl: undefined }))).toMatchObject({ hasRecording: false });
    const inPerson = toPublicItem(makeEventItem({ format: 'in-person', joinUrl: undefined, address: '1 Harbor Way', capacity: 30 }));
    expect(inPerson).toMatchObject({ address: '1 Harbor Way', capacity: 30 });
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

type Def = {
  type: string;
  innerType?: z.ZodType;
  element?: z.ZodType;
  shape?: Record<string, z.ZodType>;
  entries?: Record<string, string>;
  values?: unknown[];
  options?: z.ZodType[];
};

/** A valid value for `schema` with `text` in every string, so that a leak of any part shows. */
function sample(schema: z.core.$ZodType, text: string): unknown {
  const def = schema._zod.def as unknown as Def;
  switch (def.type) {
    case 'string':
      return text;
    case 'number':
      return 1;
    case 'boolean':
      return true;
    case 'enum':
      return Object.values(def.entries ?? {})[0];
    case 'literal':
      return def.values?.[0];
    case 'array':
      return [sample(def.element!, text)];
    case 'object':
      return Object.fromEntries(Object.entries(def.shape ?? {}).map(([k, v]) => [k, sample(v, text)]));
    case 'optional':
    case 'default':
    case 'nullable':
      return sample(def.innerType!, text);
    case 'union':
      return sample(def.options![0]!, text);
    default:
      throw new Error(`sample() does not know zod "${def.type}" schemas yet`);
  }
}

/** Sets the field at a dotted path in every element of the arrays along it (missing parents are made). */
function setAt(value: unknown, [key, ...rest]: string[], make: () => unknown): void {
  if (Array.isArray(value)) return value.forEach((v) => setAt(v, [key!, ...rest], make));
  const record = value as Record<string, unknown>;
  if (rest.length === 0) record[key!] = make();
  else setAt((record[key!] ??= {}), rest, make);
}

/** A valid full item of `type` with a distinct marker in every string of every gated field. */
function itemWithMarkedGatedFields(type: ContentType) {
  const entry = CONTENT_REGISTRY[type];
  const item = structuredClone(BUILDERS[type]()) as ContentItem;
  const markers = entry.gated.map((path, i) => {
    const marker = `https://gated.example/marker-${i}`;
    setAt(item, path.split('.'), () => sample(schemaAt(entry.fields, path)!, marker));
    return { path, marker };
  });
  return { item: entry.item.parse(item) as ContentItem, markers };
}

describe.each(CONTENT_TYPES)('the %s gated fields', (type) => {
  const entry = CONTENT_REGISTRY[type];

  it.each(entry.gated.map((p) => [p]))('has %s among its full fields and not among its public ones', (path) => {
    expect(schemaAt(entry.fields, path)).toBeDefined();
    expect(schemaAt(entry.item, path)).toBeDefined();
    expect(schemaAt(entry.publicFields, path)).toBeUndefined();
    expect(schemaAt(entry.public, path)).toBeUndefined();
    expect(schemaAt(entry.publicStrict, path)).toBeUndefined();
  });

  it('never reach the public item, whatever they hold', () => {
    const { item, markers } = itemWithMarkedGatedFields(type);
    const full = JSON.stringify(item);
    for (const { path, marker } of markers) expect(full, `marker of ${path} in the full item`).toContain(marker);
    const out = JSON.stringify(toPublicItem(item));
    expect(out).not.toContain('gated.example');
    expect(PublicItemSchema.safeParse(JSON.parse(out)).success).toBe(true);
  });

  it.each(entry.gated.map((p) => [p]))('make the strict public schema refuse a public item carrying %s', (path) => {
    const leaky = toPublicItem(itemWithMarkedGatedFields(type).item);
    setAt(leaky, path.split('.'), () => sample(schemaAt(entry.fields, path)!, 'https://leak.example/x'));
    expect(JSON.stringify(leaky)).toContain('leak.example');
    expect(PublicItemSchema.safeParse(leaky).success).toBe(false);
  });
});

describe('the builders', () => {
  it('cover every type in the registry', () => {
    expect(Object.keys(BUILDERS).sort()).toEqual([...CONTENT_TYPES].sort());
  });

  it.each(CONTENT_TYPES)('make a valid full %s', (type) => {
    expect(CONTENT_REGISTRY[type].item.safeParse(BUILDERS[type]()).success).toBe(true);
  });
});

describe('PublicItemSchema', () => {
  const blog = {
    id: 'a-blog',
    slug: 'a-blog',
    type: 'blog',
    title: 'A blog',
    description: 'A public blog item.',
    tags: [],
    accessLevel: 'premium',
    media: [],
    publishedDate: '2026-03-04',
    author: 'Beacon Growth Team',
  };

  const course = {
    id: 'a-course',
    slug: 'a-course',
    type: 'course',
    title: 'A course',
    description: 'A public course item.',
    tags: [],
    accessLevel: 'free',
    media: [],
    duration: '2 weeks',
    skillLevel: 'beginner',
    sections: [{ id: 's', title: 'Section', lessons: [{ id: 'l', title: 'Lesson' }] }],
  };

  it('accepts a public blog and a public course', () => {
    expect(PublicItemSchema.safeParse(blog).success).toBe(true);
    expect(PublicItemSchema.safeParse(course).success).toBe(true);
  });

  it('rejects a blog carrying its gated content', () => {
    expect(PublicItemSchema.safeParse({ ...blog, content: 'secret body' }).success).toBe(false);
  });

  it('rejects a course whose lesson carries its content', () => {
    const leaky = {
      ...course,
      sections: [{ id: 's', title: 'Section', lessons: [{ id: 'l', title: 'Lesson', content: 'secret' }] }],
    };
    expect(PublicItemSchema.safeParse(leaky).success).toBe(false);
  });

  it('rejects a tool carrying its download URL', () => {
    const { publishedDate: _p, author: _a, ...shared } = blog;
    const publicTool = { ...shared, type: 'tool', updatedAt: '2026-03-04' };
    expect(PublicItemSchema.safeParse(publicTool).success).toBe(true);
    expect(PublicItemSchema.safeParse({ ...publicTool, downloadUrl: 'downloads/kit.zip' }).success).toBe(false);
  });

  it('rejects a date with a time part', () => {
    expect(PublicItemSchema.safeParse({ ...blog, publishedDate: '2026-03-04T00:00:00Z' }).success).toBe(false);
  });
});
