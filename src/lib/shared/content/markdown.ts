/**
 * What every Markdown (and MDX) body shares, server and browser alike: the author's preview marker,
 * the longest body, and how deep quotes and lists may nest. The renderer (remark, micromark) recurses
 * once per level of nesting, so a short hostile body (`'>'.repeat(1000)`) overflows the stack and a
 * deeply indented list takes tens of seconds first; `blockNesting` refuses both in one pass over the
 * lines, before anything is parsed. Pure module.
 */

/** A line holding only the preview marker: `{/* preview *\/}` (MDX) or `<!-- preview -->` (Markdown). */
export const PREVIEW_MARKER = /^[ \t]*(?:\{\/\*[ \t]*preview[ \t]*\*\/\}|<!--[ \t]*preview[ \t]*-->)[ \t]*$/im;
/** Every MDX preview line of a body (to turn an MDX article into Markdown). */
export const MDX_PREVIEW_LINES = /^[ \t]*\{\/\*[ \t]*preview[ \t]*\*\/\}[ \t]*$/gim;
/** The Markdown preview line as authors write it. */
export const MARKDOWN_PREVIEW_LINE = '<!-- preview -->';

/** The longest article, event or newsletter body, in characters. */
export const MAX_BODY_CHARS = 200_000;
/** How many quotes and lists deep a body may nest (far beyond any real text; the renderer copes with a few hundred). */
export const MAX_NESTING = 20;
export const NESTING_MESSAGE = `Quotes and lists may be nested at most ${MAX_NESTING} levels deep`;

const FENCE = /^(`{3,}|~{3,})/;
const CLOSING_FENCE = /^(`{3,}|~{3,})[ \t]*$/;
const THEMATIC_BREAK = /^([-*_])(?:[ \t]*\1){2,}[ \t]*$/;
/** A quote or list marker at a position (sticky), followed by whitespace or the end of the line. */
const MARKER = /(?:>|(?:[-*+]|\d{1,9}[.)])(?=[ \t]|$))/y;

/** Where the whitespace from `at` ends, and how many columns it spans (a tab counts four). */
function skipIndent(line: string, at: number): { columns: number; next: number } {
  let columns = 0;
  let next = at;
  while (next < line.length && (line[next] === ' ' || line[next] === '\t')) columns += line[next++] === '\t' ? 4 : 1;
  return { columns, next };
}

/**
 * How many blocks deep a line sits (counting stops past `limit`): one per `>` and per list marker
 * before its text, and one per two columns of indentation before the first marker and after each
 * `>` (a nested list item is indented under its parent's text). Answers the text after the markers too.
 */
function lineDepth(line: string, limit: number): { depth: number; rest: string } {
  const lead = skipIndent(line, 0);
  let depth = Math.floor(lead.columns / 2);
  let at = lead.next;
  while (depth <= limit) {
    MARKER.lastIndex = at;
    const marker = MARKER.exec(line);
    if (!marker || THEMATIC_BREAK.test(line.slice(at))) break;
    const gap = skipIndent(line, at + marker[0].length);
    // Inside a quote, indentation beyond the one space after `>` nests lists again.
    depth += 1 + (marker[0] === '>' ? Math.floor(Math.max(0, gap.columns - 1) / 2) : 0);
    at = gap.next;
  }
  return { depth, rest: depth > limit ? '' : line.slice(at) };
}

/**
 * The deepest block nesting of a body, stopping once past `limit` (text inside fenced code blocks is
 * code, not nesting). Linear in the body's length.
 */
export function blockNesting(source: string, limit = MAX_NESTING): number {
  let deepest = 0;
  let fence: string | undefined;
  for (const line of source.split('\n')) {
    const { depth, rest } = lineDepth(line, limit);
    if (fence) {
      const closes = CLOSING_FENCE.exec(rest)?.[1];
      if (closes && closes[0] === fence[0] && closes.length >= fence.length) fence = undefined;
      continue;
    }
    fence = FENCE.exec(rest)?.[1];
    deepest = Math.max(deepest, depth);
    if (deepest > limit) break;
  }
  return deepest;
}

/** Whether a body nests no deeper than `MAX_NESTING` (a zod refinement of every Markdown body). */
export const withinNesting = (source: string): boolean => blockNesting(source) <= MAX_NESTING;
