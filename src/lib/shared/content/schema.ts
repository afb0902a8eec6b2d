/**
 * Field schemas shared by every content type: slugs, links, media, dates, and the common fields of
 * frontmatter and of items. The content types themselves are defined in types/ and listed in
 * registry.ts. Pure module: no Node or browser APIs.
 */
import { z } from 'zod';
import { ACCESS_LEVELS } from '../access.ts';
import { MEDIA_TYPES } from './constants.ts';
import { NESTING_MESSAGE, withinNesting } from './markdown.ts';
import { withinBodyLimits } from './markdown-limits.ts';

/** One line of text: no line breaks, tabs or other control characters. */
export const ONE_LINE = /^[^\u0000-\u001f\u007f-\u009f]*$/;
/** Running text: line breaks and tabs, but no other control characters. */
export const RUNNING_TEXT = /^[^\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f]*$/;
export const ONE_LINE_MESSAGE = 'Use one line of text without control characters';
export const RUNNING_TEXT_MESSAGE = 'Remove the control characters';

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
  .refine((u) => u.startsWith('https://') || /^[a-z0-9][a-z0-9._-]*(\/[a-z0-9][a-z0-9._-]*)*$/i.test(u), {
    message: 'Use a private file key such as downloads/kit.zip or an https:// URL',
  });

/** An https link to an outside page (tools' online versions, market items' shop pages). */
export const ExternalLinkSchema = z.url({ protocol: /^https$/ });

export const MediaItemSchema = z.object({
  url: PublicUrlSchema.describe('Where the file lives: /media/... for files in public/, or an https URL.'),
  type: z.enum(MEDIA_TYPES).describe('How the gallery shows it: image, video or pdf.'),
  alt: z.string().max(300).optional().describe('Text alternative; for uploads, the original file name.'),
});
export type MediaItem = z.infer<typeof MediaItemSchema>;

/** Date-only string (YYYY-MM-DD); kept as text so that no time zone shifts the day. */
export const DateOnlySchema = z.string().regex(/^\d{4}-\d{2}-\d{2}$/);

/** Calendar day of a date in UTC, so a date written as 2026-03-14 stays the 14th everywhere. */
export function toDateOnly(date: Date): string {
  return date.toISOString().slice(0, 10);
}

const TagSchema = z.string().trim().min(1).max(40).regex(ONE_LINE, ONE_LINE_MESSAGE);

/** Frontmatter fields every content type has; each type adds its own (see content-type.ts). */
export const BASE_FRONTMATTER = {
  title: z
    .string()
    .trim()
    .min(3, 'Title must be at least 3 characters')
    .max(200)
    .regex(ONE_LINE, ONE_LINE_MESSAGE)
    .describe('Headline shown on cards and the detail page.'),
  description: z
    .string()
    .trim()
    .min(10, 'Description must be at least 10 characters')
    .max(600)
    .regex(ONE_LINE, ONE_LINE_MESSAGE)
    .describe('One or two sentences shown on cards (clamped to 2 lines) and in search results.'),
  slug: SlugSchema.optional(),
  tags: z.array(TagSchema).max(20).default([]).describe('Topics; the first three show on cards.'),
  accessLevel: z
    .enum(ACCESS_LEVELS)
    .default('free')
    .describe('Lowest member level that may open the gated parts: free, subscriber or premium.'),
  media: z.array(MediaItemSchema).max(30).default([]).describe('Gallery shown on the detail page.'),
};

/** Fields every item has, full or public: the common columns of a database row. */
export const ITEM_BASE = {
  id: z.string().min(1).max(64),
  slug: SlugSchema,
  title: z.string(),
  description: z.string(),
  tags: z.array(z.string()),
  accessLevel: z.enum(ACCESS_LEVELS),
  media: z.array(MediaItemSchema),
};
export type ItemBase = z.output<z.ZodObject<typeof ITEM_BASE>>;

/** Where an item comes from: an MDX file in git, or a database row written by the creator tools. */
export const CONTENT_SOURCES = ['mdx', 'db'] as const;
export type ContentSource = (typeof CONTENT_SOURCES)[number];

/**
 * A staff body (an article's, an event's, a lesson's Markdown): running text up to `maxChars`, within
 * the nesting and parsing limits the renderer relies on.
 */
export const staffBody = (maxChars: number) =>
  z.string().max(maxChars).regex(RUNNING_TEXT, RUNNING_TEXT_MESSAGE).refine(withinNesting, NESTING_MESSAGE).superRefine(withinBodyLimits);
