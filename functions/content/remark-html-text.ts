/**
 * A remark plugin for members' posts: HTML a member types is kept as the text they typed (escaped
 * when rendered), never as markup. Markdown starts an HTML block at a line opening with a block tag
 * (`<div>`, `<table>`, `<pre>`, `<script>`, `<!--`…) and runs it to the next blank line, or for
 * `<script>`, `<pre>` and comments to their closing tag or the end of the post; MDX drops such
 * blocks, so a post whose first line was `<div>` was saved with nothing to show. As text, every
 * character the member wrote stays visible and none of it can act as HTML.
 */
import type { Html, Nodes, Parents, PhrasingContent, Root } from 'mdast';
import { visit } from 'unist-util-visit';

/** Parents whose children are phrasing content (text in a line), where HTML stays inline. */
const PHRASING_PARENTS = new Set<Nodes['type']>([
  'paragraph',
  'heading',
  'emphasis',
  'strong',
  'delete',
  'link',
  'linkReference',
  'tableCell',
]);

/** The HTML's text, its line breaks kept as breaks (a block's lines would otherwise run together). */
function asText(html: Html, breaks: boolean): PhrasingContent[] {
  if (!breaks) return [{ type: 'text', value: html.value }];
  const out: PhrasingContent[] = [];
  for (const [i, line] of html.value.split('\n').entries()) {
    if (i > 0) out.push({ type: 'break' });
    out.push({ type: 'text', value: line });
  }
  return out;
}

/** Replaces every HTML node with its text: a paragraph (line breaks kept) where it was a block, text where it was inline. */
export function remarkHtmlAsText() {
  return (tree: Root) => {
    visit(tree, 'html', (node: Html, index: number | undefined, parent: Parents | undefined) => {
      if (!parent || index === undefined) return;
      const inline = PHRASING_PARENTS.has(parent.type);
      const replacement = inline ? asText(node, false) : [{ type: 'paragraph' as const, children: asText(node, true) }];
      (parent.children as Nodes[]).splice(index, 1, ...replacement);
      // Continue after what replaced it: the new text holds no HTML node to visit.
      return index + replacement.length;
    });
  };
}
