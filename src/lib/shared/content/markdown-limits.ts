/**
 * What a member's post or a staff body may hold before it is parsed: Markdown shapes whose parsing
 * grows with the square of their size, refused with a clear message (422) rather than parsed. Every
 * check here is one linear pass, since it runs on the server's thread before anything else (and in
 * the create form, which shares the schemas); the parse itself runs on a renderer's thread with a
 * time limit (functions/content/body-renderer.ts), which bounds whatever these checks do not
 * foresee. Code in fenced blocks is not Markdown, so it is not counted. Pure module.
 */
import type { z } from 'zod';

/**
 * How many `*` and `_` a post may hold outside fenced code. Each may open or close emphasis, and
 * the parser pairs them in time that grows with the square of their number (and nests what it
 * pairs, which overflows the stack): 2,000 pairs took 8 s, 20,000 characters of `*` 40 s. 500 keeps
 * the worst post to a fraction of a second; real posts use a few.
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
/**
 * How many lines of only `=` or `-` (setext heading underlines, thematic breaks) a post may hold:
 * the parser rebuilds its token list at each underline, so 5,000 of them (20,000 characters) took
 * 4-6 s; 100 take nothing worth measuring.
 */
export const MAX_UNDERLINES = 100;

/**
 * A fence opening at a line's start (at most three spaces in), and its closing line. After a
 * backtick fence the info string holds no backtick (CommonMark): "```js```" is inline code, not a fence.
 */
const FENCE_OPEN = /^ {0,3}(`{3,}|~{3,})/;
const FENCE_CLOSE = /^ {0,3}(`{3,}|~{3,})[ \t]*$/;

/**
 * The lines outside fenced code blocks, in one pass: a fence at a line's start runs to the first
 * closing line of its character at least as long, or to the end of the post (as CommonMark has it).
 */
export function linesOutsideCode(text: string): string[] {
  const kept: string[] = [];
  let fence: string | undefined;
  for (const line of text.split('\n')) {
    if (fence) {
      const close = FENCE_CLOSE.exec(line)?.[1];
      if (close && close[0] === fence[0] && close.length >= fence.length) fence = undefined;
      continue;
    }
    const open = FENCE_OPEN.exec(line);
    fence = open && !(open[1]![0] === '`' && line.includes('`', open[0].length)) ? open[1] : undefined;
    if (!fence) kept.push(line);
  }
  return kept;
}

/** How many `*` and `_` the lines hold. */
export const emphasisMarks = (lines: string[]) => lines.reduce((n, line) => n + line.replace(/[^*_]/g, '').length, 0);

/** The deepest nesting of `[` in the lines (an escaped `\[` opens nothing). */
export function bracketNesting(lines: string[]): number {
  let depth = 0;
  let deepest = 0;
  for (const line of lines) {
    for (let i = 0; i < line.length; i++) {
      const c = line[i];
      if (c === '\\') i++;
      else if (c === '[') deepest = Math.max(deepest, ++depth);
      else if (c === ']') depth = Math.max(0, depth - 1);
    }
  }
  return deepest;
}

/** A line with its quote markers and indentation taken off (a loop, not a pattern that can backtrack). */
function content(line: string): string {
  let i = 0;
  while (i < line.length && (line[i] === ' ' || line[i] === '\t' || line[i] === '>')) i++;
  return line.slice(i);
}

/** A table's delimiter row (`|---|:-:|`, in a quote or after a list marker too): its columns; 0 for any other line. */
function delimiterColumns(line: string): number {
  let rest = content(line);
  const marker = /^(?:[*+-]|\d{1,9}[.)])[ \t]/.exec(rest);
  if (marker) rest = rest.slice(marker[0].length);
  if (!rest.includes('|') || !/^[ \t|:-]+$/.test(rest)) return 0;
  return rest.split('|').filter((cell) => cell.includes('-')).length;
}

/**
 * At least as many table cells as the post renders: for each delimiter row, its columns times the
 * header and every line up to the next blank one (a blank line always ends a table).
 */
export function tableCells(lines: string[]): number {
  let cells = 0;
  let blockEnd = lines.length;
  for (let i = lines.length - 1; i >= 0; i--) {
    const line = lines[i]!;
    if (content(line).trim() === '') blockEnd = i;
    else cells += delimiterColumns(line) * (blockEnd - i);
  }
  return cells;
}

/** How many lines are only `=` or only `-` (after quote markers and indentation). */
export const underlines = (lines: string[]) => lines.filter((line) => /^(?:=+|-+)[ \t]*$/.test(content(line))).length;

/** A line that starts a block of its own (a list item or an ATX heading), whatever came before it. */
const BLOCK_START = /^(?:[*+-]|\d{1,9}[.)]|#{1,6})(?:[ \t]|$)/;

/**
 * The most `*` and `_` one block holds: lines up to a blank one, or to a line that starts a list item
 * or a heading. The parser pairs emphasis within one paragraph, item or heading, so its square time
 * is per block (four paragraphs of 500 marks take four times one, not sixteen); a table's rows count
 * as one block, which can only count more than the parser pairs.
 */
export function emphasisMarksPerBlock(lines: string[]): number {
  let most = 0;
  let block = 0;
  for (const line of lines) {
    const rest = content(line);
    if (rest.trim() === '' || BLOCK_START.test(rest)) block = 0;
    block += line.replace(/[^*_]/g, '').length;
    most = Math.max(most, block);
  }
  return most;
}

/** The limits every Markdown text keeps whatever its length: nesting of links and images, table cells, underlines. */
function shapeProblem(lines: string[]): string | undefined {
  if (bracketNesting(lines) > MAX_BRACKET_NESTING) return `Links and images may be nested at most ${MAX_BRACKET_NESTING} levels deep`;
  if (tableCells(lines) > MAX_TABLE_CELLS) return `Tables may have at most ${MAX_TABLE_CELLS.toLocaleString('en-US')} cells`;
  if (underlines(lines) > MAX_UNDERLINES) return `Use at most ${MAX_UNDERLINES} lines of only = or - outside code blocks`;
  return undefined;
}

/** The first limit a post's Markdown breaks, as the message the member reads; undefined when it keeps them all. */
export function markdownProblem(text: string): string | undefined {
  const lines = linesOutsideCode(text);
  if (emphasisMarks(lines) > MAX_EMPHASIS_MARKS) return `Use at most ${MAX_EMPHASIS_MARKS} * and _ characters outside code blocks`;
  return shapeProblem(lines);
}

/**
 * The first limit a staff body (an article, event, lesson or newsletter issue: up to 200,000
 * characters) breaks, as the message its editor reads; undefined when it keeps them all. The same
 * limits as a post's, but emphasis is counted per block: a long article uses more than 500 marks in
 * all (the demo articles use about 15 per 1,000 characters), and the cost is per block.
 */
export function bodyMarkdownProblem(text: string): string | undefined {
  const lines = linesOutsideCode(text);
  if (emphasisMarksPerBlock(lines) > MAX_EMPHASIS_MARKS)
    return `Use at most ${MAX_EMPHASIS_MARKS} * and _ characters in one paragraph, list item or heading outside code blocks`;
  return shapeProblem(lines);
}

/** A staff body's limits as a zod refinement (`.superRefine(withinBodyLimits)`): the issue is `bodyMarkdownProblem`'s message. */
export function withinBodyLimits(text: string, ctx: z.RefinementCtx): void {
  const problem = bodyMarkdownProblem(text);
  if (problem) ctx.addIssue({ code: 'custom', message: problem });
}
