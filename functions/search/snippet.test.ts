import { describe, expect, it } from 'vitest';
import { snippetParts } from '#shared/search.ts';
import { markSnippet } from './snippet.ts';

describe('markSnippet', () => {
  it('turns the highlighter markers into mark tags', () => {
    expect(markSnippet('the \uE000pricing\uE001 teardown')).toBe('the <mark>pricing</mark> teardown');
  });

  it('escapes HTML in the text so the only tags are the marks', () => {
    const snippet = markSnippet('<img src=x onerror=alert(1)> & "\uE000<b>\uE001\'');
    expect(snippet).toBe('&lt;img src=x onerror=alert(1)&gt; &amp; &quot;<mark>&lt;b&gt;</mark>&#39;');
    expect(snippet.replace(/<\/?mark>/g, '')).not.toMatch(/[<>]/);
  });

  it('pairs the tags whatever the markers', () => {
    expect(markSnippet('a\uE001b\uE000c')).toBe('ab<mark>c</mark>');
    expect(markSnippet('\uE000\uE000x\uE001\uE001')).toBe('<mark>x</mark>');
  });

  it('collapses whitespace', () => {
    expect(markSnippet('  one\n\n two\t')).toBe('one two');
  });

  it('round-trips through the browser helper as text parts', () => {
    expect(snippetParts(markSnippet('a < \uE000b & c\uE001 > d'))).toEqual([
      { text: 'a < ', marked: false },
      { text: 'b & c', marked: true },
      { text: ' > d', marked: false },
    ]);
  });
});
