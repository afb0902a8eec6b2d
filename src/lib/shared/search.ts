/**
 * Site search's shared words (issue 36): the kinds a result may be, the answer's shape, the query's
 * limits and the snippet's markers. Plain data and types, read by the server's search
 * (`functions/search/`), the public index's records and the browser's `/search` page alike. Public
 * text is searched in the browser from the static index (Pagefind, whose excerpts have the snippet's
 * form); gated text on the server, cut at the reader's level.
 */
import { accessRank, type AccessLevel } from './access.ts';
import { unescapeHtml } from './html-entities.ts';

/** Every kind a search result may be, in the order the page groups them. */
export const SEARCH_TYPES = ['service', 'faq', 'blog', 'tool', 'course', 'market', 'event', 'newsletter', 'community'] as const;
export type SearchType = (typeof SEARCH_TYPES)[number];

/** Group headings on /search and the kind filter's names. */
export const SEARCH_TYPE_LABELS: Record<SearchType, string> = {
  service: 'Services',
  faq: 'FAQ',
  blog: 'Articles',
  tool: 'Tools',
  course: 'Courses',
  market: 'Market',
  event: 'Events',
  newsletter: 'Newsletter',
  community: 'Community',
};

/** Whether a string names a kind of result (a `type=` from an address). */
export const isSearchType = (value: string | null | undefined): value is SearchType =>
  typeof value === 'string' && (SEARCH_TYPES as readonly string[]).includes(value);

/** Where the public index lives on the site (the browser imports Pagefind's `pagefind.js` from here). */
export const SEARCH_INDEX_PATH = '/pagefind/';

/** One result. `snippet` is HTML-escaped text whose only tags are `<mark>` and `</mark>` (render it by splitting on them, never as HTML). */
export interface SearchResult {
  type: SearchType;
  slug: string;
  title: string;
  url: string;
  snippet: string;
  /** Staff's search with drafts only: an item no one else can read yet. */
  status?: 'unpublished';
}

/**
 * Matches the caller's level does not open: how many, and the lowest level that opens them all. The
 * count of articles and lessons stops at SEARCH_BEYOND_MAX (show "1,000+" from there).
 */
export interface BeyondLevel {
  count: number;
  level: AccessLevel;
}

/** `GET /api/search`: what the caller may read, best first, and what lies beyond their level (absent when nothing does). */
export interface SearchAnswer {
  results: SearchResult[];
  beyondLevel?: BeyondLevel;
}

/** Where the count of articles and lessons beyond a caller's level stops (a very common word). */
export const SEARCH_BEYOND_MAX = 1000;

/** The longest query, in characters (a longer one is refused, not cut). */
export const SEARCH_QUERY_MAX = 200;
/** Words of a query that count: the snippet highlighter's cost grows with the words asked for. */
export const SEARCH_WORDS_MAX = 8;
/** Results per answer by default, and at most (`limit`). */
export const SEARCH_LIMIT = 20;
export const SEARCH_LIMIT_MAX = 50;

/**
 * Private-use characters the database's highlighter puts around matched words (`ts_headline`'s
 * StartSel and StopSel). Indexed text has them removed, so every one in a headline is a marker; the
 * server escapes the headline and only then turns them into `<mark>` tags.
 */
export const SNIPPET_MARK_START = '\uE000';
export const SNIPPET_MARK_END = '\uE001';
/** How much of a text its snippet is cut from: the highlighter's cost grows with the square of what it reads. */
export const SNIPPET_SOURCE_CHARS = 2000;
/** `ts_headline`'s options: one fragment of 12 to 30 words, matches between the markers. */
export const HEADLINE_OPTIONS = `StartSel=${SNIPPET_MARK_START},StopSel=${SNIPPET_MARK_END},MaxWords=30,MinWords=12,MaxFragments=1`;

/** One source's match before the merge (the server's domains): a key the source finds its text by again, and its rank. */
export interface RankedHit {
  key: string;
  type: SearchType;
  slug: string;
  title: string;
  url: string;
  rank: number;
  status?: 'unpublished';
}

/** What one source found: the best hits the caller may read, and the count beyond their level. */
export interface SourceMatches {
  hits: RankedHit[];
  beyond: BeyondLevel | undefined;
}

/** Counts of matches per level beyond a caller's, as one `beyondLevel`: their sum and the highest (undefined when none). */
export function beyondOf(counts: readonly { level: AccessLevel; count: number }[]): BeyondLevel | undefined {
  let beyond: BeyondLevel | undefined;
  for (const { level, count } of counts) {
    if (count <= 0) continue;
    if (!beyond) beyond = { count: 0, level };
    beyond.count += count;
    if (accessRank(level) > accessRank(beyond.level)) beyond.level = level;
  }
  return beyond;
}

/** The snippet's highlight tags (the server turns its private-use markers into these, after escaping). */
export const MARK_OPEN = '<mark>';
export const MARK_CLOSE = '</mark>';

/** A snippet as text parts, each marked or not, with the escaping undone: what an island renders as text nodes. */
export function snippetParts(snippet: string): { text: string; marked: boolean }[] {
  const parts: { text: string; marked: boolean }[] = [];
  let marked = false;
  for (const piece of snippet.split(/(<mark>|<\/mark>)/)) {
    if (piece === MARK_OPEN) marked = true;
    else if (piece === MARK_CLOSE) marked = false;
    else if (piece) parts.push({ text: unescapeHtml(piece), marked });
  }
  return parts;
}
