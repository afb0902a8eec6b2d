/** Courses: the outline (section and lesson titles) is public; lesson bodies, media and files are gated. */
import { z } from 'zod';
import { SKILL_LEVELS } from '../constants.ts';
import { defineContentType } from '../content-type.ts';
import { FileRefSchema, MediaItemSchema, ONE_LINE, ONE_LINE_MESSAGE, PublicUrlSchema, SlugSchema, staffBody } from '../schema.ts';

/** Lesson media may point at protected files as well as public ones. */
const LessonMediaItemSchema = MediaItemSchema.extend({
  url: z.union([PublicUrlSchema, FileRefSchema]).describe('Public path, https URL or private file key.'),
});

const DownloadableSchema = z.object({
  name: z.string().min(1).max(200).regex(ONE_LINE, ONE_LINE_MESSAGE).describe('Label shown on the download button.'),
  url: FileRefSchema.describe('Private file key (e.g. "downloads/workbook.pdf") or https URL.'),
});
export type Downloadable = z.infer<typeof DownloadableSchema>;

const LessonSchema = z.object({
  id: SlugSchema.describe('Stable id of the lesson within its course.'),
  title: z.string().trim().min(1).max(200).regex(ONE_LINE, ONE_LINE_MESSAGE).describe('Lesson title shown in the curriculum.'),
  content: staffBody(100_000).default('').describe('Lesson text (Markdown). Gated.'),
  media: z.array(LessonMediaItemSchema).max(20).default([]).describe('Lesson media. Gated.'),
  downloadables: z.array(DownloadableSchema).max(20).default([]).describe('Lesson files. Gated.'),
});
export type Lesson = z.infer<typeof LessonSchema>;

const SectionSchema = z.object({
  id: SlugSchema.describe('Stable id of the section within its course.'),
  title: z.string().trim().min(1).max(200).regex(ONE_LINE, ONE_LINE_MESSAGE).describe('Section title shown in the curriculum.'),
  lessons: z.array(LessonSchema).min(1).max(100).describe('Lessons in reading order.'),
});
export type Section = z.infer<typeof SectionSchema>;

/** The public outline: section and lesson ids and titles only. */
const PublicSectionSchema = z.object({
  id: z.string(),
  title: z.string(),
  lessons: z.array(z.object({ id: z.string(), title: z.string() })),
});
/** A section of the public outline (the course viewer's navigation reads it). */
export type PublicSection = z.output<typeof PublicSectionSchema>;

export const course = defineContentType({
  type: 'course',
  folder: 'courses',
  apiSegment: 'courses',
  path: '/courses',
  labels: {
    singular: 'course',
    plural: 'courses',
    listTitle: 'Courses',
    listIntro: 'Step-by-step courses that turn our client playbooks into skills your team keeps.',
    loadError: 'Failed to load courses.',
    emptyAll: 'No courses found.',
    emptyFiltered: 'No courses match your search criteria.',
    searchPlaceholder: 'Search courses…',
    name: 'Course',
    itemLabel: 'Course',
  },
  filters: ['search', 'category', 'skillLevel'],
  frontmatter: {
    price: z
      .number()
      .min(0)
      .max(100_000)
      .optional()
      .describe('One-time price in dollars to buy the course outright; absent or 0: plans only.'),
    duration: z.string().trim().min(1).max(60).regex(ONE_LINE, ONE_LINE_MESSAGE).describe('Total length, e.g. "6 weeks" or "4h 30m".'),
    skillLevel: z.enum(SKILL_LEVELS).describe('beginner, intermediate or advanced.'),
    sections: z.array(SectionSchema).min(1).max(50).describe('Curriculum sections in order.'),
  },
  input: {
    duration: z.string().trim().min(1).max(60).regex(ONE_LINE, ONE_LINE_MESSAGE).default('Self-paced'),
    skillLevel: z.enum(SKILL_LEVELS).default('beginner'),
    sections: z.array(SectionSchema).max(50).default([]),
  },
  fields: {
    price: z.number().optional(),
    duration: z.string(),
    skillLevel: z.enum(SKILL_LEVELS),
    sections: z.array(SectionSchema),
  },
  publicFields: {
    price: z.number().optional(),
    duration: z.string(),
    skillLevel: z.enum(SKILL_LEVELS),
    sections: z.array(PublicSectionSchema),
  },
  gated: ['sections.lessons.content', 'sections.lessons.media', 'sections.lessons.downloadables'],
  createFields: ['price', 'duration', 'skillLevel', 'sections'],
  purchasable: true,
  drafting: {
    title: '{subject}: From First Steps to Results',
    description: 'A step-by-step course on {topic}, from the basics to measurable results, with practical lessons and exercises.',
    outline: 'curriculum',
    fallbackTag: 'Small Business',
  },
  fromFrontmatter: (fm) => ({ price: fm.price, duration: fm.duration, skillLevel: fm.skillLevel, sections: fm.sections }),
  fromInput: (input) => ({ price: input.price, duration: input.duration, skillLevel: input.skillLevel, sections: input.sections }),
});
