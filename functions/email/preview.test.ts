import { describe, expect, it } from 'vitest';
import { html } from './templates/html.ts';
import { layout } from './templates/layout.ts';
import { visibleMarkup } from './preview.ts';

describe('visibleMarkup (the email dashboard card’s preview)', () => {
  it('keeps a real message’s own words and formatting, without its head, styles, preheader or brand chrome', () => {
    const document = layout({
      siteUrl: 'https://beacongrowth.co',
      preheader: 'Hidden inbox preheader',
      content: html`<p>Hi Ada, your <strong>download link</strong> is ready.</p>`,
    });
    expect(document).toMatch(/style="/);
    const shown = visibleMarkup(document);
    expect(shown.trim()).toBe('<p>Hi Ada, your <strong>download link</strong> is ready.</p>');
    // Nothing the dashboard's policy would refuse is left for the page to parse.
    expect(shown).not.toMatch(/style|<head|<title|Hidden inbox preheader/i);
  });

  it('drops what runs or loads, and every attribute but a safe link’s address', () => {
    const hostile =
      '<b>Hello</b> reader <img src="http://127.0.0.1:9/pixel.png" onerror="alert(1)"><script>alert(2)</script>' +
      '<a href="javascript:alert(3)">click</a> <a href="https://example.com/x" onclick="alert(4)" style="color:red">safe</a>' +
      '<style>body{background:url(http://127.0.0.1:9/bg.png)}</style><svg onload="alert(5)"><text>svg</text></svg>';
    expect(visibleMarkup(hostile)).toBe('<b>Hello</b> reader <a>click</a> <a href="https://example.com/x">safe</a>');
  });

  it('drops hidden elements whatever their tag, and keeps text as text', () => {
    const body =
      '<table><tr><td style="display: none">hidden cell</td><td>shown &amp; <i>kept</i> &lt;b&gt;</td></tr></table>' +
      '<div hidden>hidden div</div><span style="visibility:hidden">hidden span</span><template><p>template</p></template>';
    expect(visibleMarkup(body)).toBe('shown &amp; <i>kept</i> &lt;b&gt;');
  });
});
