/**
 * The server's public projection of an item: `toPublicItem` (public fields only) plus, for an
 * article whose author marked where its public preview ends, that preview as sanitised HTML, and
 * for an event its description (public as a whole) as sanitised HTML (`bodyHtml`). The public API's
 * details, the detail pages and the build all use it; lists carry neither.
 */
import { toPublicItem, type ContentItem, type PublicItemOf } from '#shared/content/registry.ts';
import { renderBody, splitPreview } from './render.ts';

/** Rendered public HTML by what it was rendered from (an article's preview, an event's description): each text renders once. */
const rendered = new Map<string, string | undefined>();
const MAX_RENDERED = 2000;

function renderOnce(kind: 'preview' | 'body', source: string, format: 'mdx' | 'markdown'): string | undefined {
  const key = `${kind}:${format}:${source}`;
  if (rendered.has(key)) return rendered.get(key);
  const text = kind === 'preview' ? splitPreview(source).preview : source;
  const html = text ? renderBody(text, format) || undefined : undefined;
  if (rendered.size >= MAX_RENDERED) rendered.clear();
  rendered.set(key, html);
  return html;
}

export function publicItem<I extends ContentItem>(item: I): PublicItemOf<I['type']> {
  type Out = PublicItemOf<I['type']>;
  const out = toPublicItem(item);
  if (item.type === 'blog') {
    const previewHtml = renderOnce('preview', item.content, item.contentFormat);
    return (previewHtml ? { ...out, previewHtml } : out) as Out;
  }
  if (item.type === 'event') {
    const bodyHtml = renderOnce('body', item.content, item.contentFormat);
    return (bodyHtml ? { ...out, bodyHtml } : out) as Out;
  }
  return out;
}
