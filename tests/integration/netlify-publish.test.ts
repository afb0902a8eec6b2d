/**
 * The published folder a Netlify build hands the CDN (scripts/netlify-publish.ts), made from a copy of
 * the test build: home and the lists as the build's snapshots, a preview's marks on every page (the
 * CDN cannot add them as the Node server does), and `_headers` carrying the pages' security headers,
 * with each snapshot's whole policy; and `npm run build:netlify` refusing a preview without a
 * database of its own.
 */
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, inject, it } from 'vitest';
import { SNAPSHOT_DIR, SNAPSHOT_MANIFEST, type SnapshotManifest } from '#server/page-snapshots.ts';
import { publishedFile, publishForCdn, SEARCH_ENTRY } from '../../scripts/netlify-publish.ts';
import { tempDir } from '../support/temp.ts';

/** A copy of the test build to publish (publishing writes into it). */
async function copyOfBuild(): Promise<string> {
  const dist = await tempDir('netlify-publish');
  cpSync(inject('testEnv').distDir, dist, { recursive: true });
  return dist;
}

const htmlFiles = (dir: string) =>
  readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith('.html') && !entry.parentPath.includes('_astro'))
    .map((entry) => path.join(entry.parentPath, entry.name));

/** The headers `_headers` gives a path, as rules (`pattern` lines, then indented `Name: value` lines). */
function rulesOf(text: string): Map<string, Record<string, string>> {
  const rules = new Map<string, Record<string, string>>();
  let current: Record<string, string> | undefined;
  for (const line of text.split('\n')) {
    if (!line.trim()) continue;
    if (!line.startsWith(' ')) rules.set(line, (current = {}));
    else {
      const [name, ...value] = line.trim().split(': ');
      current![name!] = value.join(': ');
    }
  }
  return rules;
}

describe('the published folder for Netlify', () => {
  it('publishes home and the lists as the build rendered them, with headers for every page', async () => {
    const dist = await copyOfBuild();
    const manifest = JSON.parse(readFileSync(path.join(dist, SNAPSHOT_DIR, SNAPSHOT_MANIFEST), 'utf8')) as SnapshotManifest;
    expect(Object.keys(manifest).sort()).toEqual(['/', '/blog', '/courses', '/market', '/tools']);
    const result = await publishForCdn(dist, { SITE_URL: 'https://beacon.example' });
    expect(result.snapshots).toBe(5);
    for (const [page, { file }] of Object.entries(manifest))
      expect(readFileSync(path.join(dist, 'client', publishedFile(page))), page).toEqual(readFileSync(path.join(dist, SNAPSHOT_DIR, file)));

    const rules = rulesOf(readFileSync(path.join(dist, 'client', '_headers'), 'utf8'));
    expect(rules.get('/*')).toMatchObject({
      'X-Frame-Options': 'DENY',
      'X-Content-Type-Options': 'nosniff',
      'Strict-Transport-Security': 'max-age=63072000; includeSubDomains',
    });
    expect(rules.get('/*')!['Content-Security-Policy']).toContain("frame-ancestors 'none'");
    expect(rules.get('/*')).not.toHaveProperty('X-Robots-Tag');
    expect(rules.get('/_astro/*')).toEqual({ 'Cache-Control': 'public, max-age=31536000, immutable' });
    for (const page of Object.keys(manifest)) {
      const policy = rules.get(page)!['Content-Security-Policy']!;
      // The snapshot's own script hashes, and the pages' part, whether a CDN merges rules or takes the last.
      expect(policy, page).toMatch(/script-src 'self' 'sha256-/);
      expect(policy, page).toContain("frame-ancestors 'none'");
    }
    // No preview: pages are as built.
    expect(readFileSync(path.join(dist, 'client', 'about', 'index.html'), 'utf8')).not.toContain('data-preview-banner');
    // The search index's hashed files stay published for a year; its entry is the pages function's (run-time content in).
    expect(existsSync(path.join(dist, 'client', SEARCH_ENTRY))).toBe(false);
    expect(readdirSync(path.join(dist, 'client', 'pagefind', 'fragment')).length).toBeGreaterThan(20);
    for (const folder of ['fragment', 'index', 'filter'])
      expect(rules.get(`/pagefind/${folder}/*`)).toEqual({ 'Cache-Control': 'public, max-age=31536000, immutable' });
  });

  it('marks every published page of a preview, and keeps no compressed copy of a page it changed', async () => {
    const dist = await copyOfBuild();
    await publishForCdn(dist, {
      SITE_URL: 'https://deploy-preview-7--beacon.netlify.app',
      PREVIEW_OF: 'new-pricing',
      PREVIEW_COMMIT: 'abc1234def',
    });
    const pages = htmlFiles(path.join(dist, 'client'));
    expect(pages.length).toBeGreaterThan(50);
    for (const file of pages) {
      const html = readFileSync(file, 'utf8');
      expect(html, file).toContain('<meta name="robots" content="noindex, nofollow">');
      expect(html, file).toContain('Deploy preview of <strong>new-pricing</strong> at <code>abc1234</code>');
      expect(existsSync(`${file}.br`) || existsSync(`${file}.gz`), file).toBe(false);
    }
    expect(rulesOf(readFileSync(path.join(dist, 'client', '_headers'), 'utf8')).get('/*')).toMatchObject({
      'X-Robots-Tag': 'noindex, nofollow',
    });
  });

  it("refuses to build a preview that has no database of its own, before it touches production's", () => {
    const build = spawnSync(process.execPath, ['scripts/netlify-build.ts'], {
      cwd: path.resolve(import.meta.dirname, '../..'),
      encoding: 'utf8',
      // Only Node on the PATH: were the refusal gone, no build tool (git, npx) could start either.
      env: {
        PATH: path.dirname(process.execPath),
        CONTEXT: 'deploy-preview',
        HEAD: 'new-pricing',
        DATABASE_URL: 'postgres://production.invalid/beacon',
      },
    });
    expect(build.status).toBe(1);
    expect(build.stderr).toMatch(/Deploy Preview needs a database of its own.*PREVIEW_DATABASE_URL/s);
    expect(build.stdout).not.toMatch(/Migrations|Building the site/);
  });
});
