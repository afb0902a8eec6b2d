/**
 * The site build as `npm start`, `npm run serve` and `npm run bundle` need it: built when it is
 * missing or older than its sources, with a stamp file saying when.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';

export const ROOT = path.resolve(import.meta.dirname, '..');
const SOURCES = ['src', 'content', 'public', 'astro.config.mjs', 'package-lock.json'];

function newestMtime(target: string): number {
  if (!existsSync(target)) return 0;
  const stat = statSync(target);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = stat.mtimeMs;
  for (const entry of readdirSync(target, { withFileTypes: true, recursive: true })) {
    if (entry.isFile()) newest = Math.max(newest, statSync(path.join(entry.parentPath, entry.name)).mtimeMs);
  }
  return newest;
}

/** Whether `distDir` lacks a complete build or is older than the site's sources. */
export function needsBuild(distDir: string): boolean {
  const stamp = path.join(distDir, '.build-stamp');
  if (!existsSync(stamp) || !existsSync(path.join(distDir, 'server', 'entry.mjs'))) return true;
  const built = statSync(stamp).mtimeMs;
  return SOURCES.some((s) => newestMtime(path.join(ROOT, s)) > built);
}

/** Builds the site into `distDir` (a production build); exits the process when the build fails. */
export function buildSite(distDir: string): void {
  console.log('Building the site (astro build)...');
  const result = spawnSync('npx', ['astro', 'build'], {
    cwd: ROOT,
    stdio: 'inherit',
    env: { ...process.env, NODE_ENV: 'production', DIST_DIR: distDir },
  });
  if (result.status !== 0) {
    console.error('\nThe site build failed; see the messages above.');
    process.exit(result.status ?? 1);
  }
  writeFileSync(path.join(distDir, '.build-stamp'), new Date().toISOString());
}
