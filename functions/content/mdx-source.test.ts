import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { ACCESS_LEVELS } from '#shared/access.ts';
import { MEDIA_TYPES } from '#shared/content/constants.ts';
import {
  CONTENT_REGISTRY,
  CONTENT_TYPES,
  type ContentItem,
  type ContentType,
  type CourseItem,
  type EventItem,
  type MarketItem,
} from '#shared/content/registry.ts';
import { ContentFileError, createMdxSource, parseContentFile, splitFrontmatter, type MdxSource } from './mdx-source.ts';

/** A Markdown file with `frontmatter` as YAML and `body` after it. */
function mdFile(frontmatter: Record<string, unknown>, body = 'Body text.'): string {
  return `---\n${stringify(frontmatter)}---\n\n${body}\n`;
}

const common = { title: 'A valid title', description: 'A description of at least ten characters.' };

const FRONTMATTER: Record<ContentType, Record<string, unknown>> = {
  blog: { ...common, publishedDate: '2026-03-14' },
  tool: { ...common, downloadUrl: 'downloads/kit.zip', updatedAt: '2026-02-01' },
  course: {
    ...common,
    duration: '2 weeks',
    skillLevel: 'beginner',
    sections: [{ id: 'start', title: 'Start', lessons: [{ id: 'one', title: 'One' }] }],
  },
  market: { ...common, fileType: 'PDF' },
  event: {
    ...common,
    startsAt: '2027-05-12T15:00',
    timeZone: 'Europe/London',
    durationMinutes: 60,
    format: 'online',
    joinUrl: 'https://meet.events.example/one',
  },
};

function makeFile(type: ContentType, overrides: Record<string, unknown> = {}, body?: string): string {
  return mdFile({ ...FRONTMATTER[type], ...overrides }, body);
}

/** Error thrown by `fn`, which must throw. */
function thrown(fn: () => unknown): Error {
  try {
    fn();
  } catch (err) {
    return err as Error;
  }
  throw new Error('expected a throw');
}

describe('splitFrontmatter', () => {
  it('returns empty data and the whole text when there is no frontmatter', () => {
    const text = '# Just Markdown\n\nNo frontmatter here.\n';
    expect(splitFrontmatter(text)).toEqual({ data: {}, body: text });
  });

  it('parses the YAML block and trims the body', () => {
    expect(splitFrontmatter('---\ntitle: Hello\ntags: [a, b]\n---\n\nThe body.\n\n')).toEqual({
      data: { title: 'Hello', tags: ['a', 'b'] },
      body: 'The body.',
    });
  });

  it('accepts Windows line endings', () => {
    expect(splitFrontmatter('---\r\ntitle: Hello\r\nauthor: Ann\r\n---\r\nThe body.\r\n')).toEqual({
      data: { title: 'Hello', author: 'Ann' },
      body: 'The body.',
    });
  });

  it('ignores a byte order mark before the frontmatter', () => {
    expect(splitFrontmatter('\uFEFF---\ntitle: Hello\n---\nThe body.')).toEqual({ data: { title: 'Hello' }, body: 'The body.' });
  });

  it('returns empty data for an empty YAML block', () => {
    expect(splitFrontmatter('---\n\n---\nThe body.')).toEqual({ data: {}, body: 'The body.' });
  });

  it('keeps a later "---" line inside the body', () => {
    expect(splitFrontmatter('---\ntitle: Hello\n---\nAbove\n\n---\n\nBelow')).toEqual({
      data: { title: 'Hello' },
      body: 'Above\n\n---\n\nBelow',
    });
  });
});

