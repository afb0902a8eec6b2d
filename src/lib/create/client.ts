/**
 * The Create Content page's calls: create an item, upload a file, draft with AI (spec point 7). Each
 * sends the member's bearer token and answers a typed result; never throws.
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

/** One file to storage (multipart, field `file`); `protected` keeps a member file behind signed links. */
export async function uploadFile(file: File, area: 'public' | 'protected' = 'public'): Promise<GatedResult<{ url: string }>> {
  try {
    const token = await bearer();
    if (!token) return { ok: false, kind: 'signed-out' };
    const form = new FormData();
    form.append('file', file);
    const res = await fetch(`/api/upload${area === 'protected' ? '?area=protected' : ''}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, accept: 'application/json' },
      body: form,
    });
    if (!res.ok) return await failure(res);
    return { ok: true, data: (await res.json()) as { url: string } };
  } catch {
    return { ok: false, kind: 'error', message: 'The upload failed. Please try again.' };
  }
}
