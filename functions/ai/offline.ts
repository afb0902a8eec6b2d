/**
 * The offline adapter of the drafter port, used when no OPENAI_API_KEY is configured: it writes a
 * structured, topic-specific draft from the prompt and the site's own content (the items whose
 * titles, tags and descriptions share the most words with the topic), with no network call. The
 * draft says at its top, and in its description, that it is an offline draft to be rewritten.
 */
import { CONTENT_TYPES, itemPath, type ContentType } from '../../src/lib/content/registry.ts';
import { AppError } from '../errors.ts';
import { checkDraft, MAX_DRAFT_TAGS, type Draft, type Drafter, type DraftRequest } from './draft.ts';

/** The public facts of an item the offline writer may quote. */
export interface CatalogueItem {
  type: ContentType;
  slug: string;
  title: string;
  description: string;
  tags: readonly string[];
}

export interface OfflineDrafterOptions {
  /** The site's items (public fields only are read). */
  catalogue: () => Promise<readonly CatalogueItem[]>;
}

export const OFFLINE_NOTE =
  '> **Offline draft.** No AI service is configured on this site (OPENAI_API_KEY is not set), so this outline was written ' +
  'from your prompt and the site’s own content. Review and rewrite it before publishing.';

const STOP_WORDS = new Set(
  (
    'a an and are as at be but by for from how i in into is it its of on or our that the their this to we what when where which who why ' +
    'will with you your about can do does using use vs versus more most than then them they these those my me so not no yes all any ' +
    'guide generate write article post blog course tool market item make create'
  ).split(' '),
);

/** Lower-case words of a text (letters and digits of any script), without stop words. */
function words(text: string): string[] {
  return (text.toLowerCase().match(/[\p{L}\p{N}]+(?:[-'’][\p{L}\p{N}]+)*/gu) ?? []).filter((w) => w.length > 1 && !STOP_WORDS.has(w));
}

/** A word with its first letter upper-cased (other letters kept: SEO stays SEO). */
const capitalise = (w: string) => w.charAt(0).toLocaleUpperCase('en') + w.slice(1);
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

interface Scored {
  item: CatalogueItem;
  score: number;
}

/** The items sharing the most topic words (tags count double, then titles), best first. */
function related(catalogue: readonly CatalogueItem[], topicWords: string[]): Scored[] {
  const wanted = new Set(topicWords);
  if (wanted.size === 0) return [];
  return catalogue
    .map((item) => {
      const tagWords = new Set(item.tags.flatMap(words));
      const titleWords = new Set(words(item.title));
      const descriptionWords = new Set(words(item.description));
      let score = 0;
      for (const w of wanted) score += (tagWords.has(w) ? 3 : 0) + (titleWords.has(w) ? 2 : 0) + (descriptionWords.has(w) ? 1 : 0);
      return { item, score };
    })
    .filter((s) => s.score > 0)
    .sort((a, b) => b.score - a.score || a.item.title.localeCompare(b.item.title));
}

/** Tags: the related items' most shared tags, then the topic's own words. */
function pickTags(matches: Scored[], topicWords: string[], type: ContentType): string[] {
  const counts = new Map<string, { tag: string; weight: number }>();
  for (const { item, score } of matches.slice(0, 8)) {
    for (const tag of item.tags) {
      const key = tag.toLowerCase();
      const entry = counts.get(key) ?? { tag, weight: 0 };
      entry.weight += score;
      counts.set(key, entry);
    }
  }
  const fromSite = [...counts.values()].sort((a, b) => b.weight - a.weight).map((e) => e.tag);
  const fromTopic = topicWords.filter((w) => w.length <= 40).map(capitalise);
  const tags = new Map<string, string>();
  for (const tag of [...fromSite.slice(0, 3), ...fromTopic, ...fromSite.slice(3)]) {
    if (!tags.has(tag.toLowerCase())) tags.set(tag.toLowerCase(), tag);
  }
  const list = [...tags.values()].slice(0, Math.min(6, MAX_DRAFT_TAGS));
  return list.length > 0 ? list : [type === 'market' ? 'Templates' : 'Small Business'];
}

interface Parts {
  topic: string;
  subject: string;
  keyWords: string[];
  matches: CatalogueItem[];
  tags: string[];
}

const TITLES: Record<ContentType, (subject: string) => string> = {
  blog: (s) => `${s}: A Practical Guide`,
  tool: (s) => `${s} Toolkit`,
  course: (s) => `${s}: From First Steps to Results`,
  market: (s) => `${s} Template Pack`,
};

const DESCRIPTIONS: Record<ContentType, (topic: string) => string> = {
  blog: (t) => `A practical look at ${t} for small businesses: why it matters, the steps that work and how to measure the results.`,
  tool: (t) => `A ready-to-use toolkit for ${t}: what it does, how to set it up and how to get the most from it.`,
  course: (t) => `A step-by-step course on ${t}, from the basics to measurable results, with practical lessons and exercises.`,
  market: (t) => `A ready-made resource pack for ${t}: templates and checklists you can adapt to your business in an afternoon.`,
};

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

/** Points drawn from the related items' tags and the topic's words, each with what the site says about it. */
function keyPoints(parts: Parts): string[] {
  const angles = [...new Set([...parts.tags, ...parts.keyWords.map(capitalise)])].slice(0, 4);
  const topic = escapeMarkdown(parts.topic);
  const used = new Set<CatalogueItem>();
  return angles.map((angle) => {
    const source = parts.matches.find((m) => !used.has(m) && m.tags.some((t) => t.toLowerCase() === angle.toLowerCase()));
    if (!source) return `- **${escapeMarkdown(angle)}**: how it shapes ${topic}, and the one change to make first.`;
    used.add(source);
    return `- **${escapeMarkdown(angle)}**: ${escapeMarkdown(clip(source.description, 180))} Apply it to ${topic}.`;
  });
}

const BODIES: Record<ContentType, (parts: Parts) => string[]> = {
  blog: (p) => {
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
  tool: (p) => {
    const topic = escapeMarkdown(p.topic);
    return [
      '## What it does',
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
  course: (p) => {
    const topic = escapeMarkdown(p.topic);
    const modules = [...new Set([...p.tags, ...p.keyWords.map(capitalise)])].slice(0, 3);
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
  market: (p) => {
    const topic = escapeMarkdown(p.topic);
    return [
      '## What is included',
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
};

/** An offline draft for a request: pure, so it can be checked for any prompt. */
export function writeOfflineDraft(request: DraftRequest, catalogue: readonly CatalogueItem[]): Draft {
  const topic = clip(phrase(request.topic), 160) || 'your topic';
  const keyWords = [...new Set(words(topic))];
  const matches = related(catalogue, keyWords);
  const tags = pickTags(matches, keyWords, request.type);
  // The subject in a title: the topic as typed (capitalised), cut to leave room for the type's words.
  const subject = titleCase(clip(topic, 120));
  const parts: Parts = { topic, subject, keyWords, matches: matches.slice(0, 4).map((m) => m.item), tags };
  const draft = checkDraft({
    title: TITLES[request.type](subject),
    description: `Offline draft: ${DESCRIPTIONS[request.type](clip(topic, 200))}`,
    body: [OFFLINE_NOTE, '', ...BODIES[request.type](parts)].join('\n'),
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
