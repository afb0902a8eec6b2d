/**
 * The community API's request bodies and queries. Text a member writes loses the characters that
 * change how the text around it reads (bidirectional overrides and isolates, which can make a link
 * read backwards, and invisible zero-width spaces), then goes through the shared field rules (no
 * control characters; a title on one line) and, for a post, the nesting limit every Markdown body has.
 */
import { z } from 'zod';
import { NESTING_MESSAGE, withinNesting } from '#shared/content/markdown.ts';
import { multiLine, singleLine, withoutInvisible } from '../platform/http/request.ts';

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

/** Bidirectional embeddings, overrides and isolates, zero-width spaces and marks, the word joiner and the BOM (request.ts `INVISIBLE`). */
const visible = z.string({ error: 'Must be text' }).transform(withoutInvisible);

/** A thread's title: one line of visible text. */
export const TitleSchema = visible.pipe(singleLine('Title', MAX_TITLE_CHARS));

/**
 * How many `*` and `_` a post may hold outside fenced code. Each may open or close emphasis, and
 * the parser pairs them in time that grows with the square of their number (and nests what it
 * pairs, which overflows the stack): 2,000 pairs took 8 s of the server's one thread, 20,000
 * characters of `*` 40 s. 500 keeps the worst post to a fraction of a second; real posts use a few.
 */
export const MAX_EMPHASIS_MARKS = 500;
/**
 * How deep `[` may nest outside fenced code. Links and images nested in one another are matched in
 * time that grows with the square of their depth: 3,000 nested images (18,000 characters) took
 * 6.7 s. A badge in a link is two deep.
 */
export const MAX_BRACKET_NESTING = 16;
/**
 * How many cells a post's tables may have, at most. Every row of a table gets as many cells as its
 * header, so 8 KB of `|` lines under a 100-column header rendered 3.6 MB of HTML in 3.4 s; 5,000
 * cells (a table of 20 columns and 250 rows) render in about 0.1 s.
 */
export const MAX_TABLE_CELLS = 5_000;

const FENCED_CODE = /^[ \t]*(`{3,}|~{3,})[^\n]*\n[\s\S]*?^[ \t]*\1[ \t]*$/gm;
const outsideCode = (text: string) => text.replace(FENCED_CODE, '');
const emphasisMarks = (text: string) => outsideCode(text).replace(/[^*_]/g, '').length;

/** The deepest nesting of `[` outside fenced code (an escaped `\[` opens nothing). */
export function bracketNesting(text: string): number {
  let depth = 0;
  let deepest = 0;
  const code = outsideCode(text);
  for (let i = 0; i < code.length; i++) {
    const c = code[i];
    if (c === '\\') i++;
    else if (c === '[') deepest = Math.max(deepest, ++depth);
    else if (c === ']') depth = Math.max(0, depth - 1);
  }
  return deepest;
}

/** A table's delimiter row (`|---|:-:|`), inside quotes or a list item too. */
const DELIMITER_ROW = /^[ \t>]*(?:(?:[-*+]|\d{1,9}[.)])[ \t]+)?\|?[ \t]*:?-+:?[ \t]*(?:\|[ \t]*:?-+:?[ \t]*)*\|?[ \t]*$/;
const BLANK = /^[ \t>]*$/;

/**
 * At least as many table cells as the post renders: for each delimiter row, its columns times the
 * header and every line up to the next blank one (a blank line always ends a table).
 */
export function tableCells(text: string): number {
  const lines = outsideCode(text).split('\n');
  let cells = 0;
  let blockEnd = lines.length;
  for (let i = lines.length - 1; i >= 0; i--) {
    const line = lines[i]!;
    if (BLANK.test(line)) blockEnd = i;
    else if (line.includes('|') && DELIMITER_ROW.test(line)) {
      const columns = line.split('|').filter((cell) => cell.includes('-')).length;
      cells += columns * (blockEnd - i);
    }
  }
  return cells;
}

/** A post's Markdown: visible text, line breaks allowed, nested no deeper than every body, and nothing the parser takes seconds on. */
export const PostBodySchema = visible.pipe(
  multiLine('Post', MAX_POST_CHARS)
    .refine(withinNesting, NESTING_MESSAGE)
    .refine((v) => emphasisMarks(v) <= MAX_EMPHASIS_MARKS, `Use at most ${MAX_EMPHASIS_MARKS} * and _ characters outside code blocks`)
    .refine((v) => bracketNesting(v) <= MAX_BRACKET_NESTING, `Links and images may be nested at most ${MAX_BRACKET_NESTING} levels deep`)
    .refine((v) => tableCells(v) <= MAX_TABLE_CELLS, `Tables may have at most ${MAX_TABLE_CELLS.toLocaleString('en-US')} cells`),
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
export const SearchQuery = z.object({ q: visible.pipe(singleLine('Search', 200)), cursor: Cursor });
