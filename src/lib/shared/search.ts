/**
 * Site search (issue 36): the kinds of result, the answer's shape and its limits, shared by the
 * server's search (`GET /api/search`), the public index's records and the /search page. Public text
 * is searched in the browser from the static index (Pagefind); gated text on the server, cut at the
 * reader's level. Plain data and types only, so islands bundle nothing from here but these.
 */
import type { AccessLevel } from './access.ts';

/** The kinds of result, in the order the page lists its groups when they rank alike. */
export const SEARCH_TYPES = ['service', 'faq', 'blog', 'tool', 'course', 'market', 'event', 'newsletter', 'community'] as const;
export type SearchType = (typeof SEARCH_TYPES)[number];

/** Group headings on /search and the type filter's names. */
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

/** The longest query either part of the search takes, in characters. */
export const SEARCH_QUERY_MAX = 200;

/**
 * One result. `snippet` is HTML-escaped text whose only tags are `<mark>` and `</mark>` around the
 * matched words (Pagefind's excerpts have the same form); the page splits it on those tags and writes
 * text, never HTML.
 */
export interface SearchResult {
  type: SearchType;
  slug: string;
  title: string;
  url: string;
  snippet: string;
  /** Staff searching drafts: an item visitors do not see. */
  status?: 'unpublished';
}

/** The server's answer: what the caller may read, and how much more a higher level opens. */
export interface SearchAnswer {
  results: SearchResult[];
  beyondLevel?: { count: number; level: AccessLevel };
}

/** Where the static index lives on the site (the browser imports `pagefind.js` from here). */
export const SEARCH_INDEX_PATH = '/pagefind/';

/** The text of a snippet as runs, each marked or not: `<mark>` splits, the five HTML entities are read back. */
export function snippetRuns(snippet: string): { text: string; marked: boolean }[] {
  const unescape = (s: string) =>
    s.replace(/&(amp|lt|gt|quot|#39|#x27);/g, (_, e: string) => ({ amp: '&', lt: '<', gt: '>', quot: '"', '#39': "'", '#x27': "'" })[e]!);
  return snippet
    .split(/(<mark>[\s\S]*?<\/mark>)/)
    .filter(Boolean)
    .map((part) =>
      part.startsWith('<mark>') && part.endsWith('</mark>')
        ? { text: unescape(part.slice(6, -7)), marked: true }
        : { text: unescape(part.replace(/<\/?mark>/g, '')), marked: false },
    );
}
