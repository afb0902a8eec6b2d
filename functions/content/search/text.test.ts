import { describe, expect, it } from 'vitest';
import { plainText } from './text.ts';

describe('plainText', () => {
  it('keeps the words and drops Markdown punctuation', () => {
    expect(plainText('## A **bold** _plan_\n\n- one\n- `two`\n\n> quoted | cell')).toBe('A bold plan one two quoted cell');
  });

  it('drops link and image addresses but keeps their text', () => {
    const text = plainText('See [the guide](https://example.com/secret-path) and ![a chart](/media/chart.png). Visit https://x.test/y.');
    expect(text).toBe('See the guide and a chart . Visit');
    expect(text).not.toContain('example');
  });

  it('drops MDX and HTML comments, the preview markers among them', () => {
    expect(plainText('Public part.\n\n{/* preview */}\n\nGated <!-- preview --> part.')).toBe('Public part. Gated part.');
  });

  it('drops JSX and HTML tags and fence lines, keeping the text inside', () => {
    expect(plainText('<Callout type="tip">Check <b>this</b></Callout>\n\n```js\nconst a = 1;\n```')).toBe('Check this const a = 1;');
  });

  it('drops a tag written over several lines, its attributes and paths with it', () => {
    expect(plainText('<Download\n  href="downloads/secret-plan.pdf"\n  label="Plan"\n/>\nAfter the tag.')).toBe('After the tag.');
  });

  it('removes the snippet markers so only the highlighter can place them', () => {
    expect(plainText('a\uE000b\uE001c')).toBe('abc');
  });

  it('takes linear time on thousands of unclosed brackets and comments', () => {
    const hostile = '['.repeat(50_000) + '{/*'.repeat(20_000) + '<!--'.repeat(20_000) + '<a'.repeat(20_000);
    const started = performance.now();
    plainText(hostile);
    expect(performance.now() - started).toBeLessThan(2000);
  });
});
