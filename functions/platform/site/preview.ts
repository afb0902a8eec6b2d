/**
 * Deploy previews (PREVIEW_OF): every page a reviewer opens says which branch and commit it shows
 * and is kept out of search engines. Pages are prebuilt once for every environment, so the preview
 * marks are added as pages are served: a `noindex` meta and a slim banner linking to /preview
 * (the branch's content changes and "view as"). Off unless the server runs in preview mode.
 */
import type { IncomingMessage, OutgoingHttpHeaders, ServerResponse } from 'node:http';

export interface PreviewInfo {
  branch: string;
  commit?: string | undefined;
}

const escape = (text: string) =>
  text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

/** The page with the preview's noindex meta in its head and its banner first in its body. */
export function injectPreview(html: string, info: PreviewInfo): string {
  const meta = '<meta name="robots" content="noindex, nofollow">';
  const commit = info.commit ? ` at <code>${escape(info.commit.slice(0, 7))}</code>` : '';
  const banner =
    `<div class="preview-banner" role="note" data-preview-banner>Deploy preview of <strong>${escape(info.branch)}</strong>${commit}` +
    ` · <a href="/preview">What changed on this branch</a></div>`;
  return html.replace(/<head(\s[^>]*)?>/i, (tag) => `${tag}${meta}`).replace(/<body(\s[^>]*)?>/i, (tag) => `${tag}${banner}`);
}

const isHtml = (type: unknown) => typeof type === 'string' && type.toLowerCase().startsWith('text/html');

/**
 * Makes `res` pass HTML bodies through `transform` (other answers are untouched). The request is
 * asked for an identity body (its Accept-Encoding is dropped), so the served bytes are plain HTML.
 */
export function transformHtml(req: IncomingMessage, res: ServerResponse, transform: (html: string) => string): void {
  delete req.headers['accept-encoding'];
  const chunks: Buffer[] = [];
  let buffering: boolean | undefined;
  const writeHead = res.writeHead.bind(res) as (status: number, headers?: OutgoingHttpHeaders) => ServerResponse;
  const write = res.write.bind(res) as (chunk: unknown, ...rest: unknown[]) => boolean;
  const end = res.end.bind(res) as (chunk?: unknown, ...rest: unknown[]) => ServerResponse;
  let head: { status: number; headers: OutgoingHttpHeaders } | undefined;

  const decide = () => {
    if (buffering !== undefined) return buffering;
    const type = head?.headers['content-type'] ?? head?.headers['Content-Type'] ?? res.getHeader('content-type');
    buffering = isHtml(type) && res.req?.method !== 'HEAD';
    if (!buffering && head) writeHead(head.status, head.headers);
    return buffering;
  };
  const toBuffer = (chunk: unknown) => (Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk as string));

  res.writeHead = ((status: number, ...args: unknown[]) => {
    const headers = (args.find((a) => typeof a === 'object' && a !== null) ?? {}) as OutgoingHttpHeaders;
    head = { status, headers: { ...headers } };
    return res;
  }) as typeof res.writeHead;
  res.write = ((chunk: unknown, ...rest: unknown[]) => {
    if (decide()) {
      chunks.push(toBuffer(chunk));
      const callback = rest.find((r) => typeof r === 'function') as (() => void) | undefined;
      callback?.();
      return true;
    }
    return write(chunk, ...rest);
  }) as typeof res.write;
  res.end = ((chunk?: unknown, ...rest: unknown[]) => {
    if (!decide()) return end(chunk, ...rest);
    if (chunk !== undefined && typeof chunk !== 'function') chunks.push(toBuffer(chunk));
    const body = Buffer.from(transform(Buffer.concat(chunks).toString('utf8')));
    const headers = { ...(head?.headers ?? {}) };
    for (const name of Object.keys(headers))
      if (name.toLowerCase() === 'content-length' || name.toLowerCase() === 'etag') delete headers[name];
    res.removeHeader('content-length');
    res.removeHeader('etag');
    writeHead(head?.status ?? res.statusCode, { ...headers, 'Content-Length': body.length });
    return end(body);
  }) as typeof res.end;
}
