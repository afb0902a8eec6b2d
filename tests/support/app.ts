/** The API app on a real database, mounted without a network port (`app.request()`). */
import path from 'node:path';
import { createApp } from '../../functions/app.ts';
import { createPublicContentCache } from '../../functions/content/cache.ts';
import { createMdxSource } from '../../functions/content/mdx-source.ts';
import { createContentService } from '../../functions/content/service.ts';
import { CONTENT_CHANNEL } from '../../functions/content/store.ts';
import { quietLogger } from './fixtures.ts';
import { openTestDatabase, type TestDatabaseKind } from './databases.ts';

export const CONTENT_DIR = path.resolve(import.meta.dirname, '../../content');

/** One server instance's worth of services on its own database (or on `shared` for a second instance). */
export async function createTestApp(kind: TestDatabaseKind, shared?: Awaited<ReturnType<typeof openTestDatabase>>) {
  const database = shared ?? (await openTestDatabase(kind));
  const logger = quietLogger();
  const mdx = await createMdxSource(CONTENT_DIR);
  const content = createContentService({ db: database.db, mdx, logger });
  const contentCache = createPublicContentCache(content);
  const clear = () => contentCache.clear();
  const unlisten = await database.listen(CONTENT_CHANNEL, clear, clear);
  const app = createApp({
    config: { siteUrl: 'http://localhost:3000', maxBodyBytes: 64 * 1024 },
    logger,
    database,
    contentCache,
  });
  return {
    app,
    content,
    contentCache,
    mdx,
    database,
    async close() {
      await unlisten();
      if (!shared) await database.close();
    },
  };
}

export type TestApp = Awaited<ReturnType<typeof createTestApp>>;
