/**
 * The Create Content page's calls: create an item, upload a file, draft with AI (spec point 7). Each
 * sends the member's bearer token and answers a typed result; never throws. Uploads go through
 * XMLHttpRequest for its upload progress events, and can be cancelled.
 */
import type { ContentType } from '#shared/content/registry.ts';
import { CONTENT_TYPE_INFO } from '#shared/content/registry.ts';
import { api, bearer, call, failure, type ApiData, type ApiResult } from './api.ts';

const items = api.create[':segment'];
const item = items[':id'];
const at = (type: ContentType) => ({ segment: CONTENT_TYPE_INFO[type].apiSegment });
const atItem = (type: ContentType, id: string) => ({ param: { ...at(type), id: encodeURIComponent(id) } });

/** A created or changed item and its page (the creator API's answer). */
export type CreatedItem = ApiData<typeof items.$post>;
export type GeneratedDraft = ApiData<typeof api.ai.generate.$post>;
/** A stored file's URL, as POST /api/upload and /api/upload/complete answer it. */
type StoredFile = ApiData<typeof api.uploads.api.upload.complete.$post>;

export function createItem(type: ContentType, payload: Record<string, unknown>) {
  return call((o) => items.$post({ param: at(type), json: payload }, o));
}

/** An existing database item as its form holds it. */
export function fetchEditable(type: ContentType, id: string) {
  return call((o) => item.$get(atItem(type, id), o));
}

export function updateItem(type: ContentType, id: string, payload: Record<string, unknown>) {
  return call((o) => item.$patch({ ...atItem(type, id), json: payload }, o));
}

/** Publishes a database item again, or unpublishes it (the content tab's switch). */
export function publishItem(type: ContentType, id: string, published: boolean) {
  return call((o) => item.$patch({ ...atItem(type, id), json: { published } }, o));
}

/** Deletes a database item. */
export function deleteItem(type: ContentType, id: string) {
  return call((o) => item.$delete(atItem(type, id), o));
}

/** The spec's prompt: 'Generate a {type} about: {user text}'. */
export function generateDraft(type: ContentType, text: string) {
  return call((o) => api.ai.generate.$post({ json: { prompt: `Generate a ${type} about: ${text.trim()}` } }, o));
}

/** How far an upload is and how to stop it: `onProgress` gets the share of bytes sent (0 to 1); aborting `signal` cancels. */
export interface UploadOptions {
  onProgress?: (sent: number) => void;
  signal?: AbortSignal;
}

/** An upload's answer: the stored file's URL, or why not (`code: 'canceled'` when the person stopped it). */
export type UploadResult = ApiResult<StoredFile>;

const CANCELED: UploadResult = { ok: false, kind: 'error', code: 'canceled', message: 'The upload was canceled.' };

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
  const res = await send('POST', api.uploads.api.upload.$path({ query: area === 'protected' ? { area } : {} }), headers, form, options);
  if (res === 'canceled') return CANCELED;
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
    const offer = await call((o) => api.uploads.api.upload.presign.$post({ json: { area, contentType: file.type, size: file.size } }, o));
    if (!offer.ok) return offer;
    if (!offer.data.direct) return await postFile(file, area, token, options);
    // A bucket the browser cannot reach (its CORS, a private endpoint): the server takes the file instead.
    const put = await send('PUT', offer.data.url, offer.data.headers, file, options).catch(() => 'unreachable' as const);
    if (put === 'unreachable') return await postFile(file, area, token, options);
    if (put === 'canceled') return CANCELED;
    if (!put.ok) return { ok: false, kind: 'error', message: UPLOAD_FAILED };
    const { key } = offer.data;
    return await call((o) => api.uploads.api.upload.complete.$post({ json: { key } }, o));
  } catch {
    return { ok: false, kind: 'error', message: UPLOAD_FAILED };
  }
}
