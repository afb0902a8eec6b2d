/**
 * The Create Content form's rules (spec points 2 "Create Content", 3 "Content draft" and "Submitted
 * payload", 5 and 8), pure so they are tested without a browser: tags typed as one comma-separated
 * text are sent as trimmed non-empty strings, media types come from the MIME type, each type sends
 * the fields its definition lists (`createFields`), the payload is checked with the content
 * registry's own input schema (the server's), and the toasts' texts.
 */
import type { AccessLevel } from './access.ts';
import type { DraftField } from './content/content-type.ts';
import { CONTENT_REGISTRY, CONTENT_TYPE_INFO, CONTENT_TYPES, type ContentType } from './content/registry.ts';
import type { MediaItem } from './content/schema.ts';

/** The form's tabs, one per type in the registry's order, named as the type's definition names it. */
export const CREATE_TABS: { type: ContentType; label: string }[] = CONTENT_TYPES.map((type) => ({
  type,
  label: CONTENT_REGISTRY[type].labels.name,
}));

/** The type's own fields the form edits and sends, from its definition. */
export function createFields(type: ContentType): readonly DraftField[] {
  return CONTENT_REGISTRY[type].createFields;
}

const noun = (type: ContentType) => CONTENT_REGISTRY[type].labels.singular;
const capitalised = (text: string) => `${text[0]!.toUpperCase()}${text.slice(1)}`;

export interface LessonDraft {
  title: string;
  content: string;
  /** Kept from an existing lesson, so editing keeps its id (progress refers to it), media and files. */
  id?: string;
  media?: unknown[];
  downloadables?: unknown[];
}
export interface SectionDraft {
  title: string;
  lessons: LessonDraft[];
  id?: string;
}

/**
 * What the form holds (the spec's content draft, plus every type's own fields: a type's definition
 * lists those it uses in `createFields`, and only those are sent).
 */
export interface ContentDraft extends Record<DraftField, unknown> {
  title: string;
  description: string;
  /** The body in Markdown. */
  content: string;
  /** One comma-separated text. */
  tags: string;
  accessLevel: AccessLevel;
  media: MediaItem[];
  /** A private file key or https URL. */
  downloadUrl: string;
  externalLink: string;
  /** Dollars as typed; empty: no price. */
  price: string;
  fileType: string;
  duration: string;
  skillLevel: 'beginner' | 'intermediate' | 'advanced';
  sections: SectionDraft[];
}

export const EMPTY_DRAFT: ContentDraft = {
  title: '',
  description: '',
  content: '',
  tags: '',
  accessLevel: 'free',
  media: [],
  downloadUrl: '',
  externalLink: '',
  price: '',
  fileType: '',
  duration: '',
  skillLevel: 'beginner',
  sections: [],
};

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

