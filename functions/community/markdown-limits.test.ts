import { describe, expect, it } from 'vitest';
import { renderMemberPost } from '../content/render.ts';
import { bracketNesting, MAX_BRACKET_NESTING, MAX_TABLE_CELLS, PostBodySchema, tableCells } from './schema.ts';

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
      `| a | b |\n|---|---|\n|\n|\n|\n`,
      `a | b\n--|--\nc | d`,
    ];
    for (const sample of samples) expect(tableCells(sample), sample).toBeGreaterThanOrEqual(renderedCells(sample));
    expect(tableCells(table(3, 2))).toBe(9);
    expect(tableCells('no tables | here\njust a pipe')).toBe(0);
    expect(tableCells(`\`\`\`\n${table(100, 100)}\n\`\`\``)).toBe(0);
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
