/**
 * Site search's server part (issue 36): the gated text only (article bodies and lessons, threads of
 * categories visitors may not read, the newsletter archive's whole issues), cut at the caller's
 * level by each domain with the one access rule. This service parses the query once, asks each
 * source for its best hits and its count beyond the level, merges them by rank, and asks only the
 * returned hits' sources for their highlighted fragments. It holds no SQL on another domain's
 * tables: each source searches its own.
 */
import { isStaff } from '#shared/access.ts';
import { beyondOf, SEARCH_BEYOND_MAX, type SearchAnswer, type SearchType, type SourceMatches } from '#shared/search.ts';
import type { ContentSearch } from '../content/index.ts';
import type { CommunitySearch } from '../community/index.ts';
import type { Db } from '../platform/db/client.ts';
import type { Viewer } from '../users/index.ts';
import type { SearchQuery } from './schema.ts';
import { markSnippet } from './snippet.ts';
import { createSearchStore } from './store.ts';

/** One source: its best hits for a caller, and the highlighted fragments of the hits an answer returns. */
interface Source {
  search: (viewer: Viewer | null, query: string, limit: number) => Promise<SourceMatches>;
  headlines: (keys: readonly string[], query: string) => Promise<Map<string, string>>;
}

export interface SearchDeps {
  db: Db;
  content: ContentSearch;
  community: CommunitySearch;
  /** The newsletter archive's search (newsletter/archive/service.ts). */
  newsletter: Source;
  /** The slugs of the sold courses a member bought (payments': a purchase opens a sold course whatever the level). */
  ownedCourses: (viewer: Viewer) => Promise<string[]>;
}

/** Which sources answer a `type`: every kind the static index alone holds (services, tools…) has none here. */
const SOURCES: Record<'blog' | 'course' | 'community' | 'newsletter', readonly SearchType[]> = {
  blog: ['blog'],
  course: ['course'],
  community: ['community'],
  newsletter: ['newsletter'],
};
const wanted = (type: SearchType | undefined, source: keyof typeof SOURCES) => type === undefined || SOURCES[source].includes(type);

export function createSearchService({ db, content, community, newsletter, ownedCourses }: SearchDeps) {
  const store = createSearchStore(db);

  /** The sources a search asks: the content's (with drafts for staff who asked), the community's and the archive's. */
  function sourcesFor({ type, drafts }: SearchQuery): Source[] {
    const types = (['blog', 'course'] as const).filter((t) => wanted(type, t));
    const sources: Source[] = [];
    if (types.length)
      sources.push({
        search: async (viewer, query, limit) => {
          const owned = viewer && !isStaff(viewer.role) ? await ownedCourses(viewer) : [];
          return content.search({ viewer, owned, drafts: drafts === '1' }, query, types, limit);
        },
        headlines: content.headlines,
      });
    // Drafts are the content's: the community and the archive answer as they do for anyone.
    if (wanted(type, 'community')) sources.push({ search: community.search, headlines: community.headlines });
    if (wanted(type, 'newsletter')) sources.push(newsletter);
    return sources;
  }

  return {
    /** What the caller may read that matches, best first, and how many matches lie beyond their level. */
    async search(viewer: Viewer | null, input: SearchQuery): Promise<SearchAnswer> {
      // A visitor opens no gated text, and a count of what lies beyond would let anyone test whether
      // a word is in a gated body: the visitor's search is the public index's alone.
      if (!viewer) return { results: [] };
      const sources = sourcesFor(input);
      if (sources.length === 0) return { results: [] };
      const query = await store.tsquery(input.q);
      if (query === '') return { results: [] };
      const found = await Promise.all(sources.map((source) => source.search(viewer, query, input.limit)));
      const ranked = found
        .flatMap((matches, i) => matches.hits.map((hit) => ({ hit, source: sources[i]! })))
        .sort((a, b) => b.hit.rank - a.hit.rank)
        .slice(0, input.limit);
      const headlines = await Promise.all(
        sources.map((source) => {
          const keys = ranked.filter((r) => r.source === source).map((r) => r.hit.key);
          return keys.length ? source.headlines(keys, query) : new Map<string, string>();
        }),
      );
      const results = ranked.map(({ hit: { key, rank: _rank, ...result }, source }) => ({
        ...result,
        snippet: markSnippet(headlines[sources.indexOf(source)]!.get(key) ?? ''),
      }));
      const beyond = beyondOf(found.flatMap((matches) => (matches.beyond ? [matches.beyond] : [])));
      return beyond ? { results, beyondLevel: { ...beyond, count: Math.min(beyond.count, SEARCH_BEYOND_MAX) } } : { results };
    },
  };
}

export type SearchService = ReturnType<typeof createSearchService>;