describe('parseContentFile', () => {
  it('takes the slug from the file name when the frontmatter has none', () => {
    const item = parseContentFile('blog', 'blog/local-seo-basics.mdx', makeFile('blog'));
    expect(item).toMatchObject({ slug: 'local-seo-basics', id: 'local-seo-basics' });
  });

  it('takes the slug from a .md file name too', () => {
    expect(parseContentFile('tool', 'tools/kit.md', makeFile('tool')).slug).toBe('kit');
  });

  it('prefers the frontmatter slug over the file name', () => {
    const item = parseContentFile('blog', 'blog/file-name.mdx', makeFile('blog', { slug: 'chosen-slug' }));
    expect(item).toMatchObject({ slug: 'chosen-slug', id: 'chosen-slug' });
  });

  it('normalises a blog article', () => {
    const item = parseContentFile('blog', 'blog/post.mdx', makeFile('blog', { tags: ['SEO'] }, 'Gated body.'));
    expect(item).toEqual({
      id: 'post',
      slug: 'post',
      type: 'blog',
      title: common.title,
      description: common.description,
      tags: ['SEO'],
      accessLevel: 'free',
      media: [],
      publishedDate: '2026-03-14',
      author: 'Beacon Growth Team',
      content: 'Gated body.',
      contentFormat: 'mdx',
      source: 'mdx',
    });
  });

  it('keeps an explicit author', () => {
    expect(parseContentFile('blog', 'blog/post.mdx', makeFile('blog', { author: 'Ann Lee' }))).toMatchObject({ author: 'Ann Lee' });
  });

  it('keeps a YAML date as the same calendar day', () => {
    // Unquoted, so YAML itself may read it as a timestamp.
    const text = '---\ntitle: Dated post\ndescription: A post with an unquoted date.\npublishedDate: 2026-01-01\n---\nBody';
    expect(parseContentFile('blog', 'blog/dated.md', text)).toMatchObject({ publishedDate: '2026-01-01' });
  });

  it('normalises a tool, a course and a market item', () => {
    expect(parseContentFile('tool', 'tools/kit.md', makeFile('tool'))).toMatchObject({
      type: 'tool',
      updatedAt: '2026-02-01',
      downloadUrl: 'downloads/kit.zip',
      source: 'mdx',
    });
    expect(parseContentFile('course', 'courses/c.md', makeFile('course'))).toMatchObject({
      type: 'course',
      sections: [{ id: 'start', lessons: [{ id: 'one', content: '', media: [], downloadables: [] }] }],
    });
    const market = parseContentFile('market', 'market/m.md', makeFile('market'));
    expect(market).toMatchObject({ type: 'market', fileType: 'PDF' });
    expect(market).not.toHaveProperty('price');
    expect(market).not.toHaveProperty('downloadUrl');
  });

  it('throws a ContentFileError naming the file and every bad field', () => {
    const error = thrown(() =>
      parseContentFile('blog', 'blog/bad.mdx', makeFile('blog', { title: 'ab', description: 'short', accessLevel: 'vip' })),
    );
    expect(error).toBeInstanceOf(ContentFileError);
    expect(error.message).toContain('blog/bad.mdx');
    for (const field of ['title', 'description', 'accessLevel']) expect(error.message).toContain(`${field}:`);
  });

  it('names the missing required fields of a file without frontmatter', () => {
    const error = thrown(() => parseContentFile('tool', 'tools/empty.md', 'No frontmatter at all.'));
    expect(error).toBeInstanceOf(ContentFileError);
    for (const field of ['title', 'description', 'downloadUrl', 'updatedAt']) expect(error.message).toContain(`${field}:`);
  });

  it.each(CONTENT_TYPES)('refuses a %s file with a misspelt field, naming the file and the field', (type) => {
    const { title, ...rest } = FRONTMATTER[type];
    const file = `${CONTENT_REGISTRY[type].folder}/typo.md`;
    const error = thrown(() => parseContentFile(type, file, mdFile({ ...rest, titel: title })));
    expect(error).toBeInstanceOf(ContentFileError);
    expect(error.message).toContain(file);
    expect(error.message).toContain('titel: unknown field');
    expect(error.message).toContain('title:');
  });

  it('refuses a misspelt field deep inside a course, naming its path', () => {
    const sections = [{ id: 'start', title: 'Start', lessons: [{ id: 'one', title: 'One', contnet: 'Text' }] }];
    const error = thrown(() => parseContentFile('course', 'courses/typo.md', makeFile('course', { sections })));
    expect(error).toBeInstanceOf(ContentFileError);
    expect(error.message).toContain('courses/typo.md');
    expect(error.message).toContain('sections.0.lessons.0.contnet: unknown field');
  });

  it('throws a ContentFileError for invalid YAML', () => {
    const error = thrown(() => parseContentFile('blog', 'blog/broken.md', '---\ntitle: [unclosed\n  - : :\n---\nBody'));
    expect(error).toBeInstanceOf(ContentFileError);
    expect(error.message).toContain('blog/broken.md');
    expect(error.message).toMatch(/YAML/);
  });

  it('rejects a file name that is not a valid slug', () => {
    const error = thrown(() => parseContentFile('blog', 'blog/Bad Name.md', makeFile('blog')));
    expect(error).toBeInstanceOf(ContentFileError);
    expect(error.message).toContain('slug:');
  });
});

