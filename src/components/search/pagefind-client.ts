/**
 * The public half of the site search, in the browser: Pagefind's own script from the index's folder
 * (/pagefind/pagefind.js, served as a file, never bundled), on the page's thread (no worker: one
 * script less to load), loaded on the first search. A query loads only the index chunks its words
 * need and the fragments of the results shown.
 */
import { SEARCH_INDEX_PATH, isSearchType, type SearchResult, type SearchType } from '#shared/search.ts';

/** How many of Pagefind's results are read at a time (each is one small fragment file). */
export const PUBLIC_PAGE = 10;

interface PagefindData {
  url: string;
  excerpt: string;
  meta: { title?: string; type?: string };
}
interface Pagefind {
  options(options: Record<string, unknown>): Promise<void>;
  init(): Promise<void>;
  search(term: string, options?: { filters?: Record<string, string> }): Promise<{ results: { data(): Promise<PagefindData> }[] } | null>;
}

let loading: Promise<Pagefind> | undefined;

function load(): Promise<Pagefind> {
  loading ??= (async () => {
    const url = `${SEARCH_INDEX_PATH}pagefind.js`;
    const pagefind = (await import(/* @vite-ignore */ url)) as Pagefind;
    // One entry address for everyone (Pagefind adds a fresh `?ts=` otherwise), so a CDN keeps it within its bound.
    await pagefind.options({ noWorker: true, excerptLength: 24, metaCacheTag: 'site' });
    await pagefind.init();
    return pagefind;
  })();
  // A failed load (offline, a new deploy's files) is tried afresh next time.
  loading.catch(() => (loading = undefined));
  return loading;
}

/** The slug of a result's address: its last path segment, without a fragment. */
const slugOf = (url: string) => url.split('#')[0]!.split('/').filter(Boolean).at(-1) ?? '';

/** Pagefind's results for one query: how many, and their data read a page at a time. */
export interface PublicHits {
  total: number;
  load(from: number): Promise<SearchResult[]>;
}

/** Public results for `q`, best first, of one kind when `type` is given. */
export async function searchPublic(q: string, type: SearchType | undefined): Promise<PublicHits> {
  const pagefind = await load();
  const results = (await pagefind.search(q, type ? { filters: { type } } : {}))?.results ?? [];
  return {
    total: results.length,
    async load(from) {
      const data = await Promise.all(results.slice(from, from + PUBLIC_PAGE).map((r) => r.data()));
      return data.flatMap((d): SearchResult[] => {
        const kind = d.meta.type;
        if (!isSearchType(kind)) return [];
        return [{ type: kind, slug: slugOf(d.url), title: d.meta.title ?? d.url, url: d.url, snippet: d.excerpt }];
      });
    },
  };
}
