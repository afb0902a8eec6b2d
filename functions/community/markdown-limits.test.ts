import { describe, expect, it } from 'vitest';
import { renderMemberPost } from '../content/render.ts';
import {
  bodyMarkdownProblem,
  bracketNesting as nestingOf,
  emphasisMarksPerBlock,
  linesOutsideCode,
  markdownProblem,
  MAX_EMPHASIS_MARKS,
  MAX_BRACKET_NESTING,
  MAX_TABLE_CELLS,
  MAX_UNDERLINES,
  tableCells as cellsOf,
  underlines,
} from '#shared/content/markdown-limits.ts';
import { PostBodySchema } from './schema.ts';

const bracketNesting = (text: string) => nestingOf(linesOutsideCode(text));
const tableCells = (text: string) => cellsOf(linesOutsideCode(text));

const table = (columns: number, rows: number, prefix = '') =>
  [`|${'h|'.repeat(columns)}`, `|${'-|'.repeat(columns)}`, ...Array.from({ length: rows }, () => `|${'c|'.repeat(columns)}`)]
    .map((line) => prefix + line)
    .join('\n');
const renderedCells = (source: string) => (renderMemberPost(source).match(/<t[hd][\s>]/g) ?? []).length;

describe('bracketNesting', () => {
  it('counts how deep links and images nest, outside fenced code and escapes', () => {
    expect(bracketNesting('plain text')).toBe(0);
    expect(bracketNesting('[a](https://a.example) and [b](https://b.example)')).toBe(1);
    expect(bracketNesting('[![badge](https://a.example/b.svg)](https://a.example)')).toBe(2);
    expect(bracketNesting('\\[\\[\\[\\[ escaped')).toBe(0);
    expect(bracketNesting('```\n[[[[[[[[[[[[[[[[[[[[\n```\nafter')).toBe(0);
    expect(bracketNesting(']]]] [x]')).toBe(1);
    expect(bracketNesting(`${'!['.repeat(3000)}x${'](a)'.repeat(3000)}`)).toBe(3000);
  });
});

describe('tableCells', () => {
  it('is at least what the renderer makes, for tables alone, in quotes, in lists and ended by other blocks', () => {
    const samples = [
      table(3, 2),
      table(1, 0),
      `${table(4, 3)}\n\nAfter the table.\n\n${table(2, 5)}`,
      table(3, 4, '> '),
      `- item\n\n${table(2, 3, '  ')}`,
      `${table(3, 2)}\n# A heading ends it\nmore text`,
      `* item\n\n${table(2, 3, '  ')}`,
      `* ${table(3, 2).split('\n').join('\n  ')}`,
      `+ ${table(2, 2).split('\n').join('\n  ')}`,
      `1. ${table(2, 2).split('\n').join('\n   ')}`,
      `| a | b |\n|---|---|\n|\n|\n|\n`,
      `a | b\n--|--\nc | d`,
    ];
    for (const sample of samples) expect(tableCells(sample), sample).toBeGreaterThanOrEqual(renderedCells(sample));
    expect(tableCells(table(3, 2))).toBe(9);
    expect(tableCells('no tables | here\njust a pipe')).toBe(0);
    expect(tableCells(`\`\`\`\n${table(100, 100)}\n\`\`\``)).toBe(0);
  });
});

describe('linesOutsideCode', () => {
  it('leaves out fenced code, closed by a fence of its character at least as long, or running to the end', () => {
    expect(linesOutsideCode('a\n```js\ncode\n```\nb')).toEqual(['a', 'b']);
    expect(linesOutsideCode('a\n````\n```\nstill code\n````\nb')).toEqual(['a', 'b']);
    expect(linesOutsideCode('a\n~~~\n```\n~~~\nb')).toEqual(['a', 'b']);
    expect(linesOutsideCode('a\n```\nnever closed\nmore')).toEqual(['a']);
    expect(linesOutsideCode('    ```\nindented four: not a fence')).toEqual(['    ```', 'indented four: not a fence']);
    // A backtick "fence" with a backtick after it is inline code: what follows is still Markdown.
    expect(linesOutsideCode('```js``` inline\n**counted**')).toEqual(['```js``` inline', '**counted**']);
    expect(linesOutsideCode('~~~ info `with` ticks\ncode\n~~~\nb')).toEqual(['b']);
  });

  it('takes one pass however the fences and delimiter rows are shaped', () => {
    // Shapes that made the earlier patterns backtrack (seconds of the server's thread before the rate limit).
    const fences = `${'`'.repeat(10_000)}\n${'a\n'.repeat(4_900)}`;
    expect(linesOutsideCode(fences)).toEqual([]);
    expect(tableCells(`-${' '.repeat(19_990)}|x`)).toBe(0);
  });
});

