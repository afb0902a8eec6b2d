import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { splitFrontmatter } from './mdx-source.ts';
import { MAX_BODY_HTML, renderBody, renderMemberPost, sanitizeBody } from './render.ts';
import { BodyRenderError, splitPreview } from './body.ts';

describe('splitPreview', () => {
  it.each([
    ['Intro.\n\n{/* preview */}\n\nRest.', 'Intro.'],
    ['Intro.\n\n<!-- preview -->\n\nRest.', 'Intro.'],
    ['Intro.\n  {/*preview*/}  \nRest.', 'Intro.'],
    ['Intro.\n<!--PREVIEW-->\nRest.', 'Intro.'],
  ])('splits %j at the marker line', (source, preview) => {
    const split = splitPreview(source);
    expect(split.preview).toBe(preview);
    expect(split.body).toBe('Intro.\n\nRest.');
  });

  it.each(['No marker.', 'Inline {/* preview */} is not a marker.', '{/* preview */}\n\nAll gated.'])('has no preview for %j', (source) => {
    expect(splitPreview(source).preview).toBeUndefined();
    expect(splitPreview(source).body).not.toMatch(/^\{\/\* preview/m);
  });
});

describe('renderBody', () => {
  it('renders GitHub-flavoured Markdown', () => {
    const html = renderBody('## Title\n\n| a | b |\n|---|---|\n| 1 | 2 |\n\n- [x] done\n\n~~old~~ https://example.com', 'markdown');
    expect(html).toContain('<h2>Title</h2>');
    expect(html).toContain('<table>');
    expect(html).toContain('<del>old</del>');
    expect(html).toContain('<a href="https://example.com" rel="noopener noreferrer nofollow">');
    expect(html).toMatch(/<input type="checkbox" (checked disabled|disabled checked)/);
  });

  it('drops raw HTML from database Markdown', () => {
    const html = renderBody(
      'Hi <script>alert(1)</script> <img src=x onerror=alert(1)> <iframe src="https://evil.example"></iframe>',
      'markdown',
    );
    expect(html).not.toMatch(/<script|<img|<iframe|onerror/i);
  });

  it('renders MDX expressions and JSX, then strips handlers and styles', () => {
    const html = renderBody('Two is {1 + 1}.\n\n<div onClick={() => 1} style={{ color: "red" }}>box</div>', 'mdx');
    expect(html).toContain('Two is 2.');
    expect(html).toContain('<div>box</div>');
    expect(html).not.toMatch(/onclick|style=/i);
  });

  it('refuses MDX that imports anything, as a 422 on the body', () => {
    expect(() => renderBody('import X from "./x.js"\n\n<X />', 'mdx')).toThrow(BodyRenderError);
  });

  it.each([
    ['a thousand nested quotes', `${'>'.repeat(1000)} x`],
    ['a thousand nested list items', `${'- '.repeat(1000)}x`],
    ['a list indented a thousand levels deep', Array.from({ length: 1000 }, (_, i) => `${' '.repeat(2 * i)}- x`).join('\n')],
  ])('refuses %s before parsing, with a 422 field error on the body', (_, source) => {
    const started = Date.now();
    let thrown: unknown;
    try {
      renderBody(source, 'markdown');
    } catch (err) {
      thrown = err;
    }
    expect(thrown).toBeInstanceOf(BodyRenderError);
    expect(thrown).toMatchObject({ status: 422, fields: { body: ['Quotes and lists may be nested at most 20 levels deep'] } });
    // The parser took tens of seconds on the indented list before it overflowed; the check takes none.
    expect(Date.now() - started).toBeLessThan(500);
  });

  // Overflowing the stack takes a few seconds of a core, more on a busy machine: the limit is for hangs.
  it('turns a stack overflow inside the parser into the same 422 (nesting the line check cannot see)', { timeout: 60_000 }, () => {
    expect(() => renderBody(`${'*'.repeat(3000)}x${'*'.repeat(3000)}`, 'markdown')).toThrow(
      expect.objectContaining({ status: 422, message: expect.stringContaining('nested too deeply') }),
    );
  });

  it('renders nesting up to the limit', () => {
    expect(renderBody(`${'>'.repeat(20)} deep`, 'markdown')).toContain('deep');
  });

  it('keeps only safe link and image targets', () => {
    const html = renderBody(
      '[a](javascript:alert(1)) [b](/pricing) [c](mailto:hi@example.com) ![i](http://insecure.example/x.png) ![j](/media/x.png)',
      'markdown',
    );
    expect(html).not.toContain('javascript:');
    expect(html).toContain('href="/pricing"');
    expect(html).toContain('href="mailto:hi@example.com"');
    expect(html).not.toContain('insecure.example');
    expect(html).toContain('src="/media/x.png"');
  });

  it('shows images from our site and the listed origins only: any other image becomes its alt text', () => {
    const html = renderBody(
      [
        '![ours](/uploads/a.png)',
        '![site](https://www.beacongrowth.co/media/b.png)',
        '![bucket](https://media.example/m/c.png)',
        '![tracker](https://tracker.example/pixel.gif)',
        '![relative](//tracker.example/pixel.gif)',
        '![plain http](http://media.example.evil/d.png)',
      ].join(' '),
      'markdown',
      ['https://www.beacongrowth.co', 'https://media.example'],
    );
    expect(html.match(/<img /g)).toHaveLength(3);
    expect(html).toContain('src="/uploads/a.png"');
    expect(html).toContain('src="https://www.beacongrowth.co/media/b.png"');
    expect(html).toContain('src="https://media.example/m/c.png"');
    expect(html).not.toMatch(/tracker\.example|media\.example\.evil/);
    expect(html).toContain('tracker');
    // MDX's JSX images follow the same rule.
    expect(renderBody('<img src="https://tracker.example/x.gif" alt="pixel" />', 'mdx')).toBe('<span>pixel</span>');
  });

  it('refuses a body whose HTML would pass the limit (reference links repeat their address at every use)', () => {
    const source = `[x]: https://a.example/${'a'.repeat(2000)}\n\n${'[x] '.repeat(MAX_BODY_HTML / 2000)}`;
    expect(() => renderBody(source, 'markdown')).toThrow(
      expect.objectContaining({ status: 422, message: expect.stringContaining('too long once displayed') }),
    );
  });

  it('renders nothing for an empty body', () => expect(renderBody('  \n', 'mdx')).toBe(''));
});

describe('sanitizeBody', () => {
  it.each([
    '<svg onload=alert(1)>',
    '<a href="javascript:alert(1)">x</a>',
    '<img src="data:image/png;base64,AAAA">',
    '<form action="https://evil.example"><input name=x></form>',
    '<style>body{display:none}</style>',
    '<a href="//evil.example">x</a>',
  ])('neutralises %s', (html) => {
    expect(sanitizeBody(html)).not.toMatch(/onload|javascript:|data:|<form|<style|\/\/evil/);
  });
});

describe('renderMemberPost (community posts)', () => {
  it('marks every link nofollow ugc noopener and keeps only http(s) and mail targets', () => {
    const html = renderMemberPost(
      '[a](https://example.com) <https://auto.example.com> [m](mailto:x@example.com) [j](javascript:alert(1)) [r](/account) [f](#top) [d](data:text/html,x)',
    );
    expect(html).toBe(
      '<p><a href="https://example.com" rel="nofollow ugc noopener">a</a> ' +
        '<a href="https://auto.example.com" rel="nofollow ugc noopener">https://auto.example.com</a> ' +
        '<a href="mailto:x@example.com" rel="nofollow ugc noopener">m</a> <span>j</span> <span>r</span> <span>f</span> <span>d</span></p>',
    );
  });

  it('shows raw HTML as the text typed, drops images (keeping their alt text), ids and top-level headings', () => {
    const html = renderMemberPost(
      '# Big\n\nText <img src=x onerror=alert(1)> ![a chart](https://img.example.com/c.png)\n\n<script>x()</script>',
    );
    expect(html).toBe(
      '<h3>Big</h3>\n<p>Text &lt;img src=x onerror=alert(1)&gt; <span>a chart</span></p>\n<p>&lt;script&gt;x()&lt;/script&gt;</p>',
    );
    expect(html).not.toMatch(/<img|<script|id=/);
  });

  it.each([
    ['<div>', '<div class="note">Hello,\nmy question</div>'],
    ['<script>', '<script>alert(1)</script>\nafter'],
    ['<!-- -->', '<!-- aside -->\ntext'],
    ['<pre>', '<pre>\nlog\n</pre>'],
    ['<table>', '<table><tr><td>cell</td></tr></table>'],
  ])('keeps a post opening with %s as its text, line by line, with no markup of its own', (_tag, source) => {
    const html = renderMemberPost(source);
    for (const line of source.split('\n')) expect(html).toContain(line.replaceAll('<', '&lt;').replaceAll('>', '&gt;'));
    expect(html.replace(/<\/?(?:p|br)\s*\/?>/g, '')).not.toMatch(/<|>/);
  });

  it('refuses a post with nothing to display rather than rendering it empty', () => {
    for (const source of ['[docs]: https://example.com/docs', '[^1]: a footnote nobody cites'])
      expect(() => renderMemberPost(source)).toThrow(/nothing to display/);
  });

  it('refuses nesting past the limit like every body', () => {
    expect(() => renderMemberPost('>'.repeat(40))).toThrow(BodyRenderError);
  });
});

describe('every body in content/ renders', () => {
  const root = path.resolve(import.meta.dirname, '../../content/blog');
  it.each(readdirSync(root).filter((f) => f.endsWith('.mdx')))('%s', (file) => {
    const { body } = splitFrontmatter(readFileSync(path.join(root, file), 'utf8'));
    const html = renderBody(splitPreview(body).body, 'mdx');
    expect(html.length).toBeGreaterThan(200);
    expect(html).not.toContain('preview */');
  });
});
