/**
 * Gated bodies render here, on the server, and nowhere else: MDX article bodies from git, Markdown
 * written in the creator tools, and lesson texts all become sanitised HTML that only the gated API
 * hands out. MDX is compiled and run with the real MDX compiler (GitHub-flavoured Markdown on) and
 * rendered to static markup with React; everything then passes one sanitiser, so neither a
 * stray `<script>` in a database body nor an event handler in MDX reaches a reader's page.
 *
 * An author may end a public preview with a line holding only `{/* preview *\/}` (MDX) or
 * `<!-- preview -->` (Markdown): the part above it renders into the public page for everyone and for
 * search engines; the whole body stays behind the gate.
 *
 * A body that cannot render is the writer's problem, never the server's: nesting deeper than
 * `MAX_NESTING` is refused before parsing (the parser recurses per level and would overflow the
 * stack), and any other failure of the compiler becomes the same `BodyRenderError` (422, a field
 * error on `body`), so no caller answers 5xx or loops on it.
 */
import { evaluateSync } from '@mdx-js/mdx';
import { createElement } from 'react';
import * as runtime from 'react/jsx-runtime';
import { renderToStaticMarkup } from 'react-dom/server';
import remarkGfm from 'remark-gfm';
import type { PluggableList } from 'unified';
import sanitizeHtml from 'sanitize-html';
import { blockNesting, MAX_NESTING, NESTING_MESSAGE } from '#shared/content/markdown.ts';
import { BodyRenderError, type BodyFormat, type RenderBody } from './body.ts';
import { remarkHtmlAsText } from './remark-html-text.ts';

/**
 * Whether an image may show in a staff body: a path on our own site, or an address on one of
 * `origins` (the site's and the public media host's, as the pages' `img-src` allows). An image from
 * anywhere else would be a request from every reader's browser to a host we do not know of, which the
 * pages' policy refuses anyway: it becomes its alt text here, where the editor can see why.
 */
function imageAllowed(src: string | undefined, origins: ReadonlySet<string>): boolean {
  if (!src || /[\\\s]/.test(src)) return false;
  if (src.startsWith('/')) return !src.startsWith('//');
  try {
    const url = new URL(src);
    return (url.protocol === 'https:' || url.protocol === 'http:') && origins.has(url.origin);
  } catch {
    return false;
  }
}

