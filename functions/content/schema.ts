/**
 * Inputs of the content service's writes (database items) and the per-type `details` stored as JSON.
 * Database items come from the creator tools, whose form has fewer fields than an MDX file, so the
 * type-specific fields get defaults here.
 */
import { z } from 'zod';
import {
  BlogFrontmatterSchema,
  CourseFrontmatterSchema,
  DateOnlySchema,
  DownloadableSchema,
  FileRefSchema,
  MarketFrontmatterSchema,
  SectionSchema,
  SKILL_LEVELS,
  ToolFrontmatterSchema,
  type ContentType,
} from '../../src/lib/content/schema.ts';

const optionalDate = z.coerce.date().optional();

export const BlogInputSchema = BlogFrontmatterSchema.extend({
  publishedDate: optionalDate,
  content: z.string().max(200_000).default(''),
});
export const CourseInputSchema = CourseFrontmatterSchema.extend({
  duration: z.string().trim().min(1).max(60).default('Self-paced'),
  skillLevel: z.enum(SKILL_LEVELS).default('beginner'),
  sections: z.array(SectionSchema).max(50).default([]),
});
export const ToolInputSchema = ToolFrontmatterSchema.extend({
  downloadUrl: FileRefSchema.optional(),
  updatedAt: optionalDate,
});
export const MarketInputSchema = MarketFrontmatterSchema.extend({
  fileType: z.string().trim().min(1).max(40).default('Digital download'),
});

export const CONTENT_INPUT_SCHEMAS = {
  blog: BlogInputSchema,
  course: CourseInputSchema,
  tool: ToolInputSchema,
  market: MarketInputSchema,
} as const;

export type ContentInputOf<T extends ContentType> = z.input<(typeof CONTENT_INPUT_SCHEMAS)[T]>;
export type ContentInput = ContentInputOf<ContentType>;

/** What each type keeps in the `details` JSON column. */
export const DETAILS_SCHEMAS = {
  blog: z.object({
    publishedDate: DateOnlySchema,
    author: z.string().optional(),
    content: z.string(),
    contentFormat: z.enum(['mdx', 'markdown']).default('markdown'),
  }),
  course: z.object({
    duration: z.string(),
    skillLevel: z.enum(SKILL_LEVELS),
    sections: z.array(SectionSchema),
  }),
  tool: z.object({
    downloadUrl: FileRefSchema.optional(),
    externalLink: z.string().optional(),
    updatedAt: DateOnlySchema,
  }),
  market: z.object({
    price: z.number().optional(),
    fileType: z.string(),
    downloadUrl: FileRefSchema.optional(),
    externalLink: z.string().optional(),
  }),
} as const;

export { DownloadableSchema };
