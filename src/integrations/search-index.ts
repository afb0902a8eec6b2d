/**
 * Astro integration: once the build is done, writes the public search index (issue 36) into the
 * client output's `pagefind/` folder, made from the build's content (git, and the database's when the
 * build has one), the services and the FAQ, with the same records and builder the server uses
 * (functions/search/), so a CDN serves it as files. The server makes it again with what is written at
 * run time and answers /pagefind/ itself.
 */
import { mkdir, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { AstroIntegration } from 'astro';
import { getBuildReader } from '../lib/server/context.ts';
import { SEARCH_INDEX_PATH } from '../lib/shared/search.ts';

export default function searchIndex(): AstroIntegration {
  return {
    name: 'search-index',
    hooks: {
      'astro:build:done': async ({ dir, logger }) => {
        // Loaded natively, like the build's reader, so no server module is bundled into the site.
        const load = (file: string) => import(/* @vite-ignore */ pathToFileURL(path.resolve(file)).href);
        const { buildIndexFiles, closePagefind } = (await load(
          'functions/search/pagefind.ts',
        )) as typeof import('../../functions/search/pagefind.ts');
        const { publicRecords } = (await load(
          'functions/search/public-records.ts',
        )) as typeof import('../../functions/search/public-records.ts');
        const records = await publicRecords({
          content: await getBuildReader(),
          contentDir: path.resolve(process.env.CONTENT_DIR ?? 'content'),
        });
        const files = await buildIndexFiles(records);
        await closePagefind();
        const out = path.join(fileURLToPath(dir), SEARCH_INDEX_PATH);
        await rm(out, { recursive: true, force: true });
        for (const [name, bytes] of files) {
          await mkdir(path.dirname(path.join(out, name)), { recursive: true });
          await writeFile(path.join(out, name), bytes);
        }
        logger.info(`${records.length} pages in the search index (${files.size} files in ${SEARCH_INDEX_PATH})`);
      },
    },
  };
}
