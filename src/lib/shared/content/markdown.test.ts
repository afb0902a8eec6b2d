import { describe, expect, it } from 'vitest';
import { blockNesting, MAX_NESTING, withinNesting } from './markdown.ts';

describe('blockNesting', () => {
  it.each([
    ['plain text', 'One paragraph.\n\nAnother.', 0],
    ['a quote in a quote', '> outer\n> > inner', 2],
    ['quote markers without spaces', '>>> three', 3],
    ['a list in a quote', '> - item\n>   1. nested', 3],
    ['a list nested by indentation', '- one\n  - two\n    - three', 3],
    ['a list nested by indentation inside a quote', '> - one\n>         - deep', 6],
    ['tabs as indentation', '- one\n\t- two', 3],
    ['a thematic break, not a list', '- - - - - - - - - - - - - - - - - - - - - - - - -', 0],
    ['numbers that end a sentence', '2026. A good year.', 1],
  ])('counts %s', (_, source, depth) => {
    expect(blockNesting(source)).toBe(depth);
  });

  it('ignores indentation and markers inside fenced code', () => {
    const code = `\`\`\`js\n${' '.repeat(200)}deep();\n${'> '.repeat(50)}\n\`\`\`\n\nAfter.`;
    expect(blockNesting(code)).toBe(0);
    expect(blockNesting(`~~~\n${'>'.repeat(50)}\n~~~\n${'>'.repeat(30)} x`)).toBeGreaterThan(MAX_NESTING);
  });

  it('stops counting past the limit, so a huge hostile line costs one pass', () => {
    const started = Date.now();
    expect(blockNesting('> '.repeat(100_000))).toBe(MAX_NESTING + 1);
    expect(Date.now() - started).toBeLessThan(200);
  });

  it('allows exactly the limit', () => {
    expect(withinNesting(`${'>'.repeat(MAX_NESTING)} x`)).toBe(true);
    expect(withinNesting(`${'>'.repeat(MAX_NESTING + 1)} x`)).toBe(false);
    expect(withinNesting(`${'>'.repeat(1000)} x`)).toBe(false);
  });
});
