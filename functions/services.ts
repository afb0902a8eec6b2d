/**
 * Opens the database and builds the services every entry point shares (the Node server, the dev
 * server integration, tests): content sources and cache, the email outbox, abuse limits, signed
 * links, newsletter, contact, leads and downloads.
 */
import { createRateLimiter } from './abuse/rate-limit.ts';
import type { Config } from './config.ts';
import { createContact } from './contact/service.ts';
import { createPublicContentCache } from './content/cache.ts';
import { createMdxSource } from './content/mdx-source.ts';
import { createContentService } from './content/service.ts';
import { CONTENT_CHANNEL } from './content/store.ts';
import { openDatabase, type Database } from './db/client.ts';
import { createOutbox } from './email/service.ts';
import { createDownloads } from './files/service.ts';
import { createLeads } from './leads/service.ts';
import type { Logger } from './lib/logger.ts';
import { loadSigningSecret } from './lib/secrets.ts';
import { createTokens } from './lib/tokens.ts';
import { createNewsletter } from './newsletter/service.ts';

/**
 * Builds the services. With `database`, uses that (already migrated) database and leaves closing it
 * to the caller; otherwise opens the configured one.
 */
export async function createServices(config: Config, logger: Logger, database?: Database) {
  // Content first: a broken file fails fast, before the database is opened.
  const mdx = await createMdxSource(config.contentDir);
  const db = database ?? (await openDatabase(config.database, logger));
  try {
    const content = createContentService({ db: db.db, mdx, logger });
    const contentCache = createPublicContentCache(content);
    const clear = () => contentCache.clear();
    const unlisten = await db.listen(CONTENT_CHANNEL, clear, clear);

    const { siteUrl } = config;
    const tokens = createTokens(await loadSigningSecret(db.db, config.secretKey));
    const outbox = createOutbox({ db: db.db, from: config.email.from, siteUrl, maxAttempts: config.email.maxAttempts, logger });
    const limiter = createRateLimiter(db.db);
    const downloads = createDownloads({ tokens, filesDir: config.filesDir, siteUrl });
    const newsletter = createNewsletter({ db: db.db, outbox, tokens, siteUrl, logger });
    const contact = createContact({ db: db.db, outbox, inbox: config.email.contactInbox });
    const leads = createLeads({ db: db.db, content, outbox, downloads, siteUrl });

    return {
      database: db,
      mdx,
      content,
      contentCache,
      tokens,
      outbox,
      limiter,
      downloads,
      newsletter,
      contact,
      leads,
      /** Stops listening and closes the database (when this call opened it). */
      async close() {
        await unlisten().catch(() => undefined);
        if (!database) await db.close();
      },
    };
  } catch (err) {
    if (!database) await db.close().catch(() => undefined);
    throw err;
  }
}

export type Services = Awaited<ReturnType<typeof createServices>>;
