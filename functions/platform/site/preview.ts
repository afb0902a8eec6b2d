/**
 * Deploy previews (PREVIEW_OF): every page a reviewer opens says which branch and commit it shows
 * and is kept out of search engines. Pages are prebuilt once for every environment, so the preview
 * marks are added as pages are served (static-pages.ts, rendered-pages.ts): a `noindex` meta and a
 * slim banner linking to /preview (the branch's content changes and "view as"). Off unless the
 * server runs in preview mode.
 */
import { escapeHtml } from '#shared/html-entities.ts';

export interface PreviewInfo {
  branch: string;
  commit?: string | undefined;
}

/** The page with the preview's noindex meta in its head and its banner first in its body. */
export function injectPreview(html: string, info: PreviewInfo): string {
  const meta = '<meta name="robots" content="noindex, nofollow">';
  const commit = info.commit ? ` at <code>${escapeHtml(info.commit.slice(0, 7))}</code>` : '';
  const banner =
    `<div class="preview-banner" role="note" data-preview-banner>Deploy preview of <strong>${escapeHtml(info.branch)}</strong>${commit}` +
    ` · <a href="/preview">What changed on this branch</a></div>`;
  return html.replace(/<head(\s[^>]*)?>/i, (tag) => `${tag}${meta}`).replace(/<body(\s[^>]*)?>/i, (tag) => `${tag}${banner}`);
}
