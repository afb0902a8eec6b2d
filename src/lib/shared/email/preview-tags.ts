/**
 * The formatting an email card's preview keeps: the server cleans a stored mail down to these
 * (functions/email/preview.ts) and the dashboard keeps no more than these again (src/lib/browser/email-preview.ts).
 */
export const PREVIEW_TAGS = [
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
] as const;
