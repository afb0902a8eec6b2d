/**
 * The email dashboard's body preview (spec point 2): the body cut to 200 characters plus '...' when
 * longer, rendered as HTML, and made safe first: no script, no event handlers, nothing that loads
 * from anywhere (no images, media, frames, styles or forms). Browser only (DOMPurify needs a DOM).
 */
import DOMPurify from 'dompurify';

export const PREVIEW_LENGTH = 200;

/** The spec's cut: the first 200 characters, and '...' when there was more. */
export function cutPreview(body: string): string {
  return body.length > PREVIEW_LENGTH ? `${body.slice(0, PREVIEW_LENGTH)}...` : body;
}

const ALLOWED_TAGS = [
  'a',
  'b',
  'strong',
  'i',
  'em',
  'u',
  'p',
  'br',
  'span',
  'div',
  'ul',
  'ol',
  'li',
  'h1',
  'h2',
  'h3',
  'h4',
  'blockquote',
  'code',
  'pre',
];

/** Safe HTML for the preview: text formatting and links only; links keep no way to run script. */
export function previewHtml(body: string): string {
  return DOMPurify.sanitize(cutPreview(body), {
    ALLOWED_TAGS,
    ALLOWED_ATTR: ['href'],
    ALLOWED_URI_REGEXP: /^(?:https?:|mailto:)/i,
  });
}
