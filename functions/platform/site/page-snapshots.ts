/**
 * The build's page snapshots (src/lib/server/page-snapshots.ts): home and the content lists as the
 * build rendered them. A snapshot answers its path (without a query) while the server's public
 * content gives the page the same data key as the build's did; otherwise the page is rendered per
 * request (rendered-pages.ts). The decision is kept until the next content write (`clear`, with the
 * rendered pages'), so a request costs a key only after a write. Served like a prebuilt file: the
 * run-time origin in place of the build's, a preview's marks, and the server's page policy
 * appended to the snapshot's own Content-Security-Policy (src/middleware.ts does that for renders).
 */
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { PublicContentReader } from '#shared/content/reader.ts';
import { withPageCsp } from '#server/page-csp.ts';
import { SNAPSHOT_DIR, SNAPSHOT_MANIFEST, snapshotKey, type SnapshotManifest } from '#server/page-snapshots.ts';
import { createPageAnswer, type PageAnswer } from './page-answers.ts';
import { replaceOrigin } from './static-pages.ts';

export interface PageSnapshotsOptions {
  distDir: string;
  /** The public content the pages show (the server's cached reader). */
  reader: PublicContentReader;
  buildOrigin: string;
  siteOrigin: string;
  /** The server's page policy (locals.pageCsp), appended to each snapshot's own. */
  pageCsp: string;
  transformHtml?: ((html: string) => string) | undefined;
}

/** Header names as page answers spell them. */
const SPELLING: Record<string, string> = { 'content-type': 'Content-Type', 'content-security-policy': 'Content-Security-Policy' };

export async function createPageSnapshots({ distDir, reader, buildOrigin, siteOrigin, pageCsp, transformHtml }: PageSnapshotsOptions) {
  const dir = path.join(distDir, SNAPSHOT_DIR);
  const manifestFile = path.join(dir, SNAPSHOT_MANIFEST);
  const manifest: SnapshotManifest = existsSync(manifestFile) ? JSON.parse(await readFile(manifestFile, 'utf8')) : {};
  const decided = new Map<string, Promise<PageAnswer | undefined>>();

  async function load(page: string): Promise<PageAnswer> {
    const { file, headers } = manifest[page]!;
    let html = replaceOrigin(await readFile(path.join(dir, file), 'utf8'), buildOrigin, siteOrigin);
    if (transformHtml) html = transformHtml(html);
    const own = Object.fromEntries(Object.entries(headers).map(([name, value]) => [SPELLING[name] ?? name, value]));
    own['Content-Security-Policy'] = withPageCsp(own['Content-Security-Policy'] ?? null, pageCsp);
    return createPageAnswer({ status: 200, headers: own, bytes: Buffer.from(html) });
  }

  async function decide(page: string): Promise<PageAnswer | undefined> {
    return (await snapshotKey(page, reader)) === manifest[page]!.key ? load(page) : undefined;
  }

  return {
    /** The snapshot answer for a URL (path and query), or undefined when the page must be rendered. */
    answer(url: string): Promise<PageAnswer | undefined> | undefined {
      if (!Object.hasOwn(manifest, url)) return undefined;
      let answer = decided.get(url);
      if (!answer) {
        // A content read that fails is not remembered: the page renders (and says so) until it works again.
        const made: Promise<PageAnswer | undefined> = decide(url).catch(() => {
          if (decided.get(url) === made) decided.delete(url);
          return undefined;
        });
        decided.set(url, (answer = made));
      }
      return answer;
    },
    /** Forgets every decision (public content changed). */
    clear: () => decided.clear(),
  };
}

export type PageSnapshots = Awaited<ReturnType<typeof createPageSnapshots>>;
