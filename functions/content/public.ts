/**
 * The server's public projection of an item: `toPublicItem` (public fields only) plus, for an
 * article whose author marked where its public preview ends, that preview as sanitised HTML, and
 * for an event its description (public as a whole) as sanitised HTML (`bodyHtml`). The public API's
 * details, the detail pages and the build all use it; lists carry neither. The HTML comes from
 * `render` (the server's staff renderer's thread: an item's first render never holds the server's).
 */
import { toPublicItem, type ContentItem, type PublicItemOf } from '#shared/content/registry.ts';
import { splitPreview, type RenderBody } from './body.ts';

const MAX_RENDERED = 2000;

/** `publicItem` over `render`, each text rendered once (until 2,000 are kept, then afresh). */
export function createPublicProjection(render: RenderBody) {
  /** Rendered public HTML by what it was rendered from (an article's preview, an event's description). */
  const rendered = new Map<string, Promise<string | undefined>>();

  function renderOnce(kind: 'preview' | 'body', source: string, format: 'mdx' | 'markdown'): Promise<string | undefined> {
    const key = `${kind}:${format}:${source}`;
    const kept = rendered.get(key);
    if (kept) return kept;
    const text = kind === 'preview' ? splitPreview(source).preview : source;
    const html = text ? render(text, format).then((out) => out || undefined) : Promise.resolve(undefined);
    if (rendered.size >= MAX_RENDERED) rendered.clear();
    rendered.set(key, html);
    // A text that could not render (too complex, or the renderer busy) is tried again next time.
    void html.catch(() => rendered.get(key) === html && rendered.delete(key));
    return html;
  }

  return async function publicItem<I extends ContentItem>(item: I): Promise<PublicItemOf<I['type']>> {
    type Out = PublicItemOf<I['type']>;
    const out = toPublicItem(item);
    if (item.type === 'blog') {
      const previewHtml = await renderOnce('preview', item.content, item.contentFormat);
      return (previewHtml ? { ...out, previewHtml } : out) as Out;
    }
    if (item.type === 'event') {
      const bodyHtml = await renderOnce('body', item.content, item.contentFormat);
      return (bodyHtml ? { ...out, bodyHtml } : out) as Out;
    }
    return out;
  };
}

export type PublicProjection = ReturnType<typeof createPublicProjection>;
