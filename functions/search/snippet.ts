/**
 * A highlighted fragment from the database (`ts_headline` with the private-use markers of
 * `#shared/search.ts`) as the answer's snippet: HTML-escaped text whose only tags are `<mark>` and
 * `</mark>`. The indexed text had the markers removed, so each one here is the highlighter's; an
 * unpaired one is dropped, so the tags always pair.
 */
import { escapeHtml } from '#shared/html-entities.ts';
import { MARK_CLOSE, MARK_OPEN, SNIPPET_MARK_END, SNIPPET_MARK_START } from '#shared/search.ts';

/** The snippet of a highlighted fragment: escaped, markers turned into paired `<mark>` tags, spaces collapsed. */
export function markSnippet(headline: string): string {
  let out = '';
  let open = false;
  for (const piece of headline.split(new RegExp(`([${SNIPPET_MARK_START}${SNIPPET_MARK_END}])`))) {
    if (piece === SNIPPET_MARK_START) {
      if (!open) out += MARK_OPEN;
      open = true;
    } else if (piece === SNIPPET_MARK_END) {
      if (open) out += MARK_CLOSE;
      open = false;
    } else out += escapeHtml(piece.replace(/\s+/g, ' '));
  }
  return (open ? out + MARK_CLOSE : out).trim();
}
