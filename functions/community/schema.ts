/**
 * The community API's request bodies and queries. Text a member writes loses the characters that
 * change how the text around it reads (bidirectional overrides and isolates, which can make a link
 * read backwards, and invisible zero-width spaces), then goes through the shared field rules (no
 * control characters; a title on one line) and, for a post, the nesting limit every Markdown body has.
 */
import { z } from 'zod';
import { NESTING_MESSAGE, withinNesting } from '#shared/content/markdown.ts';
import { withoutInvisible } from '#shared/visible-text.ts';
import { multiLine, singleLine } from '../platform/http/request.ts';
import { markdownProblem } from '#shared/content/markdown-limits.ts';

/** The longest thread title. */
export const MAX_TITLE_CHARS = 150;
/** The longest post, in characters (a long answer with code fits; a pasted book does not). */
export const MAX_POST_CHARS = 20_000;
/** Posts per page of a thread, and at most. */
export const POSTS_PER_PAGE = 50;
export const MAX_POSTS_PER_PAGE = 100;
/** Threads per page of a category, and at most. */
export const THREADS_PER_PAGE = 30;
export const MAX_THREADS_PER_PAGE = 100;
/** Search results per page. */
export const RESULTS_PER_PAGE = 20;

/** Bidirectional embeddings, overrides and isolates, zero-width spaces and marks, the word joiner and the BOM (`#shared/visible-text.ts`). */
const visible = z.string({ error: 'Must be text' }).transform(withoutInvisible);

/** A thread's title: one line of visible text. */
export const TitleSchema = visible.pipe(singleLine('Title', MAX_TITLE_CHARS));

/** A post's Markdown: visible text, line breaks allowed, nested no deeper than every body, and nothing the parser takes seconds on (markdown-limits.ts). */
export const PostBodySchema = visible.pipe(
  multiLine('Post', MAX_POST_CHARS)
    .refine(withinNesting, NESTING_MESSAGE)
    .superRefine((v, ctx) => {
      const problem = markdownProblem(v);
      if (problem) ctx.addIssue({ code: 'custom', message: problem });
    }),
);

/** A category's slug in a body or a query. */
const CategorySlug = z
  .string({ error: 'Category is required' })
  .min(1, 'Category is required')
  .max(60, 'Category is not valid')
  .regex(/^[a-z0-9]+(?:-[a-z0-9]+)*$/, 'Category is not valid');

export const NewThreadSchema = z.object({ category: CategorySlug, title: TitleSchema, body: PostBodySchema });
export const PostTextSchema = z.object({ body: PostBodySchema });

/** An opaque page cursor from an earlier answer. */
const Cursor = z
  .string()
  .max(200, 'cursor is not valid')
  .regex(/^[A-Za-z0-9_-]+$/, 'cursor is not valid')
  .optional();
const limit = (fallback: number, max: number) =>
  z.coerce
    .number({ error: 'limit must be a number' })
    .int('limit must be a whole number')
    .min(1, 'limit must be at least 1')
    .max(max, `limit must be at most ${max}`)
    .default(fallback);

export const ThreadListQuery = z.object({ category: CategorySlug, cursor: Cursor, limit: limit(THREADS_PER_PAGE, MAX_THREADS_PER_PAGE) });
export const PostPageQuery = z.object({ cursor: Cursor, limit: limit(POSTS_PER_PAGE, MAX_POSTS_PER_PAGE) });
/**
 * Words of a search that count: the excerpt's highlighter (`ts_headline`) costs the square of a
 * post's length times the words asked for, so 60 repeated words over a long post held the database
 * for seconds (and Postgres's memory for gigabytes); the rest of a longer query is dropped.
 */
export const MAX_SEARCH_WORDS = 8;
export const SearchQuery = z.object({
  q: visible.pipe(singleLine('Search', 200)).transform((q) => q.split(/\s+/).filter(Boolean).slice(0, MAX_SEARCH_WORDS).join(' ')),
  cursor: Cursor,
});
