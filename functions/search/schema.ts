/** `GET /api/search`'s query: what is refused with 422 (field errors) before any SQL runs. */
import { z } from 'zod';
import { withoutInvisible } from '#shared/visible-text.ts';
import { SEARCH_LIMIT, SEARCH_LIMIT_MAX, SEARCH_QUERY_MAX, SEARCH_TYPES, SEARCH_WORDS_MAX } from '#shared/search.ts';
import { singleLine } from '../platform/http/request.ts';

/**
 * The words that count: the first eight (the highlighter's cost grows with the words asked for), of
 * one trimmed line of at most 200 well-formed characters (a longer query is refused, never cut).
 */
const Query = z
  .string({ error: 'Search is required' })
  .transform(withoutInvisible)
  .pipe(singleLine('Search', SEARCH_QUERY_MAX))
  .refine((q) => q.isWellFormed(), 'Search contains a character that is not valid text')
  .transform((q) => q.split(/\s+/).slice(0, SEARCH_WORDS_MAX).join(' '));

export const SearchQuerySchema = z.object({
  q: Query,
  type: z.enum(SEARCH_TYPES, { error: `type must be one of ${SEARCH_TYPES.join(', ')}` }).optional(),
  limit: z.coerce
    .number({ error: 'limit must be a number' })
    .int('limit must be a whole number')
    .min(1, 'limit must be at least 1')
    .max(SEARCH_LIMIT_MAX, `limit must be at most ${SEARCH_LIMIT_MAX}`)
    .default(SEARCH_LIMIT),
  /** Staff only: unpublished database items too (the route checks the caller first). */
  drafts: z.enum(['0', '1'], { error: 'drafts must be 0 or 1' }).optional(),
});

export type SearchQuery = z.infer<typeof SearchQuerySchema>;
