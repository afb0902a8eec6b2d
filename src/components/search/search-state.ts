/**
 * The site search's query and its answer (SiteSearch.tsx): the query as the server takes it, the
 * address that names it (`/search?q=…&type=…`), and one search run across the public index in the
 * browser (pagefind-client.ts) and the member's gated results (search-api.ts). Browser only.
 */
import { SEARCH_QUERY_MAX, isSearchType, type SearchAnswer, type SearchResult, type SearchType } from '#shared/search.ts';
import { searchPublic, type PublicHits } from './pagefind-client.ts';
import { searchMembers } from './search-api.ts';

export interface Asked {
  q: string;
  type: SearchType | undefined;
  /** Asking the same again runs again (Try Again). */
  n: number;
}

export interface Ready {
  status: 'ready';
  hits: PublicHits;
  /** The public results read so far, and the member's. */
  shown: SearchResult[];
  members: SearchResult[];
  beyond: SearchAnswer['beyondLevel'];
  /** The member's part could not be read (the public results stand). */
  membersFailed: boolean;
  more: 'idle' | 'loading' | 'error';
}

export type State = { status: 'idle' } | { status: 'loading' } | { status: 'error' } | Ready;

/** A query as the server takes it: no control characters, cut to the longest, never inside a surrogate pair (half of one is refused). */
export function cut(q: string): string {
  // A pasted tab or line break is a space (the server refuses control characters).
  const text = q
    .replace(/[\u0000-\u001f\u007f-\u009f]+/g, ' ')
    .trim()
    .slice(0, SEARCH_QUERY_MAX);
  return /[\ud800-\udbff]$/.test(text) ? text.slice(0, -1) : text;
}

/** The query and kind the address names. */
export function fromAddress(): Asked {
  const params = new URLSearchParams(window.location.search);
  const type = params.get('type');
  return { q: cut(params.get('q') ?? ''), type: isSearchType(type) ? type : undefined, n: 0 };
}

/** The address names the query and kind (a new entry in the history when they changed: `push`). */
export function keepInAddress({ q, type }: Asked, push: boolean) {
  const url = new URL(window.location.href);
  url.search = '';
  if (q) url.searchParams.set('q', q);
  if (type) url.searchParams.set('type', type);
  const next = `${url.pathname}${url.search}`;
  if (next === `${window.location.pathname}${window.location.search}`) return;
  if (push) history.pushState(null, '', next);
  else history.replaceState(null, '', next);
}

/** Runs a query: the public index's first page and the member's results (at their level) together. */
export async function runSearch({ q, type }: Asked, signal: AbortSignal): Promise<State> {
  const [hits, members] = await Promise.all([searchPublic(q, type), searchMembers(q, type, signal)]);
  const shown = await hits.load(0);
  const answer = members.status === 'ok' ? members.answer : undefined;
  return {
    status: 'ready',
    hits,
    shown,
    members: answer?.results ?? [],
    beyond: answer?.beyondLevel,
    membersFailed: members.status === 'failed',
    more: 'idle',
  };
}
