import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  PublicItemSchema,
  sortItems,
  type BlogItem,
  type ContentItem,
  type ContentType,
  type EventItem,
  type ToolItem,
} from '#shared/content/registry.ts';
import { createPublicContentCache } from './cache.ts';
import { renderHere } from './render.ts';
import type { ContentService } from './service.ts';

const SECRET = 'GATED-91b2';

function makeBlogItem(overrides: Partial<BlogItem> = {}): BlogItem {
  const slug = overrides.slug ?? 'a-blog';
  return {
    id: slug,
    slug,
    type: 'blog',
    title: 'A blog',
    description: 'A blog article for the cache tests.',
    tags: ['SEO'],
    accessLevel: 'premium',
    media: [],
    publishedDate: '2026-03-04',
    author: 'Beacon Growth Team',
    content: `Body ${SECRET}`,
    contentFormat: 'mdx',
    source: 'mdx',
    ...overrides,
  };
}

function makeToolItem(overrides: Partial<ToolItem> = {}): ToolItem {
  const slug = overrides.slug ?? 'a-tool';
  return {
    id: slug,
    slug,
    type: 'tool',
    title: 'A tool',
    description: 'A tool for the cache tests.',
    tags: [],
    accessLevel: 'free',
    media: [],
    updatedAt: '2026-03-04',
    downloadUrl: `downloads/${SECRET}.zip`,
    source: 'db',
    ...overrides,
  };
}

/**
 * A stand-in for the content service: serves `items`, counts calls, and lets a test fail the next
 * loads or announce a change.
 */
