/**
 * Content schemas shared by the Astro collections (authoring, build-time validation), the server's
 * content service (runtime validation of MDX and database rows) and the browser (public item types).
 * Field names follow the spec's "Content item" entity. Pure module: no Node or browser APIs.
 */
import { z } from 'zod';
import { ACCESS_LEVELS } from '../access.ts';

import { CONTENT_TYPES, MEDIA_TYPES, SKILL_LEVELS, type ContentType } from './constants.ts';

export { CONTENT_TYPES, MEDIA_TYPES, SKILL_LEVELS };
export type { ContentType, MediaType, SkillLevel } from './constants.ts';

/** Lower-case words joined by single hyphens, as used in every content URL. */
export const SlugSchema = z
  .string()
  .min(1)
  .max(120)
  .regex(/^[a-z0-9]+(?:-[a-z0-9]+)*$/, 'Use lower-case letters, digits and single hyphens')
  .describe('URL segment of the item, e.g. "seo-audit-checklist". Defaults to the file name.');

/** A link to a public asset: a root-relative path under public/ or an https URL. */
export const PublicUrlSchema = z
  .string()
  .max(2048)
  .refine(
    // Browsers read a slash followed by a backslash or a tab like "//" (another host), so
    // backslashes, whitespace and control characters are refused outright.
    (u) => !/[\\\s\u0000-\u001f\u007f]/.test(u) && ((u.startsWith('/') && !u.startsWith('//')) || u.startsWith('https://')),
    { message: 'Use a root-relative path such as /media/cover.jpg or an https:// URL' },
  );

/**
 * A reference to a protected file: a key under the private files folder (e.g. "downloads/kit.zip"),
 * served only through short-lived signed URLs, or an https URL of an outside host.
 */
export const FileRefSchema = z
  .string()
  .max(2048)
  .refine(
    (u) => u.startsWith('https://') || /^[a-z0-9][a-z0-9._-]*(\/[a-z0-9][a-z0-9._-]*)*$/i.test(u),
    { message: 'Use a private file key such as downloads/kit.zip or an https:// URL' },
  );

export const MediaItemSchema = z.object({
  url: PublicUrlSchema.describe('Where the file lives: /media/... for files in public/, or an https URL.'),
  type: z.enum(MEDIA_TYPES).describe('How the gallery shows it: image, video or pdf.'),
  alt: z.string().max(300).optional().describe('Text alternative; for uploads, the original file name.'),
});
export type MediaItem = z.infer<typeof MediaItemSchema>;

/** Lesson media may point at protected files as well as public ones. */
export const LessonMediaItemSchema = MediaItemSchema.extend({
  url: z.union([PublicUrlSchema, FileRefSchema]).describe('Public path, https URL or private file key.'),
});

export const DownloadableSchema = z.object({
  name: z.string().min(1).max(200).describe('Label shown on the download button.'),
  url: FileRefSchema.describe('Private file key (e.g. "downloads/workbook.pdf") or https URL.'),
});
export type Downloadable = z.infer<typeof DownloadableSchema>;

const TagSchema = z.string().trim().min(1).max(40);

const baseFields = {
  title: z.string().trim().min(3).max(200).describe('Headline shown on cards and the detail page.'),
  description: z
    .string()
    .trim()
    .min(10)
    .max(600)
    .describe('One or two sentences shown on cards (clamped to 2 lines) and in search results.'),
  slug: SlugSchema.optional(),
  tags: z.array(TagSchema).max(20).default([]).describe('Topics; the first three show on cards.'),
  accessLevel: z
    .enum(ACCESS_LEVELS)
    .default('free')
    .describe('Lowest member level that may open the gated parts: free, subscriber or premium.'),
  media: z.array(MediaItemSchema).max(30).default([]).describe('Gallery shown on the detail page.'),
};

/** Frontmatter of a blog article; the MDX body is the gated article content. */
export const BlogFrontmatterSchema = z.object({
  ...baseFields,
  publishedDate: z.coerce.date().describe('Publication date (YYYY-MM-DD).'),
  author: z.string().trim().min(1).max(120).optional().describe('Byline; defaults to the team name.'),
});

export const LessonSchema = z.object({
  id: SlugSchema.describe('Stable id of the lesson within its course.'),
  title: z.string().trim().min(1).max(200).describe('Lesson title shown in the curriculum.'),
  content: z.string().max(100_000).default('').describe('Lesson text (Markdown). Gated.'),
  media: z.array(LessonMediaItemSchema).max(20).default([]).describe('Lesson media. Gated.'),
  downloadables: z.array(DownloadableSchema).max(20).default([]).describe('Lesson files. Gated.'),
});
export type Lesson = z.infer<typeof LessonSchema>;

export const SectionSchema = z.object({
  id: SlugSchema.describe('Stable id of the section within its course.'),
  title: z.string().trim().min(1).max(200).describe('Section title shown in the curriculum.'),
  lessons: z.array(LessonSchema).min(1).max(100).describe('Lessons in reading order.'),
});
export type Section = z.infer<typeof SectionSchema>;