/** The staff bodies' profile, with images allowed from our site and `imageOrigins` only. */
function staffProfile(imageOrigins: readonly string[]): sanitizeHtml.IOptions {
  const origins = new Set(imageOrigins.map((o) => new URL(o).origin));
  return {
    allowedTags: [
      ...['h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'p', 'br', 'hr', 'blockquote', 'pre', 'code', 'kbd', 'sup', 'sub'],
      ...['strong', 'b', 'em', 'i', 'del', 's', 'mark', 'small', 'abbr', 'span', 'div', 'section'],
      ...['ul', 'ol', 'li', 'dl', 'dt', 'dd', 'a', 'img', 'figure', 'figcaption', 'input'],
      ...['table', 'thead', 'tbody', 'tfoot', 'tr', 'th', 'td', 'caption'],
    ],
    allowedAttributes: {
      a: ['href', 'title', 'rel', 'id', 'aria-describedby', 'data-footnote-ref', 'data-footnote-backref'],
      img: ['src', 'alt', 'title', 'width', 'height', 'loading'],
      code: ['class'],
      ol: ['start'],
      th: ['align', 'scope'],
      td: ['align'],
      h2: ['id'],
      h3: ['id'],
      li: ['id'],
      section: ['class', 'data-footnotes'],
      sup: ['id'],
      // GitHub task lists render disabled checkboxes.
      input: ['type', 'checked', 'disabled'],
    },
    allowedClasses: { code: [/^language-[\w-]+$/], section: ['footnotes'] },
    allowedSchemes: ['https', 'http', 'mailto'],
    allowedSchemesByTag: { img: ['https', 'http'] },
    allowProtocolRelative: false,
    transformTags: {
      // Outside links open normally but never hand the reader's page to the target.
      a: (tagName, attribs) => ({
        tagName,
        attribs: /^https?:/i.test(attribs.href ?? '') ? { ...attribs, rel: 'noopener noreferrer nofollow' } : attribs,
      }),
      img: (tagName, attribs) =>
        imageAllowed(attribs.src, origins)
          ? { tagName, attribs: { ...attribs, loading: 'lazy' } }
          : { tagName: 'span', attribs: {}, text: attribs.alt ?? '' },
      input: (tagName, attribs) =>
        attribs.type === 'checkbox' ? { tagName, attribs: { ...attribs, disabled: '' } } : { tagName: 'span', attribs: {} },
    },
  };
}

/** Profiles by the image origins they allow (a renderer's thread uses one). */
const staffProfiles = new Map<string, sanitizeHtml.IOptions>();
function profileFor(imageOrigins: readonly string[]): sanitizeHtml.IOptions {
  const key = imageOrigins.join(' ');
  let profile = staffProfiles.get(key);
  if (!profile) staffProfiles.set(key, (profile = staffProfile(imageOrigins)));
  return profile;
}

/**
 * Sanitises HTML with the body rules: no scripts, no event handlers, no styles, http(s), mail or
 * local links only, images from our site or `imageOrigins` only.
 */
export function sanitizeBody(html: string, imageOrigins: readonly string[] = []): string {
  return sanitizeHtml(html, profileFor(imageOrigins));
}

/**
 * Members' posts in the community (functions/community): stricter than staff's bodies. No images
 * (a member's image from anywhere is a tracking pixel or a layout attack; its alt text stays), no
 * ids, classes but a code block's language, headings from h3 down (the page owns h1 and h2); links
 * only to http(s) and mail addresses (a relative or fragment link is left as text), every one
 * `rel="nofollow ugc noopener"`.
 */
const MEMBER_SANITIZE: sanitizeHtml.IOptions = {
  allowedTags: [
    ...['h3', 'h4', 'h5', 'h6', 'p', 'br', 'hr', 'blockquote', 'pre', 'code', 'kbd', 'sup', 'sub'],
    ...['strong', 'b', 'em', 'i', 'del', 's', 'ul', 'ol', 'li', 'a', 'span'],
    ...['table', 'thead', 'tbody', 'tr', 'th', 'td'],
  ],
  allowedAttributes: { a: ['href', 'rel'], code: ['class'], ol: ['start'], th: ['align'], td: ['align'] },
  allowedClasses: { code: [/^language-[\w-]+$/] },
  allowedSchemes: ['https', 'http', 'mailto'],
  allowedSchemesAppliedToAttributes: ['href'],
  allowProtocolRelative: false,
  transformTags: {
    h1: 'h3',
    h2: 'h3',
    a: (tagName, attribs): sanitizeHtml.Tag => {
      const { href } = attribs;
      return href && /^(?:https?:\/\/|mailto:)/i.test(href)
        ? { tagName, attribs: { href, rel: 'nofollow ugc noopener' } }
        : { tagName: 'span', attribs: {} };
    },
    img: (_tagName, attribs) => ({ tagName: 'span', attribs: {}, text: attribs.alt ?? '' }),
  },
};

/**
 * A member's post (Markdown; HTML they type shows as the text they typed: remark-html-text.ts) as
 * sanitised HTML under the members' profile above; the same limits and the same `BodyRenderError`
 * as every body.
 */
export function renderMemberPost(source: string): string {
  const html = renderWith(source, 'markdown', MEMBER_SANITIZE, [remarkHtmlAsText]);
  // Markdown can multiply: a reference link repeats its whole address at every use, footnotes and
  // bare addresses grow too. A post is stored and served as HTML, so what it may become is bounded.
  if (html.length > MAX_MEMBER_HTML) throw new BodyRenderError(MEMBER_HTML_MESSAGE);
  // Only link definitions (`[a]: https://…`) or an unused footnote: a post with nothing to show is refused, never stored empty.
  if (!html.trim()) throw new BodyRenderError(EMPTY_MEMBER_MESSAGE);
  return html;
}

/** The most HTML one member's post may render to (a 20,000-character post of links and tables stays far below). */
export const MAX_MEMBER_HTML = 128 * 1024;
const EMPTY_MEMBER_MESSAGE = 'This post has nothing to display. Please write some text.';
const MEMBER_HTML_MESSAGE = 'This post would be too long once displayed: use fewer repeated links, footnotes or table cells.';

/**
 * Renders a staff body to sanitised HTML, images only from our site or `imageOrigins`. MDX is run
 * with no components and no imports (a body that imports something fails, loudly, when the server
 * starts); Markdown allows no embedded HTML. Throws `BodyRenderError` for a body nested too deep,
 * one the compiler cannot take, or one whose HTML would pass `MAX_BODY_HTML`. The server calls it
 * on a renderer's thread (body-renderer.ts), never its own.
 */
export function renderBody(source: string, format: BodyFormat, imageOrigins: readonly string[] = []): string {
  const html = renderWith(source, format, profileFor(imageOrigins));
  if (html.length > MAX_BODY_HTML) throw new BodyRenderError(BODY_HTML_MESSAGE);
  return html;
}

/**
 * `renderBody` on the calling thread, as a `RenderBody`: for the site build (a process that answers
 * no requests) and tests only. The server renders on its staff renderer's thread.
 */
export const renderHere =
  (imageOrigins: readonly string[] = []): RenderBody =>
  async (source, format) =>
    renderBody(source, format, imageOrigins);

/**
 * The most HTML one staff body may render to: ten times a post's, as a body may be ten times as long
 * (a 200,000-character article of text, links and tables renders to well under half of it).
 */
export const MAX_BODY_HTML = 10 * MAX_MEMBER_HTML;
const BODY_HTML_MESSAGE = 'This text would be too long once displayed: use fewer repeated links, footnotes or table cells.';

function renderWith(source: string, format: BodyFormat, profile: sanitizeHtml.IOptions, plugins: PluggableList = []): string {
  if (!source.trim()) return '';
  if (blockNesting(source) > MAX_NESTING) throw new BodyRenderError(NESTING_MESSAGE);
  try {
    const { default: Content } = evaluateSync(source, {
      ...runtime,
      format: format === 'mdx' ? 'mdx' : 'md',
      remarkPlugins: [remarkGfm, ...plugins],
      development: false,
    });
    return sanitizeHtml(renderToStaticMarkup(createElement(Content)), profile);
  } catch (err) {
    // A stack overflow (nesting the line check cannot see, such as thousands of nested emphases) or a compile error.
    const reason = err instanceof RangeError ? 'The text is nested too deeply to display' : 'The text could not be displayed';
    throw new BodyRenderError(`${reason}: ${err instanceof Error ? err.message : String(err)}`.slice(0, 300), { cause: err });
  }
}
