/** Every type's frontmatter schema, as authors meet it (Astro's build and the server both use these). */
import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { CONTENT_REGISTRY, CONTENT_TYPES, type ContentType, type FrontmatterOf } from '../registry.ts';

/** A type's frontmatter schema, typed as any type's so that one test runs over every type. */
const frontmatterOf = (type: ContentType): z.ZodType<FrontmatterOf<ContentType>> => CONTENT_REGISTRY[type].frontmatter;

const common = { title: 'A valid title', description: 'A description of at least ten characters.' };

function makeLesson(overrides: Record<string, unknown> = {}) {
  return { id: 'lesson-one', title: 'Lesson one', ...overrides };
}

function makeSection(overrides: Record<string, unknown> = {}) {
  return { id: 'section-one', title: 'Section one', lessons: [makeLesson()], ...overrides };
}

/** The smallest frontmatter each type accepts. */
const MINIMAL: Record<ContentType, Record<string, unknown>> = {
  blog: { ...common, publishedDate: '2026-03-04' },
  tool: { ...common, downloadUrl: 'downloads/kit.zip', updatedAt: '2026-03-04' },
  course: { ...common, duration: '2 weeks', skillLevel: 'beginner', sections: [makeSection()] },
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

function makeFrontmatter(type: ContentType, overrides: Record<string, unknown> = {}) {
  return { ...MINIMAL[type], ...overrides };
}

function issuePaths(result: { success: boolean; error?: { issues: { path: PropertyKey[] }[] } }) {
  return result.error?.issues.map((i) => i.path.join('.')) ?? [];
}

describe('frontmatter schemas', () => {
  it.each(CONTENT_TYPES)('accepts a minimal %s and applies the defaults', (type) => {
    const parsed = frontmatterOf(type).parse(makeFrontmatter(type));
    expect(parsed).toMatchObject({ tags: [], accessLevel: 'free', media: [] });
    expect(parsed.title).toBe(common.title);
  });

  it.each(CONTENT_TYPES)('rejects a %s title shorter than 3 characters', (type) => {
    const result = frontmatterOf(type).safeParse(makeFrontmatter(type, { title: 'ab' }));
    expect(issuePaths(result)).toEqual(['title']);
  });

  it.each(CONTENT_TYPES)('rejects a %s description shorter than 10 characters', (type) => {
    const result = frontmatterOf(type).safeParse(makeFrontmatter(type, { description: 'too short' }));
    expect(issuePaths(result)).toEqual(['description']);
  });

  it.each(CONTENT_TYPES)('rejects a %s with an unknown access level', (type) => {
    const result = frontmatterOf(type).safeParse(makeFrontmatter(type, { accessLevel: 'gold' }));
    expect(issuePaths(result)).toEqual(['accessLevel']);
  });

  it('accepts each known access level', () => {
    for (const accessLevel of ['free', 'subscriber', 'premium']) {
      expect(CONTENT_REGISTRY.blog.frontmatter.parse(makeFrontmatter('blog', { accessLevel })).accessLevel).toBe(accessLevel);
    }
  });

  it('rejects a bad slug in frontmatter', () => {
    const result = CONTENT_REGISTRY.blog.frontmatter.safeParse(makeFrontmatter('blog', { slug: 'Bad Slug' }));
    expect(issuePaths(result)).toEqual(['slug']);
  });

  it('accepts media with a root-relative path or an https URL', () => {
    const media = [
      { url: '/media/cover.jpg', type: 'image', alt: 'Cover' },
      { url: 'https://cdn.example.com/tour.mp4', type: 'video' },
    ];
    expect(CONTENT_REGISTRY.blog.frontmatter.parse(makeFrontmatter('blog', { media })).media).toEqual(media);
  });

  it.each(['//evil.example/x.jpg', 'http://example.com/x.jpg', 'javascript:alert(1)', 'media/x.jpg'])('rejects the media url %j', (url) => {
    const result = CONTENT_REGISTRY.blog.frontmatter.safeParse(makeFrontmatter('blog', { media: [{ url, type: 'image' }] }));
    expect(issuePaths(result)).toEqual(['media.0.url']);
  });

  it('rejects a media type other than image, video or pdf', () => {
    const result = CONTENT_REGISTRY.blog.frontmatter.safeParse(makeFrontmatter('blog', { media: [{ url: '/a.mp3', type: 'audio' }] }));
    expect(issuePaths(result)).toEqual(['media.0.type']);
  });

  it('rejects a negative market price and accepts 0', () => {
    expect(issuePaths(CONTENT_REGISTRY.market.frontmatter.safeParse(makeFrontmatter('market', { price: -1 })))).toEqual(['price']);
    expect(CONTENT_REGISTRY.market.frontmatter.parse(makeFrontmatter('market', { price: 0 })).price).toBe(0);
  });

  it('requires a tool download file', () => {
    const { downloadUrl: _omitted, ...withoutDownload } = makeFrontmatter('tool');
    expect(issuePaths(CONTENT_REGISTRY.tool.frontmatter.safeParse(withoutDownload))).toEqual(['downloadUrl']);
  });

  it('rejects an external link that is not https', () => {
    const result = CONTENT_REGISTRY.tool.frontmatter.safeParse(makeFrontmatter('tool', { externalLink: 'http://example.com' }));
    expect(issuePaths(result)).toEqual(['externalLink']);
  });

  it('coerces YYYY-MM-DD dates to Date', () => {
    expect(CONTENT_REGISTRY.blog.frontmatter.parse(makeFrontmatter('blog')).publishedDate).toBeInstanceOf(Date);
  });

  it('requires a course to have at least one section', () => {
    const result = CONTENT_REGISTRY.course.frontmatter.safeParse(makeFrontmatter('course', { sections: [] }));
    expect(issuePaths(result)).toEqual(['sections']);
  });

  it('requires each course section to have at least one lesson', () => {
    const sections = [makeSection(), makeSection({ id: 'empty', lessons: [] })];
    const result = CONTENT_REGISTRY.course.frontmatter.safeParse(makeFrontmatter('course', { sections }));
    expect(issuePaths(result)).toEqual(['sections.1.lessons']);
  });

  it('gives lessons empty content, media and downloadables by default', () => {
    const course = CONTENT_REGISTRY.course.frontmatter.parse(makeFrontmatter('course'));
    expect(course.sections[0]?.lessons[0]).toEqual({ ...makeLesson(), content: '', media: [], downloadables: [] });
  });

  it('lets lesson media point at a private file key', () => {
    const lessons = [makeLesson({ media: [{ url: 'videos/lesson-1.mp4', type: 'video' }] })];
    const course = CONTENT_REGISTRY.course.frontmatter.parse(makeFrontmatter('course', { sections: [makeSection({ lessons })] }));
    expect(course.sections[0]?.lessons[0]?.media[0]?.url).toBe('videos/lesson-1.mp4');
  });
});

describe('strict frontmatter', () => {
  it.each(CONTENT_TYPES)('refuses a %s with a misspelt field and names the field', (type) => {
    const { title, ...rest } = makeFrontmatter(type);
    const result = frontmatterOf(type).safeParse({ ...rest, titel: title });
    expect(result.error?.issues).toContainEqual(expect.objectContaining({ code: 'unrecognized_keys', keys: ['titel'], path: [] }));
  });

  it.each(CONTENT_TYPES)('refuses a %s with an extra field next to valid ones', (type) => {
    const result = frontmatterOf(type).safeParse(makeFrontmatter(type, { summary: 'Not a field of any type.' }));
    expect(result.error?.issues.map((i) => i.code)).toEqual(['unrecognized_keys']);
  });

  it('refuses an unknown field inside a media item', () => {
    const media = [{ url: '/media/a.jpg', type: 'image', caption: 'x' }];
    const issues = frontmatterOf('blog').safeParse(makeFrontmatter('blog', { media })).error?.issues ?? [];
    expect(issues.map((i) => i.path.join('.'))).toEqual(['media.0']);
  });

  it('refuses unknown fields inside sections, lessons and downloadables', () => {
    const lessons = [makeLesson({ downloadables: [{ name: 'Kit', url: 'downloads/kit.zip', size: 3 }], contnet: 'x' })];
    const sections = [makeSection({ lessons, summary: 'x' })];
    const issues = CONTENT_REGISTRY.course.frontmatter.safeParse(makeFrontmatter('course', { sections })).error?.issues ?? [];
    expect(issues.map((i) => `${i.path.join('.')}:${i.code === 'unrecognized_keys' ? i.keys.join() : i.code}`).sort()).toEqual([
      'sections.0.lessons.0.downloadables.0:size',
      'sections.0.lessons.0:contnet',
      'sections.0:summary',
    ]);
  });

  it('keeps the author descriptions (editors show them from the JSON schema)', () => {
    const schema = CONTENT_REGISTRY.course.frontmatter.toJSONSchema() as {
      properties: Record<string, { description?: string; items?: { properties: Record<string, { description?: string }> } }>;
    };
    expect(schema.properties.title?.description).toBe('Headline shown on cards and the detail page.');
    expect(schema.properties.sections?.description).toBe('Curriculum sections in order.');
    expect(schema.properties.sections?.items?.properties.lessons?.description).toBe('Lessons in reading order.');
  });
});

describe('creator-tools input', () => {
  it('drops unknown keys instead of refusing them (a stored row carries more than the form sends)', () => {
    const parsed = CONTENT_REGISTRY.blog.input.parse({ ...makeFrontmatter('blog'), contentFormat: 'markdown' });
    expect(parsed).not.toHaveProperty('contentFormat');
  });

  it('gives the fields the creator tools leave out their defaults', () => {
    const { title, description } = common;
    expect(CONTENT_REGISTRY.course.input.parse({ title, description })).toMatchObject({
      duration: 'Self-paced',
      skillLevel: 'beginner',
      sections: [],
    });
    expect(CONTENT_REGISTRY.market.input.parse({ title, description })).toMatchObject({ fileType: 'Digital download' });
    expect(CONTENT_REGISTRY.blog.input.parse({ title, description })).toMatchObject({ content: '' });
    expect(CONTENT_REGISTRY.tool.input.parse({ title, description })).not.toHaveProperty('downloadUrl');
  });
});

describe('event frontmatter and its rule across fields (refine)', () => {
  const event = (overrides: Record<string, unknown> = {}) => frontmatterOf('event').safeParse(makeFrontmatter('event', overrides));

  it('needs the join URL of an online event, and names that field', () => {
    const result = event({ joinUrl: undefined });
    expect(issuePaths(result)).toEqual(['joinUrl']);
    expect(result.error?.issues[0]?.message).toBe('An online event needs a join URL (https)');
  });

  it('needs the address of an in-person event, and names that field', () => {
    expect(issuePaths(event({ format: 'in-person', joinUrl: undefined }))).toEqual(['address']);
    expect(event({ format: 'in-person', joinUrl: undefined, address: '1 Example Street, Baltimore' }).success).toBe(true);
  });

  it('applies the same rule to the creator-tools input and to stored items', () => {
    const { title, description } = common;
    const input = CONTENT_REGISTRY.event.input.safeParse({
      title,
      description,
      startsAt: '2027-05-12T15:00',
      timeZone: 'UTC',
      durationMinutes: 30,
    });
    expect(issuePaths(input)).toEqual(['joinUrl']);
    const item = CONTENT_REGISTRY.event.item.safeParse({
      ...common,
      id: 'e',
      slug: 'e',
      type: 'event',
      source: 'db',
      tags: [],
      accessLevel: 'free',
      media: [],
      startsAt: '2027-05-12T15:00:00.000Z',
      localStart: '2027-05-12T15:00',
      timeZone: 'UTC',
      durationMinutes: 30,
      format: 'in-person',
      content: '',
    });
    expect(issuePaths(item)).toEqual(['address']);
  });

  it('reports the rule beside the other problems of the same file', () => {
    expect(issuePaths(event({ title: 'ab', joinUrl: undefined })).sort()).toEqual(['joinUrl', 'title']);
  });

  it.each([
    ['a day that does not exist', { startsAt: '2027-02-29T10:00' }, 'startsAt'],
    ['a time with a zone suffix', { startsAt: '2027-05-12T15:00Z' }, 'startsAt'],
    ['a year far away', { startsAt: '2999-05-12T15:00' }, 'startsAt'],
    ['an unknown zone', { timeZone: 'Europe/Atlantis' }, 'timeZone'],
    ['a zone abbreviation', { timeZone: 'EST5EDT!' }, 'timeZone'],
    ['a join URL over http', { joinUrl: 'http://meet.events.example/one' }, 'joinUrl'],
    ['a duration under 5 minutes', { durationMinutes: 2 }, 'durationMinutes'],
  ])('refuses %s', (_label, overrides, field) => {
    expect(new Set(issuePaths(event(overrides)))).toEqual(new Set([field]));
  });
});
