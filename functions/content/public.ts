/**
 * The server's public projection of an item: `toPublicItem` (public fields only) plus, for an
 * article whose author marked where its public preview ends, that preview as sanitised HTML. The
 * public API, the pages and the build all use it.
 */
import { toPublicItem, type ContentItem, type PublicItemOf } from '#shared/content/registry.ts';
import { renderBody, splitPreview } from './render.ts';

/** Rendered previews by article source text (an article's text is rendered once). */
const previews = new Map<string, string | undefined>();
const MAX_PREVIEWS = 2000;

function previewHtml(source: string, format: 'mdx' | 'markdown'): string | undefined {
  const key = `${format}:${source}`;
  if (previews.has(key)) return previews.get(key);
  const { preview } = splitPreview(source);
  const html = preview ? renderBody(preview, format) : undefined;
  if (previews.size >= MAX_PREVIEWS) previews.clear();
  previews.set(key, html);
  return html;
}

export function publicItem<I extends ContentItem>(item: I): PublicItemOf<I['type']> {
  const out = toPublicItem(item);
  if (item.type !== 'blog') return out;
  const html = previewHtml(item.content, item.contentFormat);
  return (html ? { ...out, previewHtml: html } : out) as PublicItemOf<I['type']>;
}
