/**
 * A post as a few lines of plain text for the reply mail: its stored, sanitised HTML with every tag
 * dropped by the same sanitiser (sanitize-html), block ends kept as line breaks, and cut at a word.
 * The mail template escapes it again like any value, so nothing here has to be safe HTML.
 */
import sanitizeHtml from 'sanitize-html';
import { unescapeHtml } from '#shared/html-entities.ts';

/** Characters of a reply the mail shows. */
export const EXCERPT_CHARS = 300;

const BLOCK_END = /<\/(p|li|h[1-6]|blockquote|pre|tr|dt|dd|figcaption)>|<br\s*\/?>/gi;

/** The text of `html`, whitespace folded, at most `max` characters (cut at a word, with an ellipsis). */
export function excerpt(html: string, max = EXCERPT_CHARS): string {
  // sanitize-html escapes the text it returns: read it back.
  const text = unescapeHtml(sanitizeHtml(html.replace(BLOCK_END, '$&\n'), { allowedTags: [], allowedAttributes: {} }))
    .replace(/[ \t\u00a0]+/g, ' ')
    .replace(/\s*\n\s*/g, '\n')
    .trim();
  if (text.length <= max) return text;
  const cut = text.slice(0, max);
  const space = cut.search(/\s\S*$/);
  return `${(space > max / 2 ? cut.slice(0, space) : cut).trimEnd()}…`;
}
