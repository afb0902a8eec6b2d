/**
 * How the offline drafter tells which of the site's items are about a topic. Sharing one word is
 * not enough ('first', 'business' or 'customer' in a description would pull in any product blurb),
 * so an item counts as related only above a threshold: it must name at least half of the subject's
 * telling words (at most three) in its title or in a tag the topic spells out in full. The subject
 * is what comes before 'for' ("chatbots for a dental clinic": chatbots; the audience after it
 * still gives tags). Descriptions only rank items that already count. Below the threshold the
 * draft is an outline from the topic alone.
 */
import type { ContentType } from '#shared/content/registry.ts';

/** The public facts of an item the offline writer may quote. */
export interface CatalogueItem {
  type: ContentType;
  slug: string;
  title: string;
  description: string;
  tags: readonly string[];
}

const STOP_WORDS = new Set(
  (
    'a an and are as at be but by for from how i in into is it its of on or our that the their this to we what when where which who why ' +
    'will with you your about can do does using use vs versus more most than then them they these those my me so not no yes all any ' +
    'guide generate write article post blog course tool market item make create'
  ).split(' '),
);

/**
 * Words too common on this site to tell topics apart: every page of a growth consultancy is about
 * small businesses, growth and marketing. They still complete a tag ('Small Business', 'Email
 * Marketing') but never make an item related on their own.
 */
const GENERIC_WORDS = new Set(
  (
    'business businesses small growth grow growing marketing first new best top tips ideas ways get getting start starting ' +
    'step steps simple easy quick complete ultimate beginner beginners practical basics introduction plan plans planning'
  ).split(' '),
);

/** Lower-case words of a text (letters and digits of any script), without stop words. */
export function words(text: string): string[] {
  return (text.toLowerCase().match(/[\p{L}\p{N}]+(?:[-'’][\p{L}\p{N}]+)*/gu) ?? []).filter((w) => w.length > 1 && !STOP_WORDS.has(w));
}

/**
 * Whether two words are one for our purpose: equal, a plural or short ending of the other
 * (invoice/invoices, chatbot/chatbots), or sharing all but their endings (automate/automation).
 * Short words (SEO, AI) must be equal.
 */
export function sameWord(a: string, b: string): boolean {
  if (a === b) return true;
  const [short, long] = a.length <= b.length ? [a, b] : [b, a];
  if (short.length < 4) return false;
  if (long.startsWith(short)) return long.length - short.length <= 3;
  let common = 0;
  while (common < short.length && short[common] === long[common]) common++;
  return short.length >= 6 && common >= short.length - 2 && common >= long.length - 3;
}

const hasWord = (list: readonly string[], word: string) => list.some((w) => sameWord(w, word));

/**
 * A topic's words: all of them (they complete tags), the telling ones (the generic ones only when
 * nothing else is left: they become the draft's own tags), and the subject's telling ones, which
 * decide what is related (the whole topic's when it has no 'for', or nothing telling before it).
 */
export interface TopicWords {
  all: string[];
  telling: string[];
  subject: string[];
}

const tellingOf = (list: string[]) => {
  const telling = list.filter((w) => !GENERIC_WORDS.has(w));
  return telling.length > 0 ? telling : list;
};

export function topicWords(topic: string): TopicWords {
  const all = [...new Set(words(topic))];
  const telling = tellingOf(all);
  const before = /^(.*?)\bfor\b/isu.exec(topic)?.[1] ?? '';
  const subject = words(before).filter((w) => !GENERIC_WORDS.has(w));
  return { all, telling, subject: subject.length > 0 ? [...new Set(subject)] : telling };
}

/** A tag the topic spells out in full: every word of the tag is one of the topic's. */
export function tagOnTopic(tag: string, topic: TopicWords): boolean {
  const tagWords = words(tag);
  return tagWords.length > 0 && tagWords.every((w) => hasWord(topic.all, w));
}

/** Whether a text names one of the topic's words (tags and headings are checked with it). */
export function namesTopic(text: string, topic: TopicWords): boolean {
  return words(text).some((w) => hasWord(topic.all, w));
}

/** An item over the threshold: its score (for order) and the tags of it the topic spells out. */
export interface Match {
  item: CatalogueItem;
  score: number;
  tags: string[];
}

/** Subject words an item must name (title or a tag on the topic): half of them, at least one, at most three. */
export const neededWords = (topic: TopicWords) => Math.max(1, Math.min(3, Math.ceil(topic.subject.length / 2)));

/** The items about the topic, best first: only those over the threshold (see the top of the file). */
export function relatedItems(catalogue: readonly CatalogueItem[], topic: TopicWords): Match[] {
  if (topic.subject.length === 0) return [];
  const needed = neededWords(topic);
  const matches: Match[] = [];
  for (const item of catalogue) {
    const tags = item.tags.filter((t) => tagOnTopic(t, topic));
    const strong = [...words(item.title), ...tags.flatMap(words)];
    const named = topic.subject.filter((w) => hasWord(strong, w)).length;
    if (named < needed) continue;
    const described = topic.telling.filter((w) => hasWord(words(item.description), w)).length;
    matches.push({ item, score: 3 * tags.length + 2 * named + described, tags });
  }
  return matches.sort((a, b) => b.score - a.score || a.item.title.localeCompare(b.item.title));
}

/** A word with its first letter upper-cased (other letters kept: SEO stays SEO). */
export const capitalise = (w: string) => w.charAt(0).toLocaleUpperCase('en') + w.slice(1);

/**
 * A draft's tags, all on the topic: the site's tags the topic spells out (those of related items
 * first, by their score), then the topic's telling words no such tag already covers. At most `max`.
 */
export function topicTags(matches: readonly Match[], catalogue: readonly CatalogueItem[], topic: TopicWords, max: number): string[] {
  const weight = new Map<string, { tag: string; weight: number }>();
  for (const { tags, score } of matches) {
    for (const tag of tags) {
      const entry = weight.get(tag.toLowerCase()) ?? { tag, weight: 0 };
      entry.weight += score;
      weight.set(tag.toLowerCase(), entry);
    }
  }
  for (const tag of catalogue.flatMap((item) => item.tags)) {
    if (!weight.has(tag.toLowerCase()) && tagOnTopic(tag, topic)) weight.set(tag.toLowerCase(), { tag, weight: 0 });
  }
  const siteTags = [...weight.values()].sort((a, b) => b.weight - a.weight).map((e) => e.tag);
  const covered = siteTags.flatMap(words);
  const own = topic.telling.filter((w) => w.length <= 40 && !hasWord(covered, w)).map(capitalise);
  const tags = new Map<string, string>();
  for (const tag of [...siteTags, ...own]) if (!tags.has(tag.toLowerCase())) tags.set(tag.toLowerCase(), tag);
  return [...tags.values()].slice(0, max);
}
