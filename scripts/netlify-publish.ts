/**
 * The site build's published folder (dist/client) made what Netlify's CDN serves on its own, for
 * `npm run build:netlify`:
 *  - home and the content lists as files: the build's page snapshots (src/integrations/page-snapshots.ts),
 *    the same bytes the server gives, so those pages cost no function call. Content written at run
 *    time reaches them through their islands (each list asks the public API; home's latest posts
 *    are refreshed by a small script), within the CDN's bound as the API answers are;
 *  - a preview's marks (noindex and the banner) on every published page, which the Node server adds
 *    as it serves a page and the CDN cannot;
 *  - the search index's hashed files, without its entry, which the pages function answers with run-time content in;
 *  - `_headers`: the pages' security headers (the Node server's `pageSecurityHeaders`, with the
 *    snapshots' own Content-Security-Policy carrying their script hashes) and hashed assets kept a
 *    year. A published page's Cache-Control is Netlify's (a deploy replaces it, so browsers revalidate).
 */
import { readdirSync, readFileSync, rmSync, writeFileSync, mkdirSync, existsSync } from 'node:fs';
import path from 'node:path';
import { loadConfig, pageImageSources } from '../functions/config.ts';
import { pagePolicy, withPageCsp } from '#server/page-csp.ts';
import { IMMUTABLE } from '../functions/platform/http/cache-control.ts';
import { pageSecurityHeaders } from '../functions/platform/http/security-headers.ts';
import { injectPreview } from '../functions/platform/site/preview.ts';
import { SNAPSHOT_DIR, SNAPSHOT_MANIFEST, type SnapshotManifest } from '#server/page-snapshots.ts';

/** The search index's entry file, under the published folder. */
export const SEARCH_ENTRY = 'pagefind/pagefind-entry.json';

/** A URL path's file in the published folder: `/` is index.html, `/blog` is blog/index.html. */
export const publishedFile = (page: string) => (page === '/' ? 'index.html' : `${page.slice(1)}/index.html`);

/** One `_headers` rule: the path, then its headers indented. */
const rule = (pattern: string, headers: Record<string, string>) =>
  [pattern, ...Object.entries(headers).map(([name, value]) => `  ${name}: ${value}`)].join('\n');

/** Every HTML page of the published folder but the hashed assets'. */
const htmlPages = (clientDir: string) =>
  readdirSync(clientDir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith('.html'))
    .map((entry) => path.join(entry.parentPath, entry.name))
    .filter((file) => !path.relative(clientDir, file).startsWith('_astro'));

export async function publishForCdn(
  distDir: string,
  env: Record<string, string | undefined>,
): Promise<{ pages: number; snapshots: number }> {
  const config = loadConfig(env, process.cwd(), { role: 'build' });
  const clientDir = path.join(distDir, 'client');
  const manifestFile = path.join(distDir, SNAPSHOT_DIR, SNAPSHOT_MANIFEST);
  const manifest = existsSync(manifestFile) ? (JSON.parse(readFileSync(manifestFile, 'utf8')) as SnapshotManifest) : {};
  const imageSources = pageImageSources(config);
  const rules = [
    rule('/*', pageSecurityHeaders({ https: config.siteUrl.startsWith('https:'), noindex: Boolean(config.preview), imageSources })),
    rule('/_astro/*', { 'Cache-Control': IMMUTABLE }),
  ];
  for (const [page, { file, headers }] of Object.entries(manifest)) {
    const target = path.join(clientDir, publishedFile(page));
    if (existsSync(target)) throw new Error(`${page} is both prebuilt and a snapshot.`);
    mkdirSync(path.dirname(target), { recursive: true });
    writeFileSync(target, readFileSync(path.join(distDir, SNAPSHOT_DIR, file)));
    // Rendered per request, a snapshot's policy (its scripts' hashes) came as a header, not a <meta>:
    // whole here with the pages' own part, whether the CDN adds it to the rule above or puts it in its place.
    const policy = headers['content-security-policy'];
    if (policy) rules.push(rule(page, { 'Content-Security-Policy': withPageCsp(policy, pagePolicy(imageSources)) }));
  }
  // The search index's entry is the pages function's to answer (functions/search/): its index adds what
  // is written at run time. The build's hashed files stay published, and are kept a year like assets.
  rmSync(path.join(clientDir, SEARCH_ENTRY), { force: true });
  for (const folder of ['fragment', 'index', 'filter']) rules.push(rule(`/pagefind/${folder}/*`, { 'Cache-Control': IMMUTABLE }));
  const pages = htmlPages(clientDir);
  if (config.preview) {
    for (const file of pages) {
      writeFileSync(file, injectPreview(readFileSync(file, 'utf8'), config.preview));
      for (const compressed of ['.br', '.gz']) rmSync(`${file}${compressed}`, { force: true });
    }
  }
  writeFileSync(path.join(clientDir, '_headers'), `${rules.join('\n\n')}\n`);
  return { pages: pages.length, snapshots: Object.keys(manifest).length };
}
