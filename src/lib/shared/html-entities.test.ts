import { describe, expect, it } from 'vitest';
import { escapeHtml, unescapeHtml } from './html-entities.ts';

describe('escapeHtml and unescapeHtml', () => {
  it('escapes the five characters that matter in text and attributes', () => {
    expect(escapeHtml(`&<>"'`)).toBe('&amp;&lt;&gt;&quot;&#39;');
  });

  it('reads the entities back in one pass, never twice', () => {
    expect(unescapeHtml('a &amp;lt;b&amp;gt; &lt;c&gt; &quot;d&quot; &#39;e&#x27; f&nbsp;g &copy;')).toBe(
      'a &lt;b&gt; <c> "d" \'e\' f\u00a0g &copy;',
    );
    expect(unescapeHtml(escapeHtml(`<x a="1" b='2'>&amp;</x>`))).toBe(`<x a="1" b='2'>&amp;</x>`);
  });
});
