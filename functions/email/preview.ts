/**
 * What a stored message shows its reader, as safe formatting for the email dashboard's cards
 * (`preview` of the Email record; the dashboard cuts it at 200 characters, src/lib/browser/email-preview.ts).
 * Stored bodies are whole documents: a head, styles, a hidden inbox preheader, the layout's brand
 * header and footer (`data-mail-chrome`, the same in every message), layout tables. Those go here,
 * then only text formatting and http(s)/mailto links stay, with no attribute but a link's address.
 * Done on the server so the dashboard never parses a mail's markup: a page that parses inline styles
 * (DOMParser, DOMPurify) reports each one to its policy, whose style-src is hashed (300 reports for
 * one tab of mail).
 */
import sanitizeHtml from 'sanitize-html';
import { PREVIEW_TAGS } from '#shared/email/preview-tags.ts';

/** Elements whose content a reader never sees as text. */
const NOT_SHOWN = new Set([
  'head',
  'title',
  'script',
  'style',
  'template',
  'noscript',
  'textarea',
  'select',
  'svg',
  'math',
  'iframe',
  'object',
]);
/** Inline styles that hide an element from the reader (an inbox preheader, for one). */
const HIDDEN_STYLE = /(?:^|;)\s*(?:display\s*:\s*none|visibility\s*:\s*hidden|mso-hide\s*:\s*all)/i;
/** The formatting a card keeps. */
const KEPT: string[] = [...PREVIEW_TAGS];

const hidden = (frame: sanitizeHtml.IFrame): boolean =>
  NOT_SHOWN.has(frame.tag) ||
  'hidden' in frame.attribs ||
  'data-mail-chrome' in frame.attribs ||
  HIDDEN_STYLE.test(frame.attribs.style ?? '');

/** The message's visible text and formatting as safe HTML: no style, script, image or anything else that loads. */
export function visibleMarkup(html: string): string {
  // First what a reader never sees goes, with all it holds (every element and attribute kept to judge by)…
  const shown = sanitizeHtml(html, {
    allowedTags: false,
    allowedAttributes: false,
    allowVulnerableTags: true,
    // `hidden` has no value: kept, to be judged.
    nonBooleanAttributes: [],
    nonTextTags: [],
    exclusiveFilter: hidden,
  });
  // …then only formatting and safe links stay.
  return sanitizeHtml(shown, {
    allowedTags: KEPT,
    allowedAttributes: { a: ['href'] },
    allowedSchemes: ['http', 'https', 'mailto'],
    allowProtocolRelative: false,
  });
}
