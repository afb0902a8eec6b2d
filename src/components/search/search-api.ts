/**
 * The member's half of the site search: `GET /api/search` with their token, which answers gated text
 * their level opens and counts what a higher one would. Visitors never call it (their search costs
 * the server nothing); a failed call leaves the public results standing.
 */
import type { SearchAnswer, SearchType } from '#shared/search.ts';
import { gatedFetch, storedSession } from '../../lib/browser/api.ts';

export async function searchMembers(q: string, type: SearchType | undefined, signal: AbortSignal): Promise<SearchAnswer | undefined> {
  if (!storedSession()) return undefined;
  const query = new URLSearchParams({ q, ...(type ? { type } : {}) });
  const result = await gatedFetch<SearchAnswer>(`/api/search?${query}`, { signal });
  return result.ok ? result.data : undefined;
}
