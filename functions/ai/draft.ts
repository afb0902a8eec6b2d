/**
 * AI drafting's data: the draft a drafter answers (spec point 3, "AI generation response"), its zod
 * schema (the one the OpenAI adapter turns into the structured-output JSON schema and every answer
 * is checked against), the request the route builds, and the drafter port both adapters implement.
 */
import { z } from 'zod';
import { CONTENT_TYPES, type ContentType } from '#shared/content/registry.ts';
import { BASE_FRONTMATTER } from '#shared/content/schema.ts';
import { CONTROL_IN_TEXT } from '../platform/http/request.ts';

/** Longest draft body accepted from a drafter (Markdown). */
export const MAX_DRAFT_BODY = 20_000;
/** Most tags a draft keeps. */
export const MAX_DRAFT_TAGS = 8;

/**
 * A generated draft. Title, description and tags follow the create form's rules (the same zod
 * fields as content frontmatter), so a draft can be published as generated.
 */
export const DraftSchema = z
  .object({
    title: BASE_FRONTMATTER.title,
    description: BASE_FRONTMATTER.description,
    body: z
      .string()
      .trim()
      .min(1)
      .max(MAX_DRAFT_BODY)
      .describe('The article or page body in Markdown: headings (##), paragraphs and lists. No HTML.'),
    tags: BASE_FRONTMATTER.tags.unwrap().min(1).max(MAX_DRAFT_TAGS).describe('Two to six short topic tags in Title Case.'),
  })
  .strict();
export type Draft = z.output<typeof DraftSchema>;

/** What a drafter is asked for. */
export interface DraftRequest {
  /** The content type the form is on. */
  type: ContentType;
  /** The user's own text: the topic. */
  topic: string;
  /** The prompt sent to a model: 'Generate a {type} about: {topic}' (spec point 7). */
  prompt: string;
}

/** The port: one adapter is picked at start-up (functions/ai/index.ts). */
export interface Drafter {
  /** Which adapter answers: a configured model, or the offline writer. */
  readonly kind: 'openai' | 'offline';
  /** A draft for the request; throws AppError (503 unavailable, 429 rate_limited) when the service fails. */
  draft(request: DraftRequest, options?: { signal?: AbortSignal }): Promise<Draft>;
}

const PROMPT_SHAPE = new RegExp(`^Generate an? (${CONTENT_TYPES.join('|')}) about:\\s*([\\s\\S]*)$`, 'i');

/** The spec's prompt for a type and the user's text. */
export function buildPrompt(type: ContentType, topic: string): string {
  return `Generate a ${type} about: ${topic}`;
}

/**
 * The request for a body: `{ prompt, type }` names both parts; the spec's `{ prompt }` alone arrives
 * already built ('Generate a {type} about: {text}'), and is read back into type and topic (any other
 * prompt is a blog topic).
 */
export function draftRequest(prompt: string, type?: ContentType): DraftRequest {
  if (type) return { type, topic: prompt, prompt: buildPrompt(type, prompt) };
  const match = PROMPT_SHAPE.exec(prompt);
  const named = match?.[1]?.toLowerCase() as ContentType | undefined;
  const topic = match?.[2]?.trim();
  if (named && topic) return { type: named, topic, prompt: buildPrompt(named, topic) };
  return { type: 'blog', topic: prompt, prompt: buildPrompt('blog', prompt) };
}

const CONTROL_GLOBAL = new RegExp(CONTROL_IN_TEXT.source, 'g');
// Titles, descriptions and tags are one line: every control character, line breaks included, becomes a space.
const ONE_LINE_CONTROL = /[\u0000-\u001f\u007f-\u009f]+/g;

const oneLine = (v: unknown) => (typeof v === 'string' ? v.replace(ONE_LINE_CONTROL, ' ').replace(/ {2,}/g, ' ').trim() : v);

/**
 * Tidies a drafter's raw answer before it is checked: control characters out, tags trimmed,
 * de-duplicated (ignoring case) and capped. Anything that is not a draft's shape is left for
 * DraftSchema to refuse.
 */
export function tidyDraft(raw: unknown): unknown {
  if (!raw || typeof raw !== 'object' || Array.isArray(raw)) return raw;
  const { title, description, body, tags } = raw as Record<string, unknown>;
  let tidyTags = tags;
  if (Array.isArray(tags)) {
    const byKey = new Map<string, string>();
    for (const tag of tags.map(oneLine)) {
      if (typeof tag === 'string' && tag.length > 0 && tag.length <= 40 && !byKey.has(tag.toLowerCase())) byKey.set(tag.toLowerCase(), tag);
    }
    tidyTags = [...byKey.values()].slice(0, MAX_DRAFT_TAGS);
  }
  return {
    title: oneLine(title),
    description: oneLine(description),
    body: typeof body === 'string' ? body.replace(/\r\n?/g, '\n').replace(CONTROL_GLOBAL, '') : body,
    tags: tidyTags,
  };
}

/** A drafter's answer tidied and validated; undefined when it is not a usable draft. */
export function checkDraft(raw: unknown): Draft | undefined {
  const parsed = DraftSchema.safeParse(tidyDraft(raw));
  return parsed.success ? parsed.data : undefined;
}
