/**
 * `npm run bundle`: the production bundle, a self-contained folder that runs with Node 22 and
 * nothing else (`node functions/server.ts`, or `node functions/worker.ts` for a separate
 * mail worker) from a read-only folder, writing only under DATA_DIR. It holds the built site, the
 * server's own source files (followed from its entry points, tests left out), the migrations, the
 * content collections and, of node_modules, only the files the server and the site's server build
 * can load (traced by @vercel/nft, the adapters loaded on demand included): no dev tooling, no
 * build tooling (Astro's compiler, Vite), no tests, no `.data`.
 *
 *   npm run bundle [-- --out <folder>] [--dist <built site>]
 *
 * Builds the site first when it is missing or stale (unless --dist names a build). The Dockerfile
 * copies this folder into its image.
 */
import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { stripTypeScriptTypes } from 'node:module';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { nodeFileTrace } from '@vercel/nft';
import { PGLITE_TEMPLATE } from '../functions/platform/db/client.ts';
import { buildSite, needsBuild, ROOT } from './site-build.ts';

/** How the bundle starts: the Dockerfile, compose.yaml and the host's config use these exact commands. */
export const BUNDLE_COMMANDS = { web: ['node', 'functions/server.ts'], worker: ['node', 'functions/worker.ts'] } as const;
/** The entry points, and the thread members' posts are rendered on (started by URL, so no import leads to it). */
const ENTRIES = ['functions/server.ts', 'functions/worker.ts', 'functions/content/render-worker.ts'];
const IMPORT =
  /(?:\bimport|\bexport)\s[^'"`]*?\bfrom\s*['"]((?:\.{1,2}\/|#shared\/)[^'"]+)['"]|\bimport\s*\(?\s*['"]((?:\.{1,2}\/|#shared\/)[^'"]+)['"]/g;
/** package.json's `imports`: the shared modules every runtime reaches as `#shared/…`. */
const SHARED = 'src/lib/shared/';

/** Every local source file the entry points reach through relative or `#shared/` imports, repository-relative. */
export function serverSources(entries: readonly string[] = ENTRIES, root = ROOT): string[] {
  const seen = new Set<string>();
  const queue = [...entries];
  while (queue.length > 0) {
    const file = queue.pop()!;
    if (seen.has(file)) continue;
    seen.add(file);
    const text = readFileSync(path.join(root, file), 'utf8');
    for (const match of text.matchAll(IMPORT)) {
      const specifier = match[1] ?? match[2]!;
      const target = specifier.startsWith('#shared/')
        ? SHARED + specifier.slice('#shared/'.length)
        : path.posix.normalize(path.posix.join(path.posix.dirname(file), specifier));
      if (/\.(ts|tsx|js|mjs|json)$/.test(target) && existsSync(path.join(root, target))) queue.push(target);
    }
  }
  return [...seen].sort();
}

/**
 * Every file under node_modules that the server's sources and the site's server build (`dist`) can
 * load, statically or through a dynamic import with a literal name (the Stripe, OpenAI, S3, mail and
 * database adapters picked at start). The sources are TypeScript: nft reads them with their types
 * stripped, as Node runs them.
 */
export async function tracedDependencies(dist: string, root = ROOT): Promise<string[]> {
  const siteServer = readdirSync(path.join(dist, 'server'), { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith('.mjs'))
    .map((entry) => path.join(entry.parentPath, entry.name));
  const { fileList } = await nodeFileTrace([...serverSources(ENTRIES, root).map((file) => path.join(root, file)), ...siteServer], {
    base: root,
    processCwd: root,
    readFile: async (file) => {
      const bytes = await readFile(file).catch(() => null);
      return bytes && file.endsWith('.ts') ? stripTypeScriptTypes(bytes.toString('utf8')) : bytes;
    },
  });
  return [...fileList].filter((file) => file.startsWith('node_modules/')).sort();
}

async function main() {
  const { values } = parseArgs({ options: { out: { type: 'string' }, dist: { type: 'string' } } });
  const out = path.resolve(ROOT, values.out ?? 'bundle');
  const dist = path.resolve(ROOT, values.dist ?? process.env.DIST_DIR ?? 'dist');
  if (!values.dist && needsBuild(dist)) buildSite(dist);
  if (!existsSync(path.join(dist, 'server', 'entry.mjs'))) throw new Error(`No site build in ${dist}.`);
  // The build's imports are traced from where it is, so they must resolve to this project's node_modules.
  if (path.relative(ROOT, dist).startsWith('..')) throw new Error(`The site build must be inside ${ROOT} (it is in ${dist}).`);

  rmSync(out, { recursive: true, force: true });
  mkdirSync(out, { recursive: true });
  const copy = (from: string, to = from) => cpSync(path.join(ROOT, from), path.join(out, to), { recursive: true });
  for (const file of serverSources()) copy(file);
  copy('functions/platform/db/migrations');
  copy('content');
  rmSync(path.join(out, 'content', 'files', 'uploads'), { recursive: true, force: true });
  cpSync(dist, path.join(out, 'dist'), { recursive: true, filter: (src) => path.basename(src) !== '.build-stamp' });
  for (const file of await tracedDependencies(dist)) copy(file);

  const manifest = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as Record<string, unknown>;
  const bundled = {
    name: manifest.name,
    version: manifest.version,
    private: true,
    type: 'module',
    description: `${String(manifest.description)} (production bundle)`,
    engines: manifest.engines,
    // The `#shared/…` aliases the server's sources import by.
    imports: manifest.imports,
    scripts: { start: BUNDLE_COMMANDS.web.join(' '), worker: BUNDLE_COMMANDS.worker.join(' ') },
  };
  writeFileSync(path.join(out, 'package.json'), `${JSON.stringify(bundled, null, 2)}\n`);
  makePgliteTemplate(out);
  console.log(`Bundle ready in ${path.relative(ROOT, out) || out}: start it with "${BUNDLE_COMMANDS.web.join(' ')}" in that folder.`);
}

/**
 * A PGlite cluster as initdb leaves it with the bundle's migrations applied, made in place with the
 * bundle's own PGlite and drizzle: a fresh DATA_DIR is a copy of it instead of initdb and every
 * migration (functions/platform/db/client.ts, PGLITE_TEMPLATE).
 */
function makePgliteTemplate(out: string): void {
  const target = path.join(out, path.relative(ROOT, PGLITE_TEMPLATE));
  const script = `import { PGlite } from '@electric-sql/pglite';
import { drizzle } from 'drizzle-orm/pglite';
import { migrate } from 'drizzle-orm/pglite/migrator';
const db = await PGlite.create(${JSON.stringify(target)});
await migrate(drizzle({ client: db }), { migrationsFolder: 'functions/platform/db/migrations' });
await db.close();`;
  execFileSync(process.execPath, ['--input-type=module', '-e', script], { cwd: out, stdio: 'inherit' });
}

if (import.meta.main) await main();
