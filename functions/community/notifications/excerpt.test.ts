import { describe, expect, it } from 'vitest';
import { excerpt } from './excerpt.ts';

describe('a reply as the mail quotes it', () => {
  it('drops every tag, keeps block ends as line breaks and gives back the characters sanitize-html escaped', () => {
    const html =
      '<h3>Plan</h3><p>Charge by <strong>outcome</strong> &amp; see if 2 &lt; 3 &gt; 1 "now".</p><ul><li>one</li><li>two</li></ul>';
    expect(excerpt(html)).toBe('Plan\nCharge by outcome & see if 2 < 3 > 1 "now".\none\ntwo');
  });

  it('keeps the text of a link but not its address, and no markup survives', () => {
    expect(excerpt('<p>See <a href="https://x.test/a" rel="nofollow ugc noopener">the guide</a>.</p>')).toBe('See the guide.');
  });

  it('cuts a long reply at a word, with an ellipsis', () => {
    const text = excerpt(`<p>${'word '.repeat(100)}</p>`, 42);
    expect(text.length).toBeLessThanOrEqual(43);
    expect(text).toMatch(/^(word ){7}word…$/);
  });

  it('answers an empty string for an empty post', () => {
    expect(excerpt('')).toBe('');
  });
});
