/** The staff newsletter API's bodies and queries (zod); its lists and limits are the editor's too (`#shared/newsletter.ts`). */
import { z } from 'zod';
import { ACCESS_LEVELS } from '#shared/access.ts';
import { NESTING_MESSAGE, withinNesting } from '#shared/content/markdown.ts';
import { withinBodyLimits } from '#shared/content/markdown-limits.ts';
import { LocalDateTimeSchema, TimeZoneSchema } from '#shared/time.ts';
import {
  AUDIENCES,
  ISSUE_LIMITS,
  MAX_SEGMENT_AUDIENCES,
  PREVIEW_LEVELS,
  SEGMENT_AUDIENCE,
  type SegmentAudience,
} from '#shared/newsletter.ts';

/** An audience: a fixed one (the list, a level) or a saved segment (`segment:<id>`). */
const AudienceItem = z.union(
  [
    z.enum(AUDIENCES),
    z
      .string()
      .regex(SEGMENT_AUDIENCE)
      .transform((v) => v as SegmentAudience),
  ],
  { error: 'Each audience must be newsletter, free, subscriber, premium or segment:<id>' },
);
const MAX_AUDIENCES = AUDIENCES.length + MAX_SEGMENT_AUDIENCES;
import { CONTROL, CONTROL_IN_TEXT } from '../../platform/http/request.ts';

/** An issue as staff write it: `POST /api/admin/newsletter/issues` and `PUT …/{id}`. */
export const IssueInputSchema = z
  .object({
    subject: z
      .string({ error: 'subject is required' })
      .trim()
      .min(1, 'subject is required')
      .max(ISSUE_LIMITS.subject, `subject must be at most ${ISSUE_LIMITS.subject} characters`)
      .refine((v) => !CONTROL.test(v), 'subject must be a single line of text')
      .describe('The mail subject and the archive title; shown as text (HTML in it is escaped).'),
    previewText: z
      .string({ error: 'previewText must be text' })
      .trim()
      .max(ISSUE_LIMITS.previewText, `previewText must be at most ${ISSUE_LIMITS.previewText} characters`)
      .refine((v) => !CONTROL.test(v), 'previewText must be a single line of text')
      .describe('The inbox preview line (a hidden preheader) and the archive summary; may be empty.'),
    body: z
      .string({ error: 'body is required' })
      .trim()
      .min(1, 'body is required')
      .max(ISSUE_LIMITS.body, `body must be at most ${ISSUE_LIMITS.body} characters`)
      .refine((v) => !CONTROL_IN_TEXT.test(v), 'body contains characters that are not allowed')
      .refine(withinNesting, NESTING_MESSAGE)
      .superRefine(withinBodyLimits)
      .describe('Markdown; a line holding only <!-- preview --> ends the part everyone may read.'),
    accessLevel: z.enum(ACCESS_LEVELS, { error: 'accessLevel must be free, subscriber or premium' }),
    audience: z
      .array(AudienceItem, { error: 'audience must be a list' })
      .min(1, 'Pick at least one audience')
      .max(MAX_AUDIENCES, `audience has at most ${MAX_AUDIENCES} entries`)
      .refine((list) => new Set(list).size === list.length, 'Name each audience once'),
  })
  .strict();
export type IssueInput = z.infer<typeof IssueInputSchema>;

/** `POST …/{id}/schedule`: a wall-clock time in the editor's zone. */
export const ScheduleSchema = z.object({ sendAt: LocalDateTimeSchema, timeZone: TimeZoneSchema }).strict();
export type ScheduleInput = z.infer<typeof ScheduleSchema>;

/** `POST …/{id}/test`: the level to cut the test copy at (the caller's own by default). */
export const TestSendSchema = z.object({ level: z.enum(PREVIEW_LEVELS).optional() }).strict();

/** `GET …/audiences?selected=newsletter,premium`: the editor's choice of audiences, comma-separated (none: only each audience's own count). */
export const AudienceQuery = z.object({
  selected: z.preprocess(
    (v) => (typeof v === 'string' ? (v === '' ? [] : v.split(',')) : v),
    z
      .array(AudienceItem)
      .max(MAX_AUDIENCES, `selected has at most ${MAX_AUDIENCES} audiences`)
      .refine((list) => new Set(list).size === list.length, 'Name each audience once')
      .default([]),
  ),
});

/** `GET …/{id}/preview?level=`. */
export const PreviewQuery = z.object({
  level: z.enum(PREVIEW_LEVELS, { error: 'level must be visitor, free, subscriber or premium' }),
});
