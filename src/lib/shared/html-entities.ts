/**
 * Text in and out of HTML: the five characters that matter in text and attribute values escaped, and
 * those entities (with `&#x27;` and `&nbsp;`, which sanitisers and Pagefind write) read back, in one
 * pass, so `&amp;lt;` reads as `&lt;` and never as `<`. Mail templates, the preview banner, the search
 * index's pages and snippets, and the text taken from sanitised HTML all use these.
 */
const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
const ENTITIES: Record<string, string> = {
  '&amp;': '&',
  '&lt;': '<',
  '&gt;': '>',
  '&quot;': '"',
  '&#39;': "'",
  '&#x27;': "'",
  '&nbsp;': '\u00a0',
};

/** `text` escaped for HTML text and attribute values. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (ch) => ESCAPES[ch]!);
}

/** The entities above read back as their characters (any other entity is left as written). */
export function unescapeHtml(text: string): string {
  return text.replace(/&(?:amp|lt|gt|quot|#39|#x27|nbsp);/g, (entity) => ENTITIES[entity]!);
}
