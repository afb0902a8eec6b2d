/**
 * The Create Content page's calls: create an item, upload a file, draft with AI (spec point 7). Each
 * sends the member's bearer token and answers a typed result; never throws. Uploads go through
 * XMLHttpRequest for its upload progress events, and can be cancelled.
 */
import type { ContentType } from '../content/registry.ts';
import { CONTENT_TYPE_INFO } from '../content/registry.ts';
import { bearer, failure, gatedFetch, type GatedResult } from '../content/gated-client.ts';

export interface CreatedItem {
  item: { id: string; slug: string; title: string };
  path: string;
}

export interface GeneratedDraft {
  content: { title: string; description: string; body: string; tags: string[] };
}

export function createItem(type: ContentType, payload: Record<string, unknown>) {
  return gatedFetch<CreatedItem>(`/api/content/${CONTENT_TYPE_INFO[type].apiSegment}`, { method: 'POST', body: payload });
}

/** An existing database item as its form holds it. */
export function fetchEditable(type: ContentType, id: string) {
  return gatedFetch<{ id: string; type: ContentType; published: boolean; input: Record<string, unknown> }>(
    `/api/content/${CONTENT_TYPE_INFO[type].apiSegment}/${encodeURIComponent(id)}`,
  );
}

export function updateItem(type: ContentType, id: string, payload: Record<string, unknown>) {
  return gatedFetch<CreatedItem>(`/api/content/${CONTENT_TYPE_INFO[type].apiSegment}/${encodeURIComponent(id)}`, {
    method: 'PATCH',
    body: payload,
  });
}

/** The spec's prompt: 'Generate a {type} about: {user text}'. */
export function generateDraft(type: ContentType, text: string) {
  return gatedFetch<GeneratedDraft>('/openai/generate', { method: 'POST', body: { prompt: `Generate a ${type} about: ${text.trim()}` } });
}

/** How far an upload is and how to stop it: `onProgress` gets the share of bytes sent (0 to 1); aborting `signal` cancels. */
export interface UploadOptions {
  onProgress?: (sent: number) => void;
  signal?: AbortSignal;
}

/** An upload's answer: the stored file's URL, why not, or that the user cancelled it. */
export type UploadResult = GatedResult<{ url: string }> | { ok: false; kind: 'canceled' };

const UPLOAD_FAILED = 'The upload failed. Please try again.';

/** POSTs a form with XMLHttpRequest, whose upload events report progress (fetch has none for request bodies). */
function send(url: string, token: string, form: FormData, { onProgress, signal }: UploadOptions): Promise<Response | 'canceled'> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return resolve('canceled');
    const xhr = new XMLHttpRequest();
    xhr.open('POST', url);
    xhr.setRequestHeader('authorization', `Bearer ${token}`);
    xhr.setRequestHeader('accept', 'application/json');
    xhr.upload.onprogress = (event) => {
      if (event.lengthComputable && event.total > 0) onProgress?.(event.loaded / event.total);
    };
    const cancel = () => xhr.abort();
    signal?.addEventListener('abort', cancel, { once: true });
    const done = () => signal?.removeEventListener('abort', cancel);
    xhr.onload = () => {
      done();
      resolve(
        new Response(xhr.responseText, { status: xhr.status, headers: { 'content-type': xhr.getResponseHeader('content-type') ?? '' } }),
      );
    };
    xhr.onabort = () => {
      done();
      resolve('canceled');
    };
    xhr.onerror = xhr.ontimeout = () => {
      done();
      reject(new Error('network'));
    };
    xhr.send(form);
  });
}

/**
 * One file to storage (multipart, field `file`); `protected` keeps a member file behind signed
 * links. Reports progress as the bytes go out and stops when `signal` aborts (the server then
 * deletes what it had written).
 */
export async function uploadFile(file: File, area: 'public' | 'protected' = 'public', options: UploadOptions = {}): Promise<UploadResult> {
  try {
    const token = await bearer();
    if (!token) return { ok: false, kind: 'signed-out' };
    const form = new FormData();
    form.append('file', file);
    const res = await send(`/api/upload${area === 'protected' ? '?area=protected' : ''}`, token, form, options);
    if (res === 'canceled') return { ok: false, kind: 'canceled' };
    if (!res.ok) return await failure(res);
    return { ok: true, data: (await res.json()) as { url: string } };
  } catch {
    return { ok: false, kind: 'error', message: UPLOAD_FAILED };
  }
}
