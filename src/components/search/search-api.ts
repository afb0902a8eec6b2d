/**
 * The member's half of the site search: `GET /api/search` with their token (the typed client), which
 * answers gated text their level opens and counts what a higher one would. Visitors never call it
 * (their search costs the server nothing); a failed call leaves the public results standing.
 */
import type { SearchAnswer, SearchType } from '#shared/search.ts';
import { api, call, storedSession } from '../../lib/browser/api.ts';

/** The member's part: nothing to ask (a visitor), the answer, or a failure (the page says so and offers a retry). */
export type MemberSearch = { status: 'none' } | { status: 'ok'; answer: SearchAnswer } | { status: 'failed' };

export async function searchMembers(q: string, type: SearchType | undefined, signal: AbortSignal): Promise<MemberSearch> {
  if (!storedSession()) return { status: 'none' };
  const query = { q, ...(type ? { type } : {}) };
  const result = await call((o) => api.search.index.$get({ query }, o), { signal });
  if (result.ok) return { status: 'ok', answer: result.data };
  // A session the server no longer takes is a visitor's search (the public results stand).
  return result.kind === 'signed-out' ? { status: 'none' } : { status: 'failed' };
}
