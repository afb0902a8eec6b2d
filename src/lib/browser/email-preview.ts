/**
 * The email dashboard's body preview (spec point 2): the first 200 characters of what the message
 * shows its reader, plus '...' when there is more, rendered as HTML and made safe: no script, no
 * event handlers, nothing that loads from anywhere (no images, media, frames, styles or forms).
 * Stored bodies are whole documents (`<head>`, `<style>`, a hidden inbox preheader, layout tables),
 * so the cut counts visible text only: the head, styles and hidden elements go first, then the
 * markup DOMPurify keeps, and the text is cut inside it. Browser only (DOMParser and DOMPurify).
 */
import DOMPurify from 'dompurify';

export const PREVIEW_LENGTH = 200;

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

// Inline styles that hide an element from the reader (an inbox preheader, for one).
const HIDDEN_STYLE = /(?:^|;)\s*(?:display\s*:\s*none|visibility\s*:\s*hidden|mso-hide\s*:\s*all)/i;

/** The body's markup without what a reader never sees: parsed inert (nothing runs or loads). */
function visibleMarkup(body: string): string {
  const doc = new DOMParser().parseFromString(body, 'text/html');
  // The layout's brand header and footer (data-mail-chrome) are the same in every message: not its text.
  for (const el of doc.body.querySelectorAll('[data-mail-chrome]')) el.remove();
  for (const el of doc.body.querySelectorAll('script, style, template, [hidden], [style]')) {
    if (el.matches('[style]') && !HIDDEN_STYLE.test(el.getAttribute('style') ?? '')) continue;
    el.remove();
  }
  return doc.body.innerHTML;
}

/** Removes every node after `node` inside `root`, in document order. */
function dropAfter(node: Node, root: Node): void {
  for (let at: Node | null = node; at && at !== root; at = at.parentNode) {
    while (at.nextSibling) at.nextSibling.remove();
  }
}

/** Collapses white space as a browser shows it, and cuts the text at `max` characters with '...'. */
function cutText(root: DocumentFragment, max: number): void {
  const walker = root.ownerDocument.createTreeWalker(root, NodeFilter.SHOW_TEXT);
  const texts: Text[] = [];
  while (walker.nextNode()) texts.push(walker.currentNode as Text);
  const total = (root.textContent ?? '').replace(/\s+/g, ' ').trim().length;
  let used = 0;
  let spaceBefore = true; // nothing shown yet: leading space is dropped
  for (const node of texts) {
    let text = node.data.replace(/\s+/g, ' ');
    if (spaceBefore && text.startsWith(' ')) text = text.slice(1);
    if (total > max && used + text.length >= max) {
      node.data = `${text.slice(0, max - used).trimEnd()}...`;
      dropAfter(node, root);
      return;
    }
    node.data = text;
    used += text.length;
    if (text) spaceBefore = text.endsWith(' ');
  }
}

/** Safe HTML for the preview: text formatting and links only; links keep no way to run script. */
export function previewHtml(body: string): string {
  const fragment = DOMPurify.sanitize(visibleMarkup(body), {
    ALLOWED_TAGS,
    ALLOWED_ATTR: ['href'],
    ALLOWED_URI_REGEXP: /^(?:https?:|mailto:)/i,
    RETURN_DOM_FRAGMENT: true,
  });
  cutText(fragment, PREVIEW_LENGTH);
  // Serialised in DOMPurify's inert document, where nothing it holds could load or run.
  const holder = fragment.ownerDocument.createElement('div');
  holder.append(fragment);
  return holder.innerHTML;
}
