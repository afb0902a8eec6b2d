/**
 * Page snapshots: the pages rendered per request that a visitor sees first (home and the content
 * lists) are also rendered once by the build, from the content it has (src/integrations/page-snapshots.ts).
 * Each page's output is a function of the data named here (and of the build): the build records
 * that data's key beside the snapshot, and the server answers the snapshot while its own data has
 * the same key, rendering the page per request once content written at run time changes it
 * (functions/platform/site/page-snapshots.ts). A first start then serves its first page without
 * loading the page renderer. Server side only.
 */
import { createHash } from 'node:crypto';
import type { PublicContentReader } from '#shared/content/reader.ts';
import type { ContentType } from '#shared/content/registry.ts';
import { loadHomeTeasers } from '../../components/marketing/home-teasers.ts';

const list = (type: ContentType) => (reader: PublicContentReader) => reader.list(type);

/**
 * Each snapshot page's path and everything it reads. Events are left out: their list shows each
 * event as past or upcoming as of the moment it renders.
 */
export const SNAPSHOT_PAGES: Readonly<Record<string, (reader: PublicContentReader) => Promise<unknown>>> = {
  '/': loadHomeTeasers,
  '/blog': list('blog'),
  '/courses': list('course'),
  '/tools': list('tool'),
  '/market': list('market'),
};

/** The key of what a snapshot page shows, read from `reader`. */
export async function snapshotKey(page: string, reader: PublicContentReader): Promise<string> {
  const read = SNAPSHOT_PAGES[page];
  if (!read) throw new Error(`${page} is not a snapshot page.`);
  return createHash('sha256')
    .update(JSON.stringify(await read(reader)))
    .digest('base64url');
}

/** Where the build writes the snapshots, relative to the build folder (DIST_DIR): one HTML file each and the manifest. */
export const SNAPSHOT_DIR = 'server/snapshots';
export const SNAPSHOT_MANIFEST = 'manifest.json';

/** The manifest: for each page, its file in SNAPSHOT_DIR, its data's key and the headers its render gave. */
export type SnapshotManifest = Record<string, { file: string; key: string; headers: Record<string, string> }>;
