/**
 * Astro integration: once the build is done, renders each snapshot page (src/lib/server/page-snapshots.ts)
 * through the built server, as the server would with the build's content, and writes the HTML, the
 * key of the data it showed and the headers it gave (its Content-Security-Policy with the hashes of
 * its inline scripts) to `server/snapshots/`. The server answers a snapshot while its own data has
 * the same key (functions/platform/site/page-snapshots.ts). A page that does not render with 200 and
 * a storable policy is left out (rendered per request, as before).
 */
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { AstroIntegration } from 'astro';
import { getBuildReader } from '../lib/server/context.ts';
import { SNAPSHOT_DIR, SNAPSHOT_MANIFEST, SNAPSHOT_PAGES, snapshotKey, type SnapshotManifest } from '../lib/server/page-snapshots.ts';

type AstroHandler = (req: IncomingMessage, res: ServerResponse, next: (err?: unknown) => void, locals?: object) => Promise<void>;

/** Headers of a render that belong to the page (the server adds its own when it answers). */
const KEPT_HEADERS = ['content-type', 'content-security-policy'];

async function renderAll(handler: AstroHandler): Promise<Map<string, { html: string; headers: Record<string, string> }>> {
  const server = createServer((req, res) => {
    handler(req, res, () => ((res.statusCode = 404), res.end()), {}).catch((err: unknown) => {
      res.statusCode = 500;
      res.end(String(err));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const pages = new Map<string, { html: string; headers: Record<string, string> }>();
  try {
    for (const page of Object.keys(SNAPSHOT_PAGES)) {
      const res = await fetch(`http://127.0.0.1:${port}${page}`);
      const html = await res.text();
      if (res.status !== 200 || /no-store|private/i.test(res.headers.get('cache-control') ?? '')) continue;
      const headers = Object.fromEntries(KEPT_HEADERS.flatMap((name) => (res.headers.has(name) ? [[name, res.headers.get(name)!]] : [])));
      pages.set(page, { html, headers });
    }
  } finally {
    await new Promise((resolve) => server.close(resolve));
  }
  return pages;
}

export default function pageSnapshots(): AstroIntegration {
  let outDir = '';
  let serverDir = '';
  return {
    name: 'page-snapshots',
    hooks: {
      'astro:config:done': ({ config }) => {
        outDir = fileURLToPath(config.outDir);
        serverDir = fileURLToPath(config.build.server);
      },
      'astro:build:done': async ({ logger }) => {
        const { handler } = (await import(pathToFileURL(path.join(serverDir, 'entry.mjs')).href)) as { handler: AstroHandler };
        const reader = await getBuildReader();
        const pages = await renderAll(handler);
        const dir = path.join(outDir, SNAPSHOT_DIR);
        await rm(dir, { recursive: true, force: true });
        await mkdir(dir, { recursive: true });
        const manifest: SnapshotManifest = {};
        for (const [page, { html, headers }] of pages) {
          const file = `${page === '/' ? 'index' : page.slice(1)}.html`;
          await writeFile(path.join(dir, file), html);
          manifest[page] = { file, key: await snapshotKey(page, reader), headers };
        }
        await writeFile(path.join(dir, SNAPSHOT_MANIFEST), JSON.stringify(manifest, null, 2));
        logger.info(`${pages.size} page snapshots in ${SNAPSHOT_DIR}`);
      },
    },
  };
}