export const CourseFrontmatterSchema = z.object({
  ...baseFields,
  duration: z.string().trim().min(1).max(60).describe('Total length, e.g. "6 weeks" or "4h 30m".'),
  skillLevel: z.enum(SKILL_LEVELS).describe('beginner, intermediate or advanced.'),
  sections: z.array(SectionSchema).min(1).max(50).describe('Curriculum sections in order.'),
});

export const ToolFrontmatterSchema = z.object({
  ...baseFields,
  downloadUrl: FileRefSchema.describe('The file a visitor receives. Gated: never shown publicly.'),
  externalLink: z.url({ protocol: /^https$/ }).optional().describe('Optional link to an online version.'),
  updatedAt: z.coerce.date().describe('Date of the last update (YYYY-MM-DD).'),
});

export const MarketFrontmatterSchema = z.object({
  ...baseFields,
  price: z.number().min(0).max(100_000).optional().describe('Price in dollars; absent or 0 means free.'),
  fileType: z.string().trim().min(1).max(40).describe('What the buyer gets, e.g. "PDF" or "Figma file".'),
  downloadUrl: FileRefSchema.optional().describe('The file a buyer receives. Gated.'),
  externalLink: z.url({ protocol: /^https$/ }).optional().describe('Optional link to an outside page.'),
});

export const FRONTMATTER_SCHEMAS = {
  blog: BlogFrontmatterSchema,
  tool: ToolFrontmatterSchema,
  course: CourseFrontmatterSchema,
  market: MarketFrontmatterSchema,
} as const;

// ---------------------------------------------------------------------------------------------
// Normalised items: what the content service holds (gated fields included; server side only).

/** Date-only string (YYYY-MM-DD); kept as text so that no time zone shifts the day. */
export const DateOnlySchema = z.string().regex(/^\d{4}-\d{2}-\d{2}$/);

const itemBase = {
  id: z.string().min(1).max(64),
  slug: SlugSchema,
  title: z.string(),
  description: z.string(),
  tags: z.array(z.string()),
  accessLevel: z.enum(ACCESS_LEVELS),
  media: z.array(MediaItemSchema),
};

export const PublicBlogSchema = z.strictObject({
  ...itemBase,
  type: z.literal('blog'),
  publishedDate: DateOnlySchema,
  author: z.string(),
});
export const PublicLessonSchema = z.strictObject({ id: z.string(), title: z.string() });
export const PublicSectionSchema = z.strictObject({
  id: z.string(),
  title: z.string(),
  lessons: z.array(PublicLessonSchema),
});
export const PublicCourseSchema = z.strictObject({
  ...itemBase,
  type: z.literal('course'),
  duration: z.string(),
  skillLevel: z.enum(SKILL_LEVELS),
  sections: z.array(PublicSectionSchema),
});
export const PublicToolSchema = z.strictObject({
  ...itemBase,
  type: z.literal('tool'),
  externalLink: z.string().optional(),
  updatedAt: DateOnlySchema,
});
export const PublicMarketSchema = z.strictObject({
  ...itemBase,
  type: z.literal('market'),
  price: z.number().optional(),
  fileType: z.string(),
  externalLink: z.string().optional(),
});

/** What the public API answers: the spec's fields minus everything gated. Strict: no extra keys. */
export const PublicItemSchema = z.discriminatedUnion('type', [
  PublicBlogSchema,
  PublicCourseSchema,
  PublicToolSchema,
  PublicMarketSchema,
]);
export type PublicItem = z.infer<typeof PublicItemSchema>;
export type PublicBlog = z.infer<typeof PublicBlogSchema>;
export type PublicCourse = z.infer<typeof PublicCourseSchema>;
export type PublicTool = z.infer<typeof PublicToolSchema>;
export type PublicMarket = z.infer<typeof PublicMarketSchema>;
export type PublicItemOf<T extends ContentType> = Extract<PublicItem, { type: T }>;

/** Where an item comes from: an MDX file in git, or a database row written by the creator tools. */
export type ContentSource = 'mdx' | 'db';

type Internal = { source: ContentSource };
/** Blog bodies are MDX from git or Markdown written in the creator tools. */
export type BlogItem = PublicBlog & Internal & { content: string; contentFormat: 'mdx' | 'markdown' };
export type CourseItem = Omit<PublicCourse, 'sections'> & Internal & { sections: Section[] };
export type ToolItem = PublicTool & Internal & { downloadUrl?: string };
export type MarketItem = PublicMarket & Internal & { downloadUrl?: string };
/** A full item with its gated fields. Never serialised to a visitor without `toPublicItem`. */
export type ContentItem = BlogItem | CourseItem | ToolItem | MarketItem;
export type ContentItemOf<T extends ContentType> = Extract<ContentItem, { type: T }>;
