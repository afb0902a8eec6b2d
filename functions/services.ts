/**
 * Opens the database and builds the services every entry point shares (the Node server, the dev
 * server integration): content sources, the content service and its public answer cache, which
 * listens for other instances' writes.
 */
import type { Config } from './config.ts';
import { createPublicContentCache } from './content/cache.ts';
import { createMdxSource } from './content/mdx-source.ts';
import { createContentService } from './content/service.ts';
import { CONTENT_CHANNEL } from './content/store.ts';
import { openDatabase } from './db/client.ts';
import type { Logger } from './lib/logger.ts';

export async function createServices(config: Config, logger: Logger) {
  // Content first: a broken file fails fast, before the database is opened.
  const mdx = await createMdxSource(config.contentDir);
  const database = await openDatabase(config.database, logger);
  try {
    const content = createContentService({ db: database.db, mdx, logger });
    const contentCache = createPublicContentCache(content);
    const clear = () => contentCache.clear();
    const unlisten = await database.listen(CONTENT_CHANNEL, clear, clear);
    return {
      database,
      mdx,
      content,
      contentCache,
      /** Stops listening and closes the database. */
      async close() {
        await unlisten().catch(() => undefined);
        await database.close();
      },
    };
  } catch (err) {
    await database.close().catch(() => undefined);
    throw err;
  }
}

export type Services = Awaited<ReturnType<typeof createServices>>;
