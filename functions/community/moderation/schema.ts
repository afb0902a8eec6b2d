/** The moderation API's bodies and queries (zod): reports, staff's actions, suspensions and categories. */
import { z } from 'zod';
import { ACCESS_LEVELS } from '#shared/access.ts';
import { SlugSchema } from '#shared/content/schema.ts';
import { CATEGORY_POSITION, MODERATION_LIMITS, POST_ACTIONS, THREAD_ACTIONS } from '#shared/community/moderation.ts';
import { withoutInvisible } from '#shared/visible-text.ts';
import { CONTROL, CONTROL_IN_TEXT } from '../../platform/http/request.ts';

/** Optional free text: without invisible characters (`#shared/visible-text.ts`), trimmed, at most `max` characters, no control characters but line breaks and tabs. */
const optionalText = (label: string, max: number) =>
  z
    .string({ error: `${label} must be text` })
    .transform(withoutInvisible)
    .pipe(
      z
        .string()
        .trim()
        .max(max, `${label} must be at most ${max} characters`)
        .refine((v) => !CONTROL_IN_TEXT.test(v), `${label} contains characters that are not allowed`),
    )
    .default('');

/** `POST /api/community/posts/{id}/report`: why (optional). */
export const ReportSchema = z
  .object({ reason: optionalText('reason', MODERATION_LIMITS.reportReason).describe('What is wrong with the post, for staff.') })
  .strict();
export type ReportInput = z.infer<typeof ReportSchema>;

/** `POST /api/admin/community/posts/{id}`. */
export const PostActionSchema = z
  .object({
    action: z.enum(POST_ACTIONS, { error: `action must be one of ${POST_ACTIONS.join(', ')}` }),
    /** The post's `editedAt` as staff read it (null: never edited): an approval of text edited since is refused. */
    seen: z.iso.datetime({ offset: true, error: 'seen must be the post’s editedAt' }).nullable().optional(),
  })
  .strict();
export type PostActionInput = z.infer<typeof PostActionSchema>;

/** `POST /api/admin/community/threads/{id}`: `category` (a slug) names where `move` takes it, and only then. */
export const ThreadActionSchema = z
  .object({
    action: z.enum(THREAD_ACTIONS, { error: `action must be one of ${THREAD_ACTIONS.join(', ')}` }),
    category: SlugSchema.optional(),
  })
  .strict()
  .superRefine((input, ctx) => {
    if (input.action === 'move' && !input.category)
      ctx.addIssue({ code: 'custom', path: ['category'], message: 'Name the category to move the thread to' });
    if (input.action !== 'move' && input.category)
      ctx.addIssue({ code: 'custom', path: ['category'], message: 'category goes only with move' });
  });
export type ThreadActionInput = z.infer<typeof ThreadActionSchema>;

const MAX_SUSPENSION_MS = MODERATION_LIMITS.suspensionDays * 86_400_000;

/** `POST /api/admin/community/members/{userId}/suspension`: `until` (an instant ahead) or none (until lifted). */
export const SuspensionSchema = z
  .object({
    suspended: z.boolean({ error: 'suspended must be true or false' }),
    until: z.iso
      .datetime({ offset: true, error: 'until must be a date and time such as 2026-12-10T15:00:00Z' })
      .transform((s) => new Date(s))
      .refine((d) => d.getTime() > Date.now(), 'until must be in the future')
      .refine((d) => d.getTime() <= Date.now() + MAX_SUSPENSION_MS, `until must be within ${MODERATION_LIMITS.suspensionDays} days`)
      .optional(),
    reason: optionalText('reason', MODERATION_LIMITS.suspensionReason).describe('Why, kept in the log (the member is not told).'),
  })
  .strict()
  .superRefine((input, ctx) => {
    if (!input.suspended && input.until) ctx.addIssue({ code: 'custom', path: ['until'], message: 'until goes only with suspended: true' });
  });
export type SuspensionInput = z.infer<typeof SuspensionSchema>;

const categoryFields = {
  name: z
    .string({ error: 'name is required' })
    .trim()
    .min(1, 'name is required')
    .max(MODERATION_LIMITS.categoryName, `name must be at most ${MODERATION_LIMITS.categoryName} characters`)
    .refine((v) => !CONTROL.test(v), 'name must be a single line of text'),
  description: optionalText('description', MODERATION_LIMITS.categoryDescription),
  accessLevel: z.enum(ACCESS_LEVELS, { error: 'accessLevel must be free, subscriber or premium' }),
  anyoneReads: z.boolean({ error: 'anyoneReads must be true or false' }).default(false),
  position: z
    .number({ error: 'position must be a number' })
    .int('position must be a whole number')
    .min(CATEGORY_POSITION.min, `position must be at least ${CATEGORY_POSITION.min}`)
    .max(CATEGORY_POSITION.max, `position must be at most ${CATEGORY_POSITION.max}`)
    .default(0),
};

/** Visitors read only a free category (the table's check constraint says the same). */
const publicOnlyIfFree = (input: { accessLevel: string; anyoneReads: boolean }, ctx: z.RefinementCtx) => {
  if (input.anyoneReads && input.accessLevel !== 'free')
    ctx.addIssue({ code: 'custom', path: ['anyoneReads'], message: 'Only a free category can be open to visitors' });
};

/** `PUT /api/admin/community/categories/{slug}`: everything but the slug (its address stays). */
export const CategoryUpdateSchema = z.object(categoryFields).strict().superRefine(publicOnlyIfFree);
export type CategoryUpdate = z.infer<typeof CategoryUpdateSchema>;

/** `POST /api/admin/community/categories`. */
export const CategoryInputSchema = z
  .object({ slug: SlugSchema.max(60, 'slug must be at most 60 characters'), ...categoryFields })
  .strict()
  .superRefine(publicOnlyIfFree);
export type CategoryInput = z.infer<typeof CategoryInputSchema>;

/** `GET /api/admin/community/log?cursor=`. */
export const LogQuery = z.object({
  cursor: z.uuid('cursor is not valid').optional(),
});
