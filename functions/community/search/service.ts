/**
 * The community's part of site search (issue 36): threads in the categories a member may read, by the
 * one access rule (the public ones too: the site's static index holds only the first page of posts of
 * the most active public threads); matches in categories above the member's level are only counted.
 * One hit per thread, linking its page.
 */
import { checkAccess, type Viewer } from '#shared/access.ts';
import { beyondOf, type SourceMatches } from '#shared/search.ts';
import type { DbOrTx } from '../../platform/db/client.ts';
import { createCommunityStore } from '../store.ts';
import { createCommunitySearchStore } from './store.ts';

export function createCommunitySearch({ db }: { db: DbOrTx }) {
  const store = createCommunitySearchStore(db);
  return {
    /** The best `limit` threads the viewer may read, and the count of those beyond their level. */
    async search(viewer: Viewer, query: string, limit: number): Promise<SourceMatches> {
      // Every category the member reads, the public ones too: the static index holds only the first page
      // of posts of the most active public threads, so later replies and older threads are found here.
      const categories = await createCommunityStore(db).categoryRows();
      const open = categories.filter((c) => checkAccess(viewer, c.accessLevel).allowed).map((c) => c.id);
      const closed = categories.filter((c) => !c.anyoneReads && !checkAccess(viewer, c.accessLevel).allowed).map((c) => c.id);
      const [rows, counts] = await Promise.all([store.ranked(query, open, limit), store.counted(query, closed)]);
      return {
        hits: rows.map((r) => ({
          key: r.postId,
          type: 'community' as const,
          slug: r.threadId,
          title: r.title,
          url: `/community/threads/${r.threadId}`,
          rank: r.rank,
        })),
        beyond: beyondOf(counts),
      };
    },

    /** The highlighted fragment of each hit's post, by key (the post's id). */
    async headlines(keys: readonly string[], query: string): Promise<Map<string, string>> {
      return new Map((await store.headlines(keys, query)).map((r) => [r.id, r.headline]));
    },
  };
}

export type CommunitySearch = ReturnType<typeof createCommunitySearch>;