describe('underlines', () => {
  it('counts lines of only = or -, which the parser rebuilds its tokens at', () => {
    expect(underlines(linesOutsideCode('Title\n=====\n\nSub\n---\n> q\n> ==\n```\n---\n```'))).toBe(3);
    expect(PostBodySchema.safeParse('a\n-\n'.repeat(MAX_UNDERLINES)).success).toBe(true);
    const many = PostBodySchema.safeParse('a\n-\n'.repeat(MAX_UNDERLINES + 1));
    expect(many.error?.issues[0]?.message).toContain(`at most ${MAX_UNDERLINES} lines of only = or -`);
  });
});

describe('PostBodySchema', () => {
  it('takes ordinary posts with links, badges and a table', () => {
    for (const body of ['[![badge](https://a.example/b.svg)](https://a.example) works', table(20, 240), `${table(5, 10)}\n\nThanks!`])
      expect(PostBodySchema.safeParse(body).success, body.slice(0, 40)).toBe(true);
  });

  it('refuses what the parser would take seconds on: deeply nested links and images, huge tables', () => {
    const refusals: [string, string, string][] = [
      ['nested images', `${'!['.repeat(3000)}x${'](a)'.repeat(3000)}`, `nested at most ${MAX_BRACKET_NESTING} levels`],
      ['nested links', `${'['.repeat(MAX_BRACKET_NESTING + 1)}x${'](a)'.repeat(MAX_BRACKET_NESTING + 1)}`, 'nested at most'],
      ['empty rows under a wide header', `|${'a|'.repeat(100)}\n|${'-|'.repeat(100)}\n${'|\n'.repeat(4000)}`, 'at most 5,000 cells'],
      ['a table in a quote', table(50, 100, '> '), 'at most 5,000 cells'],
    ];
    for (const [label, body, message] of refusals) {
      const parsed = PostBodySchema.safeParse(body);
      expect(parsed.success, label).toBe(false);
      expect(parsed.error?.issues.map((i) => i.message).join(' '), label).toContain(message);
    }
    expect(tableCells(table(50, 99))).toBe(MAX_TABLE_CELLS);
    expect(PostBodySchema.safeParse(table(50, 99)).success).toBe(true);
  });
});

describe('bodyMarkdownProblem (staff bodies)', () => {
  /** An ordinary paragraph of an article: bold, emphasis and a link with underscores. */
  const paragraph = 'Some **bold** text, _a note_ and [a link](https://example.com/some_page_name).';

  it('counts emphasis per paragraph, list item and heading, since the parser pairs it there', () => {
    expect(emphasisMarksPerBlock(linesOutsideCode('**a**\n**b**\n\n**c**'))).toBe(8);
    expect(emphasisMarksPerBlock(linesOutsideCode('- **a**\n- **b**\n# **c**\n\n> **d**\n> \n> **e**'))).toBe(4);
    expect(emphasisMarksPerBlock(linesOutsideCode('```\n****\n```\n*x*'))).toBe(2);
  });

  it('takes a long article that uses more marks in all than a post may', () => {
    const article = Array.from({ length: 200 }, () => paragraph).join('\n\n');
    expect(markdownProblem(article)).toContain(`at most ${MAX_EMPHASIS_MARKS}`);
    expect(bodyMarkdownProblem(article)).toBeUndefined();
  });

  it.each([
    ['4,000 nested images', `${'!['.repeat(4000)}x${'](a)'.repeat(4000)}`, `nested at most ${MAX_BRACKET_NESTING} levels`],
    ['nested emphasis in one paragraph', `${'*a '.repeat(2000)}x${' a*'.repeat(2000)}`, 'in one paragraph, list item or heading'],
    ['emphasis over lines of one paragraph', '*a\n'.repeat(MAX_EMPHASIS_MARKS + 1), 'in one paragraph'],
    ['empty rows under a wide header', `|${'a|'.repeat(100)}\n|${'-|'.repeat(100)}\n${'|\n'.repeat(4000)}`, 'at most 5,000 cells'],
    ['5,000 underlines', 'a\n-\n'.repeat(5000), `at most ${MAX_UNDERLINES} lines of only = or -`],
  ])('refuses %s, as a post is refused', (_, body, message) => {
    expect(bodyMarkdownProblem(body)).toContain(message);
  });
});
