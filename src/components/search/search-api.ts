/**
 * The member's half of the site search: `GET /api/search` with their token (the typed client), which
 * answers gated text their level opens and counts what a higher one would. Visitors never call it
 * (their search costs the server nothing); a failed call leaves the public results standing.
 */
import type { SearchAnswer, SearchType } from '#shared/search.ts';
import { api, call, storedSession, withQuery } from '../../lib/browser/api.ts';

export async function searchMembers(q: string, type: SearchType | undefined, signal: AbortSignal): Promise<SearchAnswer | undefined> {
  if (!storedSession()) return undefined;
  const query = { q, ...(type ? { type } : {}) };
  const result = await call((o) => api.search.index.$get(withQuery(query), o), { signal });
  return result.ok ? result.data : undefined;
}
