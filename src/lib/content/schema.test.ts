import { describe, expect, it } from 'vitest';
import {
  BlogFrontmatterSchema,
  CourseFrontmatterSchema,
  FileRefSchema,
  FRONTMATTER_SCHEMAS,
  MarketFrontmatterSchema,
  PublicItemSchema,
  PublicUrlSchema,
  SlugSchema,
  ToolFrontmatterSchema,
  type ContentType,
} from './schema.ts';

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
};

function makeFrontmatter(type: ContentType, overrides: Record<string, unknown> = {}) {
  return { ...MINIMAL[type], ...overrides };
}

const TYPES = Object.keys(MINIMAL) as ContentType[];

function issuePaths(result: { success: boolean; error?: { issues: { path: PropertyKey[] }[] } }) {
  return result.error?.issues.map((i) => i.path.join('.')) ?? [];
}

describe('frontmatter schemas', () => {
  it.each(TYPES)('accepts a minimal %s and applies the defaults', (type) => {
    const parsed = FRONTMATTER_SCHEMAS[type].parse(makeFrontmatter(type));
    expect(parsed).toMatchObject({ tags: [], accessLevel: 'free', media: [] });
    expect(parsed.title).toBe(common.title);
  });

  it.each(TYPES)('rejects a %s title shorter than 3 characters', (type) => {
    const result = FRONTMATTER_SCHEMAS[type].safeParse(makeFrontmatter(type, { title: 'ab' }));
    expect(issuePaths(result)).toEqual(['title']);
  });

  it.each(TYPES)('rejects a %s description shorter than 10 characters', (type) => {
    const result = FRONTMATTER_SCHEMAS[type].safeParse(makeFrontmatter(type, { description: 'too short' }));
    expect(issuePaths(result)).toEqual(['description']);
  });

  it.each(TYPES)('rejects a %s with an unknown access level', (type) => {
    const result = FRONTMATTER_SCHEMAS[type].safeParse(makeFrontmatter(type, { accessLevel: 'gold' }));
    expect(issuePaths(result)).toEqual(['accessLevel']);
  });

  it('accepts each known access level', () => {
    for (const accessLevel of ['free', 'subscriber', 'premium']) {
      expect(BlogFrontmatterSchema.parse(makeFrontmatter('blog', { accessLevel })).accessLevel).toBe(accessLevel);
    }
  });

  it('rejects a bad slug in frontmatter', () => {
    const result = BlogFrontmatterSchema.safeParse(makeFrontmatter('blog', { slug: 'Bad Slug' }));
    expect(issuePaths(result)).toEqual(['slug']);
  });

  it('accepts media with a root-relative path or an https URL', () => {
    const media = [
      { url: '/media/cover.jpg', type: 'image', alt: 'Cover' },
      { url: 'https://cdn.example.com/tour.mp4', type: 'video' },
    ];
    expect(BlogFrontmatterSchema.parse(makeFrontmatter('blog', { media })).media).toEqual(media);
  });

  it.each(['//evil.example/x.jpg', 'http://example.com/x.jpg', 'javascript:alert(1)', 'media/x.jpg'])(
    'rejects the media url %j',
    (url) => {
      const result = BlogFrontmatterSchema.safeParse(makeFrontmatter('blog', { media: [{ url, type: 'image' }] }));
      expect(issuePaths(result)).toEqual(['media.0.url']);
    },
  );

  it('rejects a media type other than image, video or pdf', () => {
    const result = BlogFrontmatterSchema.safeParse(makeFrontmatter('blog', { media: [{ url: '/a.mp3', type: 'audio' }] }));
    expect(issuePaths(result)).toEqual(['media.0.type']);
  });

  it('rejects a negative market price and accepts 0', () => {
    expect(issuePaths(MarketFrontmatterSchema.safeParse(makeFrontmatter('market', { price: -1 })))).toEqual(['price']);
    expect(MarketFrontmatterSchema.parse(makeFrontmatter('market', { price: 0 })).price).toBe(0);
  });

  it('requires a tool download file', () => {
    const { downloadUrl: _omitted, ...withoutDownload } = makeFrontmatter('tool');
    expect(issuePaths(ToolFrontmatterSchema.safeParse(withoutDownload))).toEqual(['downloadUrl']);
  });

  it('rejects an external link that is not https', () => {
    const result = ToolFrontmatterSchema.safeParse(makeFrontmatter('tool', { externalLink: 'http://example.com' }));
    expect(issuePaths(result)).toEqual(['externalLink']);
  });

  it('coerces YYYY-MM-DD dates to Date', () => {
    expect(BlogFrontmatterSchema.parse(makeFrontmatter('blog')).publishedDate).toBeInstanceOf(Date);
  });

  it('requires a course to have at least one section', () => {
    const result = CourseFrontmatterSchema.safeParse(makeFrontmatter('course', { sections: [] }));
    expect(issuePaths(result)).toEqual(['sections']);
  });

  it('requires each course section to have at least one lesson', () => {
    const sections = [makeSection(), makeSection({ id: 'empty', lessons: [] })];
    const result = CourseFrontmatterSchema.safeParse(makeFrontmatter('course', { sections }));
    expect(issuePaths(result)).toEqual(['sections.1.lessons']);
  });

  it('gives lessons empty content, media and downloadables by default', () => {
    const course = CourseFrontmatterSchema.parse(makeFrontmatter('course'));
    expect(course.sections[0]?.lessons[0]).toEqual({ ...makeLesson(), content: '', media: [], downloadables: [] });
  });

  it('lets lesson media point at a private file key', () => {
    const lessons = [makeLesson({ media: [{ url: 'videos/lesson-1.mp4', type: 'video' }] })];
    const course = CourseFrontmatterSchema.parse(makeFrontmatter('course', { sections: [makeSection({ lessons })] }));
    expect(course.sections[0]?.lessons[0]?.media[0]?.url).toBe('videos/lesson-1.mp4');
  });
});

describe('SlugSchema', () => {
  it.each(['seo', 'seo-audit-checklist', 'top-10-tips', '2026'])('accepts %j', (slug) => {
    expect(SlugSchema.safeParse(slug).success).toBe(true);
  });

  it.each(['SEO-Audit', 'seo audit', '-seo', 'seo-', 'seo--audit', 'seo_audit', '', 'caf\u00e9'])('rejects %j', (slug) => {
    expect(SlugSchema.safeParse(slug).success).toBe(false);
  });
});

describe('PublicUrlSchema', () => {
  // Browsers read a backslash as a slash and drop tabs and newlines in URLs, so these two resolve to
  // https://evil.example/... although they start with a single "/".
  it('rejects "/\\" which browsers treat as protocol-relative', () => {
    expect(PublicUrlSchema.safeParse('/\\evil.example/x.jpg').success).toBe(false);
  });

  it('rejects "/<tab>/" which browsers treat as protocol-relative', () => {
    expect(PublicUrlSchema.safeParse('/\t/evil.example/x.jpg').success).toBe(false);
  });
});

describe('FileRefSchema', () => {
  it.each(['downloads/kit.zip', 'kit.zip', 'downloads/sub/Workbook_v2.pdf', 'https://files.example.com/kit.zip'])(
    'accepts %j',
    (ref) => {
      expect(FileRefSchema.safeParse(ref).success).toBe(true);
    },
  );

  it.each(['../secret', 'downloads/../secret', '/abs/path', 'http://x', 'javascript:alert(1)', 'C:\\secret', '.env', ''])(
    'rejects %j',
    (ref) => {
      expect(FileRefSchema.safeParse(ref).success).toBe(false);
    },
  );
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
