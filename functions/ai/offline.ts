/**
 * The offline adapter of the drafter port, used when no OPENAI_API_KEY is configured: it writes a
 * structured, topic-specific draft from the prompt and, when the site has some, its items about the
 * topic (over the relevance threshold of relevance.ts; otherwise an outline from the topic alone),
 * with no network call. Tags, key points and module headings come from the topic and the site's
 * tags it spells out, never from unrelated items. The draft says at its top, and in its
 * description, that it is an offline draft to be rewritten. Each type's definition gives the
 * wording of its title and description and the shape of its body (`drafting`).
 */
import type { DraftOutline } from '#shared/content/content-type.ts';
import { CONTENT_REGISTRY, CONTENT_TYPES, itemPath, type ContentType } from '#shared/content/registry.ts';
import { AppError } from '../platform/errors.ts';
import { checkDraft, MAX_DRAFT_TAGS, type Draft, type Drafter, type DraftRequest } from './draft.ts';
import { capitalise, relatedItems, topicTags, topicWords, type CatalogueItem } from './relevance.ts';

export type { CatalogueItem } from './relevance.ts';

export interface OfflineDrafterOptions {
  /** The site's items (public fields only are read). */
  catalogue: () => Promise<readonly CatalogueItem[]>;
}

export const OFFLINE_NOTE =
  '> **Offline draft.** No AI service is configured on this site (OPENAI_API_KEY is not set), so this outline was written ' +
  'from your prompt and the site’s own content. Review and rewrite it before publishing.';

const MINOR_WORDS = new Set(['a', 'an', 'and', 'as', 'at', 'but', 'by', 'for', 'in', 'of', 'on', 'or', 'the', 'to', 'vs', 'with']);
const titleCase = (text: string) =>
  text
    .split(' ')
    .map((w, i) => (i > 0 && MINOR_WORDS.has(w) ? w : capitalise(w)))
    .join(' ');

/** Backslash-escapes what Markdown or HTML would read as markup, so the user's text shows as typed. */
function escapeMarkdown(text: string): string {
  return text.replace(/[\\`*_{}[\]()<>#+!|~&]/g, (c) => (c === '&' ? '&amp;' : `\\${c}`));
}

/** Cuts a text to `max` characters at a word boundary, with an ellipsis when cut. */
function clip(text: string, max: number): string {
  if (text.length <= max) return text;
  const cut = text.slice(0, max - 1);
  const space = cut.lastIndexOf(' ');
  return `${(space > max / 2 ? cut.slice(0, space) : cut).trimEnd()}…`;
}

/** The topic as a one-line phrase: control characters and runs of spaces folded, trailing punctuation dropped. */
function phrase(topic: string): string {
  return topic
    .replace(/[\u0000-\u001f\u007f-\u009f]+/g, ' ')
    .replace(/\s+/g, ' ')
    .trim()
    .replace(/[\s.,;:!?]+$/u, '');
}

interface Parts {
  topic: string;
  subject: string;
  /** Items over the relevance threshold, best first (at most four). */
  matches: CatalogueItem[];
  /** The draft's tags, all on the topic. */
  tags: string[];
}

/** A drafting template with its `{topic}` and `{subject}` filled in one pass (so the user's text is never read as one). */
function fill(template: string, values: { topic?: string; subject?: string }): string {
  return template.replace(/\{(topic|subject)\}/g, (whole, key: 'topic' | 'subject') => values[key] ?? whole);
}

function relatedSection(parts: Parts): string[] {
  if (parts.matches.length === 0) {
    return ['## Related on this site', '', 'Nothing on this site covers this topic yet: this would be the first piece on it.'];
  }
  return [
    '## Related on this site',
    '',
    ...parts.matches.map((m) => `- [${escapeMarkdown(m.title)}](${itemPath(m.type, m.slug)}): ${escapeMarkdown(clip(m.description, 160))}`),
  ];
}

const POINTS: ((angle: string, topic: string) => string)[] = [
  (a, t) => `what ${a} means for ${t}, with one example from your own business.`,
  (a) => `the first change to make for ${a}, and the number that shows it worked.`,
  (a, t) => `the most common mistake with ${a} in ${t}, and how to avoid it.`,
  (a) => `what to keep doing for ${a} once the first results are in.`,
];

/** One point per tag (all on the topic), each a question the writer answers; no other item's text. */
function keyPoints(parts: Parts): string[] {
  const topic = escapeMarkdown(parts.topic);
  return parts.tags.slice(0, POINTS.length).map((tag, i) => {
    const angle = escapeMarkdown(tag);
    return `- **${angle}**: ${POINTS[i]!(angle, topic)}`;
  });
}

/** The body of each outline a type can choose (its definition's `drafting.outline`). */
const OUTLINES: { [O in DraftOutline]: (parts: Parts) => string[] } = {
  guide: (p) => {
    const topic = escapeMarkdown(p.topic);
    return [
      `## Why ${topic} matters`,
      '',
      `Explain the problem ${topic} solves for a small business, with one concrete example and one figure to watch.`,
      '',
      '## Key points',
      '',
      ...keyPoints(p),
      '',
      '## Step by step',
      '',
      `1. Take stock: where things stand today with ${topic}.`,
      '2. Pick one goal and the number that will show progress.',
      '3. Make the first change, and keep notes of what it took.',
      '4. Measure after two to four weeks, then keep, adjust or drop it.',
      '',
      '## Mistakes to avoid',
      '',
      '- Changing everything at once, so no result can be traced to its cause.',
      '- Copying a large company’s playbook without its budget.',
      '',
      ...relatedSection(p),
      '',
      '## Next steps',
      '',
      `Close with the single action a reader can take today on ${topic}.`,
    ];
  },
  toolkit: (p) => {
    const topic = escapeMarkdown(p.topic);
    return [
      `## What it does for ${topic}`,
      '',
      `Describe the job this tool does for ${topic}, and the time or money it saves.`,
      '',
      '## Features',
      '',
      ...keyPoints(p),
      '',
      '## How to use it',
      '',
      '1. Download the file or open the online version.',
      '2. Fill in your own details where marked.',
      `3. Review the results against your goals for ${topic}.`,
      '',
      ...relatedSection(p),
    ];
  },
  curriculum: (p) => {
    const topic = escapeMarkdown(p.topic);
    const modules = p.tags.slice(0, 3);
    return [
      '## What you will learn',
      '',
      `By the end of this course you can plan, run and measure ${topic} in your own business.`,
      '',
      '## Modules',
      '',
      `### Module 1: Foundations of ${topic}`,
      '',
      '- Lesson 1: The key ideas and terms',
      '- Lesson 2: Auditing where you are today',
      '',
      ...modules.flatMap((m, i) => [
        `### Module ${i + 2}: ${escapeMarkdown(m)}`,
        '',
        `- Lesson 1: ${escapeMarkdown(m)} in practice`,
        '- Lesson 2: A worked example, with a checklist',
        '',
      ]),
      `### Module ${modules.length + 2}: Measuring results`,
      '',
      '- Lesson 1: The numbers that matter',
      '- Lesson 2: Your 90-day plan',
      '',
      '## Who it is for',
      '',
      'Owners and small teams who want results without hiring a specialist first.',
      '',
      ...relatedSection(p),
    ];
  },
  pack: (p) => {
    const topic = escapeMarkdown(p.topic);
    return [
      `## What is included for ${topic}`,
      '',
      ...keyPoints(p),
      '',
      '## Who it is for',
      '',
      `Small businesses that want a head start on ${topic} without starting from a blank page.`,
      '',
      '## How to use it',
      '',
      '1. Download the pack and open the quick-start sheet.',
      '2. Copy the template that fits, and replace the sample text with your own.',
      '3. Use the checklist before you publish.',
      '',
      ...relatedSection(p),
    ];
  },
  agenda: (p) => {
    const topic = escapeMarkdown(p.topic);
    return [
      `## What we will cover on ${topic}`,
      '',
      ...keyPoints(p),
      '',
      '## Agenda',
      '',
      `1. Where ${topic} stands today, and what has changed this year (10 minutes).`,
      '2. A worked example, step by step (20 minutes).',
      '3. Your questions, answered live (20 minutes).',
      '',
      '## Who should join',
      '',
      `Owners and small teams who want to act on ${topic} this quarter. No preparation needed.`,
      '',
      ...relatedSection(p),
    ];
  },
};

