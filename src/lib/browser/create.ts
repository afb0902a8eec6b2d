/**
 * The Create Content page's calls: create an item, upload a file, draft with AI (spec point 7). Each
 * sends the member's bearer token and answers a typed result; never throws. Uploads go through
 * XMLHttpRequest for its upload progress events, and can be cancelled.
 */
import type { JSONParsed } from 'hono/utils/types';
import type { ContentType } from '#shared/content/registry.ts';
import { CONTENT_TYPE_INFO } from '#shared/content/registry.ts';
import type { ContentWriteAnswers } from '../../../functions/content/create/routes.ts';
import type { DirectUploads, UploadOffer } from '../../../functions/uploads/direct.ts';
import { api, bearer, call, failure, gatedFetch, type ApiData, type GatedResult } from './api.ts';

/** A created or changed item and its page (the creator API's answer). */
export type CreatedItem = JSONParsed<ContentWriteAnswers['written']>;
export type GeneratedDraft = ApiData<typeof api.ai.generate.$post>;
/** A stored file's URL, as POST /api/upload and /api/upload/complete answer it. */
type StoredFile = Awaited<ReturnType<DirectUploads['complete']>>;

export function createItem(type: ContentType, payload: Record<string, unknown>) {
  return gatedFetch<CreatedItem>(`/api/content/${CONTENT_TYPE_INFO[type].apiSegment}`, { method: 'POST', body: payload });
}

/** An existing database item as its form holds it. */
export function fetchEditable(type: ContentType, id: string) {
  return gatedFetch<JSONParsed<ContentWriteAnswers['editable']>>(
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
  return call((o) => api.ai.generate.$post({}, o), { body: { prompt: `Generate a ${type} about: ${text.trim()}` } });
}

/** How far an upload is and how to stop it: `onProgress` gets the share of bytes sent (0 to 1); aborting `signal` cancels. */
export interface UploadOptions {
  onProgress?: (sent: number) => void;
  signal?: AbortSignal;
}

/** An upload's answer: the stored file's URL, why not, or that the user cancelled it. */
export type UploadResult = GatedResult<StoredFile> | { ok: false; kind: 'canceled' };

const UPLOAD_FAILED = 'The upload failed. Please try again.';

/** Sends a body with XMLHttpRequest, whose upload events report progress (fetch has none for request bodies). */
function send(
  method: 'POST' | 'PUT',
  url: string,
  headers: Record<string, string>,
  body: FormData | File,
  { onProgress, signal }: UploadOptions,
): Promise<Response | 'canceled'> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return resolve('canceled');
    const xhr = new XMLHttpRequest();
    xhr.open(method, url);
    for (const [name, value] of Object.entries(headers)) xhr.setRequestHeader(name, value);
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
    xhr.send(body);
  });
}

/** The file through the server: multipart, field `file`. */
async function postFile(file: File, area: 'public' | 'protected', token: string, options: UploadOptions): Promise<UploadResult> {
  const form = new FormData();
  form.append('file', file);
  const headers = { authorization: `Bearer ${token}`, accept: 'application/json' };
  const res = await send('POST', `/api/upload${area === 'protected' ? '?area=protected' : ''}`, headers, form, options);
  if (res === 'canceled') return { ok: false, kind: 'canceled' };
  if (!res.ok) return await failure(res);
  return { ok: true, data: (await res.json()) as StoredFile };
}

/**
 * One file to storage; `protected` keeps a member file behind signed links. The server first checks
 * the type and size (before any byte goes out) and says where to send it: straight to the bucket
 * (a presigned PUT, then the server checks what arrived), or to the server itself (local disk).
 * Reports progress as the bytes go out and stops when `signal` aborts (nothing is kept).
 */
export async function uploadFile(file: File, area: 'public' | 'protected' = 'public', options: UploadOptions = {}): Promise<UploadResult> {
  try {
    const token = await bearer();
    if (!token) return { ok: false, kind: 'signed-out' };
    // A file the browser cannot name a type for: the server tells it from its bytes.
    if (!file.type) return await postFile(file, area, token, options);
    const offer = await gatedFetch<UploadOffer>('/api/upload/presign', {
      method: 'POST',
      body: { area, contentType: file.type, size: file.size },
    });
    if (!offer.ok) return offer;
    if (!offer.data.direct) return await postFile(file, area, token, options);
    // A bucket the browser cannot reach (its CORS, a private endpoint): the server takes the file instead.
    const put = await send('PUT', offer.data.url, offer.data.headers, file, options).catch(() => 'unreachable' as const);
    if (put === 'unreachable') return await postFile(file, area, token, options);
    if (put === 'canceled') return { ok: false, kind: 'canceled' };
    if (!put.ok) return { ok: false, kind: 'error', message: UPLOAD_FAILED };
    return await gatedFetch<StoredFile>('/api/upload/complete', { method: 'POST', body: { key: offer.data.key } });
  } catch {
    return { ok: false, kind: 'error', message: UPLOAD_FAILED };
  }
}
