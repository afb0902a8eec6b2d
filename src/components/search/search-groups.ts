/**
 * How the page shows one search: the public results (the static index) and the member's (the
 * server's gated text, cut at their level) as one list without repeats, then grouped by kind, the
 * groups in the order of their best result.
 */
import type { SearchResult, SearchType } from '#shared/search.ts';

export interface ResultGroup {
  type: SearchType;
  results: SearchResult[];
}

/** Public results first (in their order), then the server's for pages not already there (the same address: an article found by its title and by its body). */
export function mergeResults(publicResults: readonly SearchResult[], memberResults: readonly SearchResult[]): SearchResult[] {
  const seen = new Set<string>();
  const merged: SearchResult[] = [];
  for (const result of [...publicResults, ...memberResults]) {
    if (seen.has(result.url)) continue;
    seen.add(result.url);
    merged.push(result);
  }
  return merged;
}

/** Results by kind, each group where its best result stands (kinds' own order breaks no ties: ranks do). */
export function groupResults(results: readonly SearchResult[]): ResultGroup[] {
  const groups = new Map<SearchType, SearchResult[]>();
  for (const result of results) {
    const group = groups.get(result.type);
    if (group) group.push(result);
    else groups.set(result.type, [result]);
  }
  return [...groups]
    .map(([type, list]) => ({ type, results: list }))
    .sort((a, b) => results.indexOf(a.results[0]!) - results.indexOf(b.results[0]!));
}