function makeFakeService(initial: ContentItem[] = [makeBlogItem(), makeToolItem()]) {
  const listeners = new Set<(type: ContentType) => void>();
  const fake = {
    items: initial,
    calls: { list: 0, get: 0 },
    failNext: 0,
    async list(type: ContentType, now = Date.now()): Promise<ContentItem[]> {
      fake.calls.list++;
      await Promise.resolve();
      if (fake.failNext > 0 && fake.failNext--) throw new Error('database down');
      return sortItems(
        fake.items.filter((i) => i.type === type),
        now,
      );
    },
    async get(type: ContentType, slug: string): Promise<ContentItem | undefined> {
      fake.calls.get++;
      await Promise.resolve();
      if (fake.failNext > 0 && fake.failNext--) throw new Error('database down');
      return fake.items.find((i) => i.type === type && i.slug === slug);
    },
    onChange(listener: (type: ContentType) => void): () => void {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    emit(type: ContentType) {
      listeners.forEach((fn) => fn(type));
    },
  };
  return fake;
}

function setup(items?: ContentItem[]) {
  const service = makeFakeService(items);
  const cache = createPublicContentCache(service as unknown as ContentService, { render: renderHere() });
  return { service, cache };
}

describe('public content cache: lists', () => {
  it('loads a list once for repeated calls', async () => {
    const { service, cache } = setup();
    const first = await cache.listEntry('blog');
    const second = await cache.listEntry('blog');
    expect(second).toBe(first);
    expect(service.calls.list).toBe(1);
  });

  it('shares one load between concurrent calls', async () => {
    const { service, cache } = setup();
    const entries = await Promise.all([cache.listEntry('blog'), cache.listEntry('blog'), cache.listEntry('blog')]);
    expect(new Set(entries).size).toBe(1);
    expect(service.calls.list).toBe(1);
  });

  it('keeps one entry per type', async () => {
    const { service, cache } = setup();
    const blogs = await cache.listEntry('blog');
    const tools = await cache.listEntry('tool');
    expect(blogs.value).toHaveLength(1);
    expect(tools.value).toHaveLength(1);
    expect(blogs.answer.etag).not.toBe(tools.answer.etag);
    expect(service.calls.list).toBe(2);
  });

  it('reloads after clear()', async () => {
    const { service, cache } = setup();
    await cache.listEntry('blog');
    cache.clear();
    await cache.listEntry('blog');
    expect(service.calls.list).toBe(2);
  });

  it('reloads after the service announces a change', async () => {
    const { service, cache } = setup();
    await cache.listEntry('blog');
    await cache.itemEntry('blog', 'a-blog');
    service.emit('tool');
    await cache.listEntry('blog');
    await cache.itemEntry('blog', 'a-blog');
    expect(service.calls).toEqual({ list: 2, get: 2 });
  });

  it('does not keep a load that was in flight when a change arrived', async () => {
    const { service, cache } = setup();
    const stale = cache.listEntry('blog');
    service.emit('blog');
    const fresh = cache.listEntry('blog');
    expect(fresh).not.toBe(stale);
    await Promise.all([stale, fresh]);
    expect(await cache.listEntry('blog')).toBe(await fresh);
    expect(service.calls.list).toBe(2);
  });

  it('does not keep a failed load', async () => {
    const { service, cache } = setup();
    service.failNext = 1;
    await expect(cache.listEntry('blog')).rejects.toThrow('database down');
    const entry = await cache.listEntry('blog');
    expect(entry.value).toHaveLength(1);
    expect(service.calls.list).toBe(2);
  });

  it('gives the same ETag for the same items', async () => {
    const { service, cache } = setup();
    const before = (await cache.listEntry('blog')).answer;
    cache.clear();
    const after = (await cache.listEntry('blog')).answer;
    expect(service.calls.list).toBe(2);
    expect(after.etag).toBe(before.etag);
    expect(after.etag).toMatch(/^"[A-Za-z0-9_-]+"$/);
  });

  it('gives a new ETag when the items change', async () => {
    const { service, cache } = setup();
    const before = (await cache.listEntry('blog')).answer;
    service.items = [makeBlogItem({ title: 'A renamed blog' }), makeToolItem()];
    service.emit('blog');
    const after = (await cache.listEntry('blog')).answer;
    expect(after.etag).not.toBe(before.etag);
    expect(JSON.parse(after.body)).toMatchObject([{ title: 'A renamed blog' }]);
  });
});

describe('public content cache: details', () => {
  it('loads a known item once', async () => {
    const { service, cache } = setup();
    const first = await cache.itemEntry('blog', 'a-blog');
    const second = await cache.itemEntry('blog', 'a-blog');
    expect(second).toBe(first);
    expect(first?.value).toMatchObject({ slug: 'a-blog' });
    expect(service.calls.get).toBe(1);
  });

  it('asks the service again for each miss on an unknown slug', async () => {
    const { service, cache } = setup();
    expect(await cache.itemEntry('blog', 'missing')).toBeUndefined();
    expect(await cache.itemEntry('blog', 'missing')).toBeUndefined();
    expect(service.calls.get).toBe(2);
  });

  it('finds an item that appears after a miss', async () => {
    const { service, cache } = setup();
    expect(await cache.itemEntry('blog', 'late')).toBeUndefined();
    service.items = [...service.items, makeBlogItem({ slug: 'late' })];
    expect((await cache.itemEntry('blog', 'late'))?.value).toMatchObject({ slug: 'late' });
  });

  it('does not keep a failed load', async () => {
    const { service, cache } = setup();
    service.failNext = 1;
    await expect(cache.itemEntry('blog', 'a-blog')).rejects.toThrow('database down');
    expect(await cache.itemEntry('blog', 'a-blog')).toBeDefined();
  });

  it('keys details by type and slug', async () => {
    const { cache } = setup([makeBlogItem({ slug: 'same' }), makeToolItem({ slug: 'same' })]);
    expect((await cache.itemEntry('blog', 'same'))?.value).toMatchObject({ type: 'blog' });
    expect((await cache.itemEntry('tool', 'same'))?.value).toMatchObject({ type: 'tool' });
  });
});

describe('cached answers', () => {
  it.each([
    ['br', brotliDecompressSync],
    ['gzip', gunzipSync],
  ] as const)('%s bytes decompress to the JSON body', async (encoding, decompress) => {
    const { cache } = setup([makeBlogItem({ description: 'Long text. '.repeat(200) })]);
    const { answer } = await cache.listEntry('blog');
    const bytes = answer.encoded(encoding);
    expect(bytes.length).toBeLessThan(answer.body.length);
    expect(decompress(bytes).toString('utf8')).toBe(answer.body);
    expect(answer.encoded(encoding)).toBe(bytes);
  });

  it('serialises public items only', async () => {
    const { cache } = setup();
    const { answer } = await cache.listEntry('tool');
    expect(answer.body).not.toContain(SECRET);
    expect(PublicItemSchema.array().parse(JSON.parse(answer.body))).toHaveLength(1);
  });
});

describe('reader', () => {
  it('lists public items without gated fields', async () => {
    const { cache } = setup();
    const blogs = await cache.reader.list('blog');
    expect(blogs.map((b) => PublicItemSchema.safeParse(b).success)).toEqual([true]);
    expect(JSON.stringify(blogs)).not.toContain(SECRET);
    expect(blogs[0]).not.toHaveProperty('content');
    expect(blogs[0]).not.toHaveProperty('source');
  });

  it('gets a public item without gated fields, or undefined', async () => {
    const { cache } = setup();
    const tool = await cache.reader.get('tool', 'a-tool');
    expect(PublicItemSchema.safeParse(tool).success).toBe(true);
    expect(tool).not.toHaveProperty('downloadUrl');
    expect(await cache.reader.get('tool', 'missing')).toBeUndefined();
  });

  it('uses the cache', async () => {
    const { service, cache } = setup();
    await cache.reader.list('blog');
    await cache.listEntry('blog');
    expect(service.calls.list).toBe(1);
  });
});

function makeEventItem(slug: string, startsAt: string, durationMinutes: number): EventItem {
  return {
    id: slug,
    slug,
    type: 'event',
    title: slug,
    description: 'An event for the cache tests.',
    tags: [],
    accessLevel: 'premium',
    media: [],
    startsAt,
    localStart: startsAt.slice(0, 16),
    timeZone: 'UTC',
    durationMinutes,
    host: 'Beacon Growth Team',
    format: 'online',
    joinUrl: `https://meet.example/${SECRET}`,
    cancelled: false,
    content: '',
    contentFormat: 'mdx',
    source: 'db',
  };
}

describe('public content cache: a list whose order moves with the clock', () => {
  afterEach(() => vi.useRealTimers());

  const events = [makeEventItem('next-week', '2027-03-17T10:00:00.000Z', 60), makeEventItem('under-way', '2027-03-10T11:00:00.000Z', 120)];
  const slugs = (entry: { value: unknown[] }) => (entry.value as { slug: string }[]).map((e) => e.slug);

  it('keeps the list until the first upcoming event ends, then loads it in its new order', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date('2027-03-10T12:00:00Z'));
    const { service, cache } = setup(events);
    const first = await cache.listEntry('event');
    expect(slugs(first)).toEqual(['under-way', 'next-week']);
    expect(first.expiresAt).toBe(Date.parse('2027-03-10T13:00:00Z'));
    vi.setSystemTime(new Date('2027-03-10T12:59:59Z'));
    expect(cache.peekList('event')).toBe(first);
    expect(await cache.listEntry('event')).toBe(first);
    vi.setSystemTime(new Date('2027-03-10T13:00:00Z'));
    expect(cache.peekList('event')).toBeUndefined();
    const second = await cache.listEntry('event');
    expect(slugs(second)).toEqual(['next-week', 'under-way']);
    expect(second.answer.etag).not.toBe(first.answer.etag);
    expect(service.calls.list).toBe(2);
    expect(JSON.stringify(second.value)).not.toContain(SECRET);
  });

  it('never expires a list of a type ordered by date or title', async () => {
    const { cache } = setup();
    expect((await cache.listEntry('blog')).expiresAt).toBeUndefined();
  });
});
