/**
 * What the Create Content form sends (spec point 3, "Submitted payload"): tags typed as one
 * comma-separated text go as trimmed non-empty strings, media types come from the MIME type, and
 * each type sends the fields its definition lists (`createFields`).
 */
import type { DraftField } from '../content/content-type.ts';
import type { ContentType } from '../content/registry.ts';
import type { MediaItem } from '../content/schema.ts';
import { createFields, type ContentDraft } from './draft.ts';

/** 'a, b ,, c' → ['a', 'b', 'c']. */
export function parseTags(text: string): string[] {
  return text
    .split(',')
    .map((t) => t.trim())
    .filter(Boolean);
}

/** The spec's rule: image/* is an image, video/* a video, application/pdf a PDF; anything else is refused. */
export function mediaTypeOf(mime: string): MediaItem['type'] | undefined {
  if (mime.startsWith('image/')) return 'image';
  if (mime.startsWith('video/')) return 'video';
  if (mime === 'application/pdf') return 'pdf';
  return undefined;
}

/** Lower-case words joined by hyphens, from a title (lesson and section ids). */
function idFrom(text: string, fallback: string): string {
  const id = text
    .toLowerCase()
    .normalize('NFKD')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 60)
    .replace(/-+$/, '');
  return id || fallback;
}

/** A one-line text field, trimmed, and sent only when filled. */
const optional = (key: DraftField, value: string) => (value.trim() ? { [key]: value.trim() } : {});

/** A number typed as text, sent only when filled (the schema says what is wrong with one that is not a number). */
const number = (key: DraftField, value: string) => (value.trim() === '' ? {} : { [key]: Number(value) });

/** How each own field is sent: keyed by field, so a type is only a list of them. */
const SEND: { [K in DraftField]: (draft: ContentDraft) => Record<string, unknown> } = {
  content: (d) => ({ content: d.content }),
  downloadUrl: (d) => optional('downloadUrl', d.downloadUrl),
  externalLink: (d) => optional('externalLink', d.externalLink),
  price: (d) => number('price', d.price),
  fileType: (d) => optional('fileType', d.fileType),
  duration: (d) => optional('duration', d.duration),
  skillLevel: (d) => ({ skillLevel: d.skillLevel }),
  sections: (d) => ({
    sections: d.sections.map((s, i) => ({
      id: s.id ?? idFrom(s.title, `section-${i + 1}`),
      title: s.title,
      lessons: s.lessons.map((l, j) => ({
        id: l.id ?? idFrom(l.title, `lesson-${i + 1}-${j + 1}`),
        title: l.title,
        content: l.content,
        media: l.media ?? [],
        downloadables: l.downloadables ?? [],
      })),
    })),
  }),
  startsAt: (d) => optional('startsAt', d.startsAt),
  timeZone: (d) => optional('timeZone', d.timeZone),
  durationMinutes: (d) => number('durationMinutes', d.durationMinutes),
  host: (d) => optional('host', d.host),
  format: (d) => ({ format: d.format }),
  // Only the place the format uses: a half-typed link left behind after switching to in person is not sent.
  joinUrl: (d) => (d.format === 'online' ? optional('joinUrl', d.joinUrl) : {}),
  address: (d) => (d.format === 'in-person' ? optional('address', d.address) : {}),
  capacity: (d) => number('capacity', d.capacity),
  recordingUrl: (d) => optional('recordingUrl', d.recordingUrl),
  cancelled: (d) => ({ cancelled: d.cancelled }),
};

/** The payload sent to POST /api/content/{segment}: the spec's fields, and the type's own (`createFields`). */
export function buildPayload(type: ContentType, draft: ContentDraft): Record<string, unknown> {
  const base = {
    title: draft.title,
    description: draft.description,
    tags: parseTags(draft.tags),
    accessLevel: draft.accessLevel,
    media: draft.media,
  };
  return Object.assign(base, ...createFields(type).map((field) => SEND[field](draft))) as Record<string, unknown>;
}

/**
 * A change to an existing item: the payload, with `null` for each of the type's own fields the form
 * left empty (a change is partial, so an absent field would keep its old value; null removes it).
 */
export function changePayload(type: ContentType, payload: Record<string, unknown>): Record<string, unknown> {
  const cleared = createFields(type).filter((field) => !Object.hasOwn(payload, field));
  return { ...payload, ...Object.fromEntries(cleared.map((field) => [field, null])) };
}
