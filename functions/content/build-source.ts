/**
 * Content for the static build: MDX from content/ plus the database rows that exist at build time,
 * read once and held in memory. Lists use both (their <noscript> snapshot); detail pages are
 * prebuilt for MDX items only, since database items change at run time and must render live. The database part is skipped, with a note, when it cannot be read
 * (no data yet, a server holding the embedded database, or Postgres unreachable): those items still
 * reach visitors through the list islands and on-demand detail pages.
 * Loaded with a native import (never bundled by Vite), so server code stays out of the site bundle.
 */
import { existsSync, readFileSync } from 'node:fs';
import { CONTENT_TYPES, toPublicItem, type ContentType, type PublicItem, type PublicItemOf } from '#shared/content/registry.ts';
import type { BuildReader } from '#shared/content/reader.ts';
import { bodyImageOrigins, loadConfig, type Config } from '../config.ts';
import { openDatabase, type Database } from '../platform/db/client.ts';
import { createLogger, errorMessage, type Logger } from '../platform/logger.ts';
import { lockFile } from '../platform/db/lock.ts';
import { createMdxSource, type MdxSource } from './mdx-source.ts';
import { createPublicProjection } from './public.ts';
import { renderHere } from './render.ts';
import { createContentService } from './service.ts';

function serverHoldsDatabase(config: Config): boolean {
  try {
    const pid = Number(readFileSync(lockFile(config), 'utf8'));
    process.kill(pid, 0);
    return pid !== process.pid;
  } catch {
    return false;
  }
}

async function openForBuild(config: Config, logger: Logger): Promise<Database | undefined> {
  if (config.database.kind === 'pglite') {
    if (!existsSync(config.database.dataDir)) return undefined;
    if (serverHoldsDatabase(config)) {
      logger.warn('a running server holds the embedded database; the build uses MDX content only');
      return undefined;
    }
  }
  try {
    return await openDatabase(config.database, logger, { migrate: false });
  } catch (err) {
    logger.warn({ err: errorMessage(err) }, 'database not readable at build time; MDX content only');
    return undefined;
  }
}

async function readAll(mdx: MdxSource, database: Database | undefined, logger: Logger) {
  const byType = new Map<ContentType, PublicItem[]>();
  const service = database && createContentService({ db: database.db, mdx, logger });
  for (const type of CONTENT_TYPES) {
    let items = mdx.list(type);
    if (service) {
      try {
        items = await service.list(type);
      } catch (err) {
        logger.warn({ err: errorMessage(err), type }, 'database items not readable; MDX content only');
      }
    }
    byType.set(type, items.map(toPublicItem));
  }
  return byType;
}

let loaded: Promise<BuildReader> | undefined;

/** The build's content, loaded once per build process. */
export function getBuildContent(): Promise<BuildReader> {
  loaded ??= (async () => {
    // The build takes no payments: a deployment's build needs no payment provider.
    const config = loadConfig(process.env, process.cwd(), { role: 'build' });
    const logger = createLogger(process.env.LOG_LEVEL ?? 'warn');
    const mdx = await createMdxSource(config.contentDir);
    const database = await openForBuild(config, logger);
    let byType: Awaited<ReturnType<typeof readAll>>;
    try {
      byType = await readAll(mdx, database, logger);
    } finally {
      await database?.close();
    }
    // The build answers no requests: its bodies render on its own thread.
    const publicItem = createPublicProjection(renderHere(bodyImageOrigins(config)));
    return {
      list: async <T extends ContentType>(type: T) => (byType.get(type) ?? []) as PublicItemOf<T>[],
      get: async <T extends ContentType>(type: T, slug: string) =>
        byType.get(type)?.find((i) => i.slug === slug) as PublicItemOf<T> | undefined,
      fromGit: async <T extends ContentType>(type: T) =>
        (await Promise.all(mdx.list(type).map((item) => publicItem(item)))) as PublicItemOf<T>[],
    };
  })();
  return loaded;
}
