/**
 * What the Create Content form holds (spec point 3, "Content draft"): one draft with every type's
 * own fields, filled empty, from an existing item for editing, or from an AI draft.
 */
import type { AccessLevel } from '../access.ts';
import type { DraftField } from '../content/content-type.ts';
import { CONTENT_REGISTRY, type ContentType } from '../content/registry.ts';
import type { MediaItem } from '../content/schema.ts';
import type { EventFormat } from '../events/time.ts';

/** The type's own fields the form edits and sends, from its definition. */
export function createFields(type: ContentType): readonly DraftField[] {
  return CONTENT_REGISTRY[type].createFields;
}

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
  /** An event's start as local time (YYYY-MM-DDTHH:mm, what a datetime-local input holds) in `timeZone`. */
  startsAt: string;
  /** IANA zone; empty until the form fills in the editor's own. */
  timeZone: string;
  /** Minutes as typed. */
  durationMinutes: string;
  host: string;
  format: EventFormat;
  joinUrl: string;
  address: string;
  /** Seats as typed; empty: no limit. */
  capacity: string;
  recordingUrl: string;
  cancelled: boolean;
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
  startsAt: '',
  timeZone: '',
  durationMinutes: '60',
  host: '',
  format: 'online',
  joinUrl: '',
  address: '',
  capacity: '',
  recordingUrl: '',
  cancelled: false,
};

/** An empty form whose times are in `zone` (by default where the editor is: the browser's zone). */
export function newDraft(zone: string = Intl.DateTimeFormat().resolvedOptions().timeZone): ContentDraft {
  return { ...EMPTY_DRAFT, timeZone: zone };
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
    startsAt: text('startsAt'),
    timeZone: text('timeZone'),
    durationMinutes: typeof input.durationMinutes === 'number' ? String(input.durationMinutes) : EMPTY_DRAFT.durationMinutes,
    host: text('host'),
    format: input.format === 'in-person' ? 'in-person' : 'online',
    joinUrl: text('joinUrl'),
    address: text('address'),
    capacity: typeof input.capacity === 'number' ? String(input.capacity) : '',
    recordingUrl: text('recordingUrl'),
    cancelled: input.cancelled === true,
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
