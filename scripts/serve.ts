/**
 * Builds the site if it is missing or older than its sources, then starts the server in this process.
 * Run through `npm start` (which installs first) or `npm run serve`.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
if (existsSync(path.join(root, '.env'))) process.loadEnvFile(path.join(root, '.env'));
const distDir = path.resolve(root, process.env.DIST_DIR || 'dist');
const stamp = path.join(distDir, '.build-stamp');
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

function needsBuild(): boolean {
  if (!existsSync(stamp) || !existsSync(path.join(distDir, 'server', 'entry.mjs'))) return true;
  const built = statSync(stamp).mtimeMs;
  return SOURCES.some((s) => newestMtime(path.join(root, s)) > built);
}

if (process.env.SKIP_BUILD !== '1' && needsBuild()) {
  console.log('Building the site (astro build)...');
  const result = spawnSync('npx', ['astro', 'build'], { cwd: root, stdio: 'inherit', env: { ...process.env, NODE_ENV: 'production' } });
  if (result.status !== 0) {
    console.error('\nThe site build failed; see the messages above.');
    process.exit(result.status ?? 1);
  }
  writeFileSync(stamp, new Date().toISOString());
}

await import('../functions/server.ts');
