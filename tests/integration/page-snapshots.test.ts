/**
 * Page snapshots (functions/platform/site/page-snapshots.ts) against the test build: a server whose
 * content is the build's answers home and the lists from the build's snapshots, which are the bytes
 * a render gives; once content written at run time changes a page, it is rendered per request.
 * The server runs on a copy of the database the site was built from, and on a copy of the build
 * whose snapshots carry a planted mark, so an answer shows where it came from.
 */
import { appendFileSync, cpSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { loadConfig } from '../../functions/config.ts';
import { createMdxSource } from '../../functions/content/mdx-source.ts';
import { createContentService } from '../../functions/content/service.ts';
import { openDatabase } from '../../functions/platform/db/client.ts';
import { startServer, type RunningServer } from '../../functions/main.ts';
import { SNAPSHOT_DIR, SNAPSHOT_PAGES } from '#server/page-snapshots.ts';
import { CONTENT_DIR } from '../support/app.ts';
import { pgAdminUrl } from '../support/databases.ts';
import { makeBlogInput, quietLogger } from '../support/fixtures.ts';
import { createTestDatabase } from '../support/postgres.ts';
import { tempDir } from '../support/temp.ts';

const MARK = '<!-- from the snapshot -->';

describe('page snapshots', () => {
  let server: RunningServer;
  let databaseUrl: string;
  let distDir: string;

  beforeAll(async () => {
    const { distDir: builtDir, siteDbUrl } = inject('testEnv');
    distDir = path.join(await tempDir('snapshots-dist'), 'dist');
    cpSync(builtDir, distDir, { recursive: true });
    for (const page of Object.keys(SNAPSHOT_PAGES))
      appendFileSync(path.join(distDir, SNAPSHOT_DIR, `${page === '/' ? 'index' : page.slice(1)}.html`), MARK);
    databaseUrl = await createTestDatabase(pgAdminUrl(), 'snapshots', new URL(siteDbUrl).pathname.slice(1));
    const env = {
      PORT: '0',
      DATA_DIR: await tempDir('snapshots'),
      DIST_DIR: distDir,
      DATABASE_URL: databaseUrl,
      PAYMENTS: 'test',
      LOG_LEVEL: 'silent',
    };
    server = await startServer(loadConfig(env), quietLogger());
  });
  afterAll(async () => {
    await server?.close();
  });

  const text = async (p: string) => (await fetch(`${server.url}${p}`)).text();

  it('answers home and the lists from the build while their content is the build’s, the same bytes a render gives', async () => {
    for (const page of Object.keys(SNAPSHOT_PAGES)) {
      const answer = await text(page);
      expect(answer.endsWith(MARK), page).toBe(true);
      // With a query the page is rendered (a snapshot answers its bare path only).
      expect(await text(`${page}?rendered`), page).toBe(answer.slice(0, -MARK.length));
    }
  });

  it('renders a page per request once content written at run time changes it, and only that page', async () => {
    const database = await openDatabase({ kind: 'postgres', url: databaseUrl, poolSize: 2 }, quietLogger());
    try {
      const service = createContentService({ db: database.db, mdx: await createMdxSource(CONTENT_DIR), logger: quietLogger() });
      const blog = await service.create('blog', makeBlogInput({ title: 'Written after the build' }));
      await expect.poll(() => text('/blog')).toContain(`/blog/${blog.slug}`);
      expect(await text('/blog')).not.toContain(MARK);
      expect(await text('/')).toContain(`/blog/${blog.slug}`);
      expect(await text('/courses')).toMatch(new RegExp(`${MARK}$`));
      // Gone again: the build's content, so the snapshot answers again.
      await service.remove('blog', blog.id);
      await expect.poll(() => text('/blog')).toMatch(new RegExp(`${MARK}$`));
      expect(await text('/')).toMatch(new RegExp(`${MARK}$`));
    } finally {
      await database.close();
    }
  });
});