describe('createMdxSource on a folder', () => {
  let dir: string;

  async function write(file: string, text: string): Promise<void> {
    await mkdir(path.dirname(path.join(dir, file)), { recursive: true });
    await writeFile(path.join(dir, file), text);
  }

  async function makeFolder(files: Record<string, string>): Promise<void> {
    dir = await mkdtemp(path.join(os.tmpdir(), 'mdx-source-'));
    for (const [file, text] of Object.entries(files)) await write(file, text);
  }

  afterEach(async () => {
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  const slugs = (source: MdxSource, type: ContentType) => source.list(type).map((i) => i.slug);

  it('reads the blog, tools, courses and market folders', async () => {
    await makeFolder({
      'blog/post.mdx': makeFile('blog'),
      'tools/kit.md': makeFile('tool'),
      'courses/course.mdx': makeFile('course'),
      'market/bundle.md': makeFile('market'),
      'events/webinar.mdx': makeFile('event'),
    });
    const source = await createMdxSource(dir);
    expect(Object.fromEntries(CONTENT_TYPES.map((t) => [t, slugs(source, t)]))).toEqual({
      blog: ['post'],
      tool: ['kit'],
      course: ['course'],
      market: ['bundle'],
      event: ['webinar'],
    });
    expect(source.list('tool')[0]?.type).toBe('tool');
  });

  it('ignores files starting with "_" and files that are not .md or .mdx', async () => {
    await makeFolder({
      'blog/post.md': makeFile('blog'),
      'blog/_draft.mdx': makeFile('blog'),
      'blog/notes.txt': 'not content',
      'blog/data.json': '{}',
      'blog/post.md.bak': makeFile('blog'),
    });
    expect(slugs(await createMdxSource(dir), 'blog')).toEqual(['post']);
  });

  it('reads files in sub-folders', async () => {
    await makeFolder({ 'blog/2026/nested.md': makeFile('blog') });
    expect(slugs(await createMdxSource(dir), 'blog')).toEqual(['nested']);
  });

  it('returns empty lists when the folders do not exist', async () => {
    await makeFolder({});
    const source = await createMdxSource(dir);
    for (const type of CONTENT_TYPES) expect(source.list(type)).toEqual([]);
  });

  it('rejects two files of one type with the same slug', async () => {
    await makeFolder({
      'blog/first.md': makeFile('blog', { slug: 'same' }),
      'blog/second.md': makeFile('blog', { slug: 'same' }),
    });
    const error = await createMdxSource(dir).catch((err: unknown) => err as Error);
    expect(error).toBeInstanceOf(ContentFileError);
    expect((error as Error).message).toContain('"same"');
  });

  it('allows the same slug in two different types', async () => {
    await makeFolder({ 'blog/same.md': makeFile('blog'), 'tools/same.md': makeFile('tool') });
    const source = await createMdxSource(dir);
    expect(source.has('blog', 'same') && source.has('tool', 'same')).toBe(true);
  });

  it('rejects a folder holding an invalid file', async () => {
    await makeFolder({ 'market/bad.md': makeFile('market', { price: -5 }) });
    await expect(createMdxSource(dir)).rejects.toThrow(/market[\\/]bad\.md[\s\S]*price:/);
  });

  it('refuses to start on a file with a misspelt field', async () => {
    await makeFolder({ 'tools/kit.md': makeFile('tool', { downloadURL: 'downloads/kit.zip' }) });
    await expect(createMdxSource(dir)).rejects.toThrow(/tools[\\/]kit\.md[\s\S]*downloadURL: unknown field/);
  });

  it('sorts blog articles newest first and market items by title', async () => {
    await makeFolder({
      'blog/old.md': makeFile('blog', { publishedDate: '2024-05-01' }),
      'blog/new.md': makeFile('blog', { publishedDate: '2026-05-01' }),
      'blog/mid.md': makeFile('blog', { publishedDate: '2025-05-01' }),
      'market/a.md': makeFile('market', { title: 'Zebra kit' }),
      'market/b.md': makeFile('market', { title: 'Alpha kit' }),
    });
    const source = await createMdxSource(dir);
    expect(slugs(source, 'blog')).toEqual(['new', 'mid', 'old']);
    expect(slugs(source, 'market')).toEqual(['b', 'a']);
  });

  it('finds items by slug with get and has', async () => {
    await makeFolder({ 'blog/post.md': makeFile('blog', { title: 'Found me' }) });
    const source = await createMdxSource(dir);
    expect(source.get('blog', 'post')?.title).toBe('Found me');
    expect(source.has('blog', 'post')).toBe(true);
    expect(source.get('blog', 'missing')).toBeUndefined();
    expect(source.has('blog', 'missing')).toBe(false);
    expect(source.has('tool', 'post')).toBe(false);
  });

  it('picks up a new file on reload', async () => {
    await makeFolder({ 'blog/first.md': makeFile('blog') });
    const source = await createMdxSource(dir);
    await write('blog/second.md', makeFile('blog'));
    expect(source.has('blog', 'second')).toBe(false);
    await source.reload();
    expect(slugs(source, 'blog').sort()).toEqual(['first', 'second']);
  });

  it('returns a copy of the list', async () => {
    await makeFolder({ 'blog/post.md': makeFile('blog') });
    const source = await createMdxSource(dir);
    (source.list('blog') as ContentItem[]).pop();
    expect(slugs(source, 'blog')).toEqual(['post']);
  });
});

/**
 * The repository's sample content: the site's pages and the leak tests rely on these properties.
 */
describe('the repository content folder', () => {
  const ROOT = path.resolve(import.meta.dirname, '../..');
  const CONTENT_DIR = path.join(ROOT, 'content');
  const SENTINEL = 'PREMIUM-SENTINEL-7f3a';
  let source: MdxSource;
  let all: ContentItem[];

  beforeAll(async () => {
    source = await createMdxSource(CONTENT_DIR);
    all = CONTENT_TYPES.flatMap((t) => source.list(t));
  });

  const courses = () => source.list('course') as CourseItem[];
  const lessons = () => courses().flatMap((c) => c.sections.flatMap((s) => s.lessons));
  const isHttps = (u: string) => u.startsWith('https://');

  // Events are four: one of each kind the pages show (free online, premium with seats, in person, past with a recording).
  it.each(CONTENT_TYPES)('has at least 6 %s items (events 4)', (type) => {
    expect(source.list(type).length, `${CONTENT_REGISTRY[type].folder}/`).toBeGreaterThanOrEqual(type === 'event' ? 4 : 6);
  });

  it('has the events the pages and the leak tests rely on, upcoming ones well after today (2026-11-25)', () => {
    const events = source.list('event') as EventItem[];
    const upcoming = events.filter((e) => e.startsAt >= '2027-01-01');
    expect(upcoming.map((e) => e.accessLevel).sort()).toEqual(['free', 'premium', 'subscriber']);
    expect(upcoming.some((e) => e.format === 'in-person' && e.address && e.accessLevel === 'subscriber')).toBe(true);
    expect(upcoming.some((e) => e.accessLevel === 'premium' && e.capacity && e.joinUrl?.includes('EVENT-JOIN-SENTINEL-2d7b'))).toBe(true);
    const past = events.filter((e) => e.startsAt < '2026-11-25');
    expect(past.some((e) => e.accessLevel === 'premium' && e.recordingUrl?.includes('EVENT-RECORDING-SENTINEL-8a15'))).toBe(true);
  });

  it.each(CONTENT_TYPES)('has %s items at every access level', (type) => {
    expect(new Set(source.list(type).map((i) => i.accessLevel))).toEqual(new Set(ACCESS_LEVELS));
  });

  it.each(CONTENT_TYPES)('has a %s item with more than 3 tags', (type) => {
    expect(source.list(type).some((i) => i.tags.length > 3)).toBe(true);
  });

  it('has both free and paid market items', () => {
    const market = source.list('market') as MarketItem[];
    expect(market.some((i) => !i.price)).toBe(true);
    expect(market.some((i) => (i.price ?? 0) > 0)).toBe(true);
  });

  it('gives every course at least 2 sections and 4 lessons', () => {
    const short = courses()
      .filter((c) => c.sections.length < 2 || c.sections.flatMap((s) => s.lessons).length < 4)
      .map((c) => c.slug);
    expect(courses().length).toBeGreaterThan(0);
    expect(short).toEqual([]);
  });

  it('uses image, video and pdf media somewhere', () => {
    const used = new Set([...all.flatMap((i) => i.media), ...lessons().flatMap((l) => l.media)].map((m) => m.type));
    expect([...used].sort()).toEqual([...MEDIA_TYPES].sort());
  });

  it('serves every root-relative media url from public/', () => {
    const urls = [...all.flatMap((i) => i.media), ...lessons().flatMap((l) => l.media)].map((m) => m.url).filter((u) => u.startsWith('/'));
    expect(urls.length).toBeGreaterThan(0);
    const missing = urls.filter((u) => !existsSync(path.join(ROOT, 'public', decodeURI(u))));
    expect(missing).toEqual([]);
  });

  it('keeps every private file it references under content/files/', () => {
    const keys = [
      ...all.flatMap((i) => ('downloadUrl' in i && i.downloadUrl ? [i.downloadUrl] : [])),
      ...lessons().flatMap((l) => l.downloadables.map((d) => d.url)),
      ...lessons().flatMap((l) => l.media.map((m) => m.url).filter((u) => !u.startsWith('/'))),
    ].filter((u) => !isHttps(u));
    expect(keys.length).toBeGreaterThan(0);
    const missing = keys.filter((k) => !existsSync(path.join(CONTENT_DIR, 'files', k)));
    expect(missing).toEqual([]);
  });

  it(`has ${SENTINEL} in the body of exactly one item, a premium blog article`, () => {
    const holders = all.filter((i) => i.type === 'blog' && i.content.includes(SENTINEL));
    expect(holders.map((i) => [i.type, i.accessLevel])).toEqual([['blog', 'premium']]);
  });

  it(`has ${SENTINEL} in no frontmatter field`, () => {
    const leaking = all.filter((i) => {
      const { content: _body, ...frontmatter } = i as ContentItem & { content?: string };
      return JSON.stringify(frontmatter).includes(SENTINEL);
    });
    expect(leaking.map((i) => `${i.type}/${i.slug}`)).toEqual([]);
  });
});
