/**
 * The email dashboard's body preview (spec point 2): the first 200 characters of what the message
 * shows its reader, plus '...' when there is more, rendered as HTML and made safe: no script, no
 * event handlers, nothing that loads from anywhere (no images, media, frames, styles or forms).
 * The server hands the message's visible markup (the Email record's `preview`: head, styles, hidden
 * elements and the layout's chrome gone, functions/email/preview.ts), because parsing the stored
 * document here reported every inline style to the page's policy; this keeps what DOMPurify keeps
 * (again: the page trusts no server string as markup) and cuts the text inside it. Browser only.
 */
import DOMPurify from 'dompurify';
import { PREVIEW_TAGS } from '#shared/email/preview-tags.ts';

export const PREVIEW_LENGTH = 200;

const ALLOWED_TAGS: string[] = [...PREVIEW_TAGS];

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

/** Safe HTML for the preview of a message's visible markup: text formatting and links only; links keep no way to run script. */
export function previewHtml(visible: string): string {
  const fragment = DOMPurify.sanitize(visible, {
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