/** How each own field is sent: keyed by field, so a type is only a list of them. */
const SEND: { [K in DraftField]: (draft: ContentDraft) => Record<string, unknown> } = {
  content: (d) => ({ content: d.content }),
  downloadUrl: (d) => optional('downloadUrl', d.downloadUrl),
  externalLink: (d) => optional('externalLink', d.externalLink),
  price: (d) => (d.price.trim() === '' ? {} : { price: Number(d.price) }),
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

/** The AI draft's parts (spec point 7, "AI generation response"). */
export interface GeneratedParts {
  title: string;
  description: string;
  body: string;
  tags: string[];
}

/** Whether the type's form has a body (`content`) for an AI draft's body to fill. */
export function takesBody(type: ContentType): boolean {
  return createFields(type).includes('content');
}

/** The form filled from an AI draft: its title, description and tags, and its body where the type has one. */
export function withGenerated(type: ContentType, draft: ContentDraft, generated: GeneratedParts): ContentDraft {
  const { title, description, body, tags } = generated;
  return { ...draft, title, description, content: takesBody(type) ? body : draft.content, tags: tags.join(', ') };
}

/** Field → first problem, checked with the server's own schema; empty when the payload is valid. */
export function draftErrors(type: ContentType, payload: Record<string, unknown>): Record<string, string> {
  const parsed = CONTENT_REGISTRY[type].input.safeParse(payload);
  if (parsed.success) return {};
  const errors = new Map<string, string>();
  for (const issue of parsed.error.issues) {
    const key = issue.path.join('.') || '_';
    if (!errors.has(key)) errors.set(key, issue.message);
  }
  return Object.fromEntries(errors);
}

/**
 * The errors that still stand once the draft has changed since they were found (`checked`): a
 * field's error goes as soon as the field passes the schema again, and shows the schema's current
 * message while it still fails. An error the schema cannot see (the server's: a slug taken, a host
 * not allowed) stays until its field changes. No new errors appear here: those wait for the next
 * submit, so nobody is scolded for a field they have not reached yet.
 */
export function standingErrors(
  type: ContentType,
  errors: Record<string, string>,
  checked: ContentDraft,
  current: ContentDraft,
): Record<string, string> {
  const keys = Object.keys(errors);
  if (keys.length === 0 || checked === current) return errors;
  const before = buildPayload(type, checked);
  const after = buildPayload(type, current);
  const fresh = new Map(Object.entries(draftErrors(type, after)));
  const standing = new Map<string, string>();
  for (const key of keys) {
    const field = key.split('.')[0]!;
    const changed = JSON.stringify(before[field]) !== JSON.stringify(after[field]);
    const now = fresh.get(key);
    if (now !== undefined) standing.set(key, changed ? now : errors[key]!);
    else if (!changed) standing.set(key, errors[key]!);
  }
  return Object.fromEntries(standing);
}

/** An existing item's input (GET /api/content/{segment}/{id}) as the form holds it, for editing. */
export function draftFromInput(input: Record<string, unknown>): ContentDraft {
  const text = (key: string) => (typeof input[key] === 'string' ? (input[key] as string) : '');
  type StoredLesson = { id?: string; title?: string; content?: string; media?: unknown[]; downloadables?: unknown[] };
  const sections = Array.isArray(input.sections) ? (input.sections as { id?: string; title?: string; lessons?: StoredLesson[] }[]) : [];
  return {
    ...EMPTY_DRAFT,
    title: text('title'),
    description: text('description'),
    content: text('content'),
    tags: Array.isArray(input.tags) ? (input.tags as string[]).join(', ') : '',
    accessLevel: (input.accessLevel as ContentDraft['accessLevel'] | undefined) ?? 'free',
    media: Array.isArray(input.media) ? (input.media as MediaItem[]) : [],
    downloadUrl: text('downloadUrl'),
    externalLink: text('externalLink'),
    price: typeof input.price === 'number' ? String(input.price) : '',
    fileType: text('fileType'),
    duration: text('duration'),
    skillLevel: (input.skillLevel as ContentDraft['skillLevel'] | undefined) ?? 'beginner',
    sections: sections.map((s) => ({
      ...(s.id ? { id: s.id } : {}),
      title: s.title ?? '',
      lessons: (s.lessons ?? []).map((l) => ({
        ...(l.id ? { id: l.id } : {}),
        title: l.title ?? '',
        content: l.content ?? '',
        media: l.media ?? [],
        downloadables: l.downloadables ?? [],
      })),
    })),
  };
}

/** The success toast (spec point 8). */
export function createdToast(type: ContentType, title: string): { title: string; description: string } {
  return { title: `${capitalised(noun(type))} created`, description: `"${title}" has been created successfully.` };
}

/** The toast after saving changes to an existing item (beyond the spec, worded like its create toast). */
export function updatedToast(type: ContentType, title: string): { title: string; description: string } {
  return { title: `${capitalised(noun(type))} updated`, description: `"${title}" has been updated successfully.` };
}

/** The failure toast's text (spec point 8). */
export function createFailedText(type: ContentType): string {
  return `Failed to create ${noun(type)}. Please try again.`;
}

/** Where a created item sends the creator: the type's list. */
export function listRoute(type: ContentType): string {
  return CONTENT_TYPE_INFO[type].path;
}
