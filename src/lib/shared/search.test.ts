import { describe, expect, it } from 'vitest';
import { isSearchType, snippetParts } from './search.ts';

describe('snippetParts', () => {
  it('splits on the mark tags and reads the five entities back', () => {
    expect(snippetParts('Fix <mark>pricing</mark> pages &amp; &lt;b&gt; &quot;x&quot; &#39;y&#39;')).toEqual([
      { text: 'Fix ', marked: false },
      { text: 'pricing', marked: true },
      { text: ' pages & <b> "x" \'y\'', marked: false },
    ]);
  });

  it('keeps any other tag as text', () => {
    expect(snippetParts('<img src=x onerror=alert(1)> <mark>a</mark>')).toEqual([
      { text: '<img src=x onerror=alert(1)> ', marked: false },
      { text: 'a', marked: true },
    ]);
  });

  it('gives nothing for an empty snippet', () => {
    expect(snippetParts('')).toEqual([]);
  });
});

describe('isSearchType', () => {
  it('takes the kinds only, never inherited names', () => {
    expect(isSearchType('blog')).toBe(true);
    expect(isSearchType('constructor')).toBe(false);
    expect(isSearchType(null)).toBe(false);
  });
});
