/**
 * The shared test environment: one Postgres server, a site database seeded with database-only
 * content, and a site build made against it (so the build's "both sources" path is exercised).
 * `npm test` prepares it once and passes it on through environment variables; a suite run on its
 * own prepares what is missing.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { createContentService } from '../../functions/content/service.ts';
import { createMdxSource } from '../../functions/content/mdx-source.ts';
import { openDatabase } from '../../functions/platform/db/client.ts';
import { quietLogger } from './fixtures.ts';
import { createTestDatabase, startPostgres } from './postgres.ts';

export const ROOT = path.resolve(import.meta.dirname, '../..');
/** Where the test build goes; TEST_BUILD_DIR moves it (two checkouts or agents building at once). */
export const TEST_DIST_DIR = process.env.TEST_BUILD_DIR ?? path.join(ROOT, '.tmp', 'test-dist');

/** The database-only article that exists when the test build runs (prebuilt from the database). */
export const BUILT_DB_ARTICLE = {
  slug: 'built-from-the-database',
  title: 'Built From The Database',
  description: 'A database-only article that existed when the site was built.',
  tags: ['Database', 'Build'],
  accessLevel: 'free',
  content: 'Database article body.',
  media: [{ url: '/media/does-not-exist.jpg', type: 'image', alt: 'Missing image' }],
} as const;

/** Never public: its title marks an unpublished item, which no build, page, feed or answer may carry. */
export const UNPUBLISHED_SENTINEL = 'UNPUBLISHED-SENTINEL-4a7c';

/** A database article that is unpublished when the test build runs (the build must leave it out). */
export const BUILT_DRAFT_ARTICLE = {
  slug: 'unpublished-when-built',
  title: `Unpublished When Built ${UNPUBLISHED_SENTINEL}`,
  description: `A draft the build must not list: ${UNPUBLISHED_SENTINEL}.`,
  tags: ['Draft'],
  accessLevel: 'free',
  content: `Draft body ${UNPUBLISHED_SENTINEL}.`,
} as const;

export interface TestEnvironment {
  pgAdminUrl: string;
  siteDbUrl: string;
  distDir: string;
  stop(): Promise<void>;
}

async function seedSiteDatabase(url: string): Promise<void> {
  const database = await openDatabase({ kind: 'postgres', url, poolSize: 2 }, quietLogger());
  try {
    const mdx = await createMdxSource(path.join(ROOT, 'content'));
    const service = createContentService({ db: database.db, mdx, logger: quietLogger() });
    await service.create('blog', BUILT_DB_ARTICLE);
    await service.create('blog', { ...BUILT_DRAFT_ARTICLE, published: false });
  } finally {
    await database.close();
  }
}

/** Builds the site into the test dist folder against the given database. */
export function buildSite(distDir: string, databaseUrl: string): void {
  const result = spawnSync('npx', ['astro', 'build'], {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
    encoding: 'utf8',
    // A production build whatever runs it (vitest sets NODE_ENV=test, which would bundle React's dev build).
    env: {
      ...process.env,
      NODE_ENV: 'production',
      DIST_DIR: distDir,
      DATABASE_URL: databaseUrl,
      ASTRO_TELEMETRY_DISABLED: '1',
      LOG_LEVEL: 'warn',
    },
  });
  if (result.status !== 0) throw new Error(`Test build failed:\n${result.stdout}\n${result.stderr}`);
  writeFileSync(path.join(distDir, '.build-stamp'), new Date().toISOString());
}

/**
 * Returns the environment from TEST_* variables when the runner prepared it, or prepares it:
 * starts Postgres, seeds the site database and builds the site.
 */
export async function prepareTestEnvironment(): Promise<TestEnvironment> {
  const { TEST_PG_URL, TEST_SITE_DB_URL, TEST_DIST_DIR: dist } = process.env;
  if (TEST_PG_URL && TEST_SITE_DB_URL && dist && existsSync(path.join(dist, 'server', 'entry.mjs'))) {
    return { pgAdminUrl: TEST_PG_URL, siteDbUrl: TEST_SITE_DB_URL, distDir: dist, stop: async () => undefined };
  }
  const server = TEST_PG_URL ? undefined : await startPostgres();
  const pgAdminUrl = TEST_PG_URL ?? server!.adminUrl;
  try {
    const siteDbUrl = await createTestDatabase(pgAdminUrl, 'site');
    await seedSiteDatabase(siteDbUrl);
    // TEST_REUSE_BUILD=1 keeps an earlier test build (running one suite while working on server code).
    if (!(process.env.TEST_REUSE_BUILD === '1' && existsSync(path.join(TEST_DIST_DIR, 'server', 'entry.mjs'))))
      buildSite(TEST_DIST_DIR, siteDbUrl);
    return { pgAdminUrl, siteDbUrl, distDir: TEST_DIST_DIR, stop: async () => server?.stop() };
  } catch (err) {
    await server?.stop();
    throw err;
  }
}

/** Exports an environment to child processes and suites of this process. */
export function exportEnvironment(env: TestEnvironment): void {
  process.env.TEST_PG_URL = env.pgAdminUrl;
  process.env.TEST_SITE_DB_URL = env.siteDbUrl;
  process.env.TEST_DIST_DIR = env.distDir;
}