/** An offline draft for a request: pure, so it can be checked for any prompt. */
export function writeOfflineDraft(request: DraftRequest, catalogue: readonly CatalogueItem[]): Draft {
  const hints = CONTENT_REGISTRY[request.type].drafting;
  const topic = clip(phrase(request.topic), 160) || 'your topic';
  const words = topicWords(topic);
  const matches = relatedItems(catalogue, words);
  const own = topicTags(matches, catalogue, words, Math.min(6, MAX_DRAFT_TAGS));
  // A topic without a word to tag (punctuation, one letter) still gets a tag the create form accepts.
  const tags = own.length > 0 ? own : [hints.fallbackTag];
  // The subject in a title: the topic as typed (capitalised), cut to leave room for the type's words.
  const subject = titleCase(clip(topic, 120));
  const parts: Parts = { topic, subject, matches: matches.slice(0, 4).map((m) => m.item), tags };
  const draft = checkDraft({
    title: fill(hints.title, { subject }),
    description: `Offline draft: ${fill(hints.description, { topic: clip(topic, 200) })}`,
    body: [OFFLINE_NOTE, '', ...OUTLINES[hints.outline](parts)].join('\n'),
    tags,
  });
  // Unreachable for any topic (the tests try many); a clear error rather than a 500 if it ever is.
  if (!draft) throw new AppError('unavailable', 'The offline drafter could not write a draft for this prompt.');
  return draft;
}

export function createOfflineDrafter({ catalogue }: OfflineDrafterOptions): Drafter {
  return {
    kind: 'offline',
    async draft(request) {
      return writeOfflineDraft(request, await catalogue());
    },
  };
}

/** The catalogue from the content service: every type's items. */
export function catalogueFrom(content: { list(type: ContentType): Promise<readonly CatalogueItem[]> }) {
  return async () => (await Promise.all(CONTENT_TYPES.map((type) => content.list(type)))).flat();
}
