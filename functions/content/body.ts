/**
 * What the rest of the server needs to know about a body without rendering one: its formats, the
 * renderer's signature, its error and the preview split. Kept apart from render.ts, whose Markdown,
 * MDX, React and sanitising pipeline runs on the renderer threads (body-renderer.ts): a module that
 * imports only this never loads that pipeline into the server's own thread.
 */
import { PREVIEW_MARKER } from '#shared/content/markdown.ts';
import { AppError } from '../platform/errors.ts';

export type BodyFormat = 'mdx' | 'markdown';

/** Renders a staff body to sanitised HTML: the server's is its staff renderer's thread (body-renderer.ts). */
export type RenderBody = (source: string, format: BodyFormat) => Promise<string>;

/** A body that cannot be rendered: 422 with a field error on `body` (the cause, if any, is kept for the log). */
export class BodyRenderError extends AppError {
  constructor(message: string, options?: { cause?: unknown }) {
    super('validation_failed', message, { fields: { body: [message] } });
    if (options?.cause !== undefined) this.cause = options.cause;
  }
}

/** The body split at the author's preview marker; `preview` is undefined when there is none. */
export function splitPreview(source: string): { preview?: string; body: string } {
  const match = PREVIEW_MARKER.exec(source);
  if (!match) return { body: source };
  const preview = source.slice(0, match.index).trim();
  const body = `${preview}\n\n${source.slice(match.index + match[0].length).trim()}`.trim();
  return preview ? { preview, body } : { body };
}
