/**
 * The search domain's front door. The public index (issue 36, item 2 and 4): the server's records
 * come from what visitors already read through the pages' readers (the public content cache, the
 * newsletter archive's public parts, the community's threads in categories anyone reads), so nothing
 * reaches the index that a visitor's page would not show.
 */
import type { PublicContentReader } from '#shared/content/reader.ts';
import type { NewsletterArchiveReader } from '#shared/newsletter.ts';
import type { CommunityPageReader } from '../community/index.ts';
import type { Logger } from '../platform/logger.ts';
import { buildIndexFiles } from './pagefind.ts';
import { createPublicIndex } from './public-index.ts';
import { htmlText, publicRecords, type ContentRecordCache, type PublicThread } from './public-records.ts';

export { createSearchIndexRoutes } from './index-routes.ts';
export { closePagefind } from './pagefind.ts';
export type { PublicIndex } from './public-index.ts';

/** At most this many community threads are indexed (the most recently active first). */
const MAX_THREADS = 2000;

export interface PublicSearchDeps {
  content: PublicContentReader;
  contentDir: string;
  newsletter: NewsletterArchiveReader;
  community: CommunityPageReader;
  cacheControl: string;
  stalenessSeconds: number;
  logger: Logger;
}

/** Threads a visitor may read: the title and the first page of visible posts, as text. */
async function publicThreads(community: CommunityPageReader): Promise<PublicThread[]> {
  const listed = (await community.publicThreads()).sort((a, b) => (a.lastPostAt < b.lastPostAt ? 1 : -1)).slice(0, MAX_THREADS);
  const threads: PublicThread[] = [];
  for (const { id } of listed) {
    const read = await community.thread(id);
    if (read.kind !== 'public') continue;
    const text = read.page.posts.filter((p) => p.status === 'visible' && p.html).map((p) => htmlText(p.html));
    threads.push({ id, title: read.page.thread.title, text: text.join(' ') });
  }
  return threads;
}

export function createPublicSearchIndex({
  content,
  contentDir,
  newsletter,
  community,
  cacheControl,
  stalenessSeconds,
  logger,
}: PublicSearchDeps) {
  const cache: ContentRecordCache = new Map();
  const index = createPublicIndex({
    records: () => publicRecords({ content, contentDir, newsletter, threads: () => publicThreads(community), cache }),
    // Sent issues never change: the newest one's address marks the archive.
    mark: async () => (await newsletter.latest(1))[0]?.slug ?? '',
    build: buildIndexFiles,
    cacheControl,
    stalenessMs: stalenessSeconds * 1000,
    logger,
  });
  return {
    ...index,
    /** Content changed: its records are made again (a body's public preview may have moved), and the index. */
    contentChanged(): void {
      cache.clear();
      index.changed();
    },
  };
}

export type PublicSearchIndex = ReturnType<typeof createPublicSearchIndex>;
