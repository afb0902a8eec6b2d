/**
 * The support islands' calls (the member's page and the admin dashboard's Support tab), through the
 * typed client of src/lib/browser/api.ts (answer types come from functions/support/routes.ts). A
 * message's attachment goes straight to storage when the server offers it (a presigned PUT; the JSON
 * message then names it), else with the message as multipart/form-data through the same client (the
 * file field is `attachment`); a message without one goes as JSON. Attachments come back through the request's own route
 * with the member's token, so they are fetched and handed to the browser as a download. Browser only.
 */
import type { RequestStatus } from '#shared/support/targets.ts';
import { api, bearer, call, type ApiData, type ApiInput, type ApiResult } from '../../lib/browser/api.ts';

const requests = api.support.requests;
const request = requests[':id'];
const at = (id: string) => ({ param: { id: encodeURIComponent(id) } });

export type RequestList = ApiData<typeof requests.$get>;
export type RequestSummary = RequestList['requests'][number];
export type Conversation = ApiData<typeof request.$get>;
export type Message = Conversation['messages'][number];
export type StaffMember = ApiData<typeof api.support.staff.$get>['staff'][number];

/** A file sent straight to storage, as a message names it (the route's schema's input). */
type AttachmentRef = NonNullable<NonNullable<ApiInput<typeof requests.$post>>['attachment']>;

/**
 * The file sent straight to storage when the server offers it: its reference for the JSON message, or
 * undefined when it is to travel in the message (no bucket, a type the browser cannot name, a bucket
 * the browser cannot reach).
 */
async function sendStraight(file: File): Promise<ApiResult<AttachmentRef | undefined>> {
  if (!file.type) return { ok: true, data: undefined };
  const offer = await call((o) => api.support.attachments.$post({ json: { contentType: file.type, size: file.size } }, o));
  if (!offer.ok || !offer.data.direct) return offer.ok ? { ok: true, data: undefined } : offer;
  const put = await fetch(offer.data.url, { method: 'PUT', headers: offer.data.headers, body: file }).catch(() => undefined);
  if (!put) return { ok: true, data: undefined };
  if (!put.ok) return { ok: false, kind: 'error', message: 'The attachment could not be sent. Please try again.' };
  return { ok: true, data: { key: offer.data.key, name: file.name } };
}

/** The caller's requests (`scope: 'own'`), or staff's queue filtered by status; one page from `cursor`. */
export function listRequests(
  query: { scope: 'own' | 'all'; status?: RequestStatus | 'active' | 'all'; cursor?: string },
  signal?: AbortSignal,
) {
  const params: Record<string, string> = { scope: query.scope, status: query.status ?? 'all' };
  if (query.cursor) params.cursor = query.cursor;
  return call((o) => requests.$get({ query: params }, o), { signal });
}

export const getRequest = (id: string, signal?: AbortSignal) => call((o) => request.$get(at(id), o), { signal });

/** Opens a request: `{ id }`. */
export async function openRequest(input: { subject: string; message: string }, file?: File) {
  if (!file) return call((o) => requests.$post({ json: input }, o));
  const sent = await sendStraight(file);
  if (!sent.ok) return sent;
  const attachment = sent.data;
  if (attachment) return call((o) => requests.$post({ json: { ...input, attachment } }, o));
  return call((o) => requests.$post({ form: { ...input, attachment: file } }, o));
}

/** Adds a message: the member's reply, or staff's reply or internal note with the status after it. */
export async function sendMessage(id: string, input: { body: string; internal?: boolean; status?: RequestStatus }, file?: File) {
  if (!file) return call((o) => request.messages.$post({ ...at(id), json: input }, o));
  const sent = await sendStraight(file);
  if (!sent.ok) return sent;
  const attachment = sent.data;
  if (attachment) return call((o) => request.messages.$post({ ...at(id), json: { ...input, attachment } }, o));
  const fields = {
    body: input.body,
    ...(input.internal !== undefined ? { internal: String(input.internal) } : {}),
    ...(input.status ? { status: input.status } : {}),
  };
  return call((o) => request.messages.$post({ ...at(id), form: { ...fields, attachment: file } }, o));
}

/** Staff: the status and/or the assignee (null: nobody). */
export const updateRequest = (id: string, patch: { status?: RequestStatus; assigneeId?: string | null }) =>
  call((o) => request.$patch({ ...at(id), json: patch }, o));

/** Staff: whom a request may be assigned to. */
export const listStaff = (signal?: AbortSignal) => call((o) => api.support.staff.$get({}, o), { signal });

/** Saves a message's attachment: fetched with the member's token, then handed to the browser as a file. */
export async function downloadAttachment(requestId: string, message: Message): Promise<ApiResult<null>> {
  const param = { id: encodeURIComponent(requestId), messageId: encodeURIComponent(message.id) };
  try {
    const token = await bearer();
    if (!token) return { ok: false, kind: 'signed-out' };
    // The typed client, read as bytes: a file, not JSON.
    const res = await request.messages[':messageId'].attachment.$get({ param }, { headers: { authorization: `Bearer ${token}` } });
    if (res.status === 401) return { ok: false, kind: 'signed-out' };
    if (!res.ok) return { ok: false, kind: 'error', message: 'The attachment could not be downloaded.', status: res.status };
    const url = URL.createObjectURL(await res.blob());
    const link = document.createElement('a');
    link.href = url;
    link.download = message.attachment?.name ?? 'attachment';
    document.body.append(link);
    link.click();
    link.remove();
    setTimeout(() => URL.revokeObjectURL(url), 60_000);
    return { ok: true, data: null };
  } catch {
    return { ok: false, kind: 'error', message: 'The attachment could not be downloaded.' };
  }
}

/** A failed call's words for a person. */
export function failureText(result: Exclude<ApiResult<unknown>, { ok: true }>, fallback: string): string {
  if (result.kind === 'signed-out') return 'Your session has ended. Please sign in again.';
  if (result.kind === 'forbidden') return 'You cannot do that here.';
  const field = result.kind === 'error' ? Object.values(result.fields ?? {})[0]?.[0] : undefined;
  return field ?? (result.message || fallback);
}

/** A file size in words: "840 KB", "2.4 MB". */
export function fileSize(bytes: number): string {
  if (bytes < 1024 * 1024) return `${Math.max(1, Math.round(bytes / 1024))} KB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}
