/**
 * `npm run bundle`: the production bundle, a self-contained folder that runs with Node 22 and
 * nothing else (`node server/server.mjs`, or `node server/worker.mjs` for a separate mail worker)
 * from a read-only folder, writing only under DATA_DIR. It holds the built site, the server
 * bundled by esbuild into `server/` (its own modules and the packages it imports, in a few files:
 * Node's loader spent about half of a start resolving and reading some 2,000 module files), the
 * migrations, the content collections (and their index, parsed once here: functions/content/content-index.ts)
 * and, of node_modules, only what is left outside that bundle
 * (PGlite, which loads its WebAssembly beside its code; the native bcrypt; what the site's
 * server build imports), traced by @vercel/nft: no dev tooling, no build tooling (Astro's compiler,
 * Vite), no tests, no `.data`.
 *
 *   npm run bundle [-- --out <folder>] [--dist <built site>]
 *
 * Builds the site first when it is missing or stale (unless --dist names a build), and renders
 * every body kept in git once, so a body that cannot render fails here, naming it. The Dockerfile
 * copies this folder into its image.
 */
import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, truncateSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { nodeFileTrace } from '@vercel/nft';
import { build, type BuildOptions, type Plugin } from 'esbuild';
import { CONTENT_INDEX, writeContentIndex } from '../functions/content/content-index.ts';
import { gitBodyProblems } from '../functions/content/git-bodies.ts';
import { PGLITE_TEMPLATE, PGLITE_TEMPLATE_SIZES } from '../functions/platform/db/client.ts';
import { buildSite, needsBuild, ROOT } from './site-build.ts';

/** How the bundle starts: the Dockerfile, compose.yaml and the host's config use these exact commands. */
export const BUNDLE_COMMANDS = { web: ['node', 'server/server.mjs'], worker: ['node', 'server/worker.mjs'] } as const;
/** The entry points, and the thread bodies are rendered on (started by URL, so no import leads to it). */
const ENTRIES = ['functions/server.ts', 'functions/worker.ts', 'functions/content/render-worker.ts'];
/** Where the bundled server goes in the bundle: every file in this one folder (serverAppFiles counts on it). */
const SERVER_DIR = 'server';
/** Where the built functions go, under the app's root: one folder per function (netlify.toml's functions directory). */
export const FUNCTIONS_DIR = 'dist/functions';
/**
 * Packages left in node_modules: PGlite reads its .wasm and .data files beside its own module,
 * bcrypt is a native addon, and Pagefind runs its binary, which it finds from its own module (the
 * search index). The lazy adapters (Stripe, OpenAI, S3, nodemailer, Postgres) are bundled as chunks
 * of their own, loaded only when configured.
 */
const EXTERNAL = ['@electric-sql/pglite', 'bcrypt', 'pagefind'];
/**
 * Files found at run time by a name no trace can follow: Pagefind's binary for this machine's
 * platform (`@pagefind/<platform>-<arch>`, an optional dependency npm installs for it alone), which
 * the bundle, the image and a function run on.
 */
function untracedFiles(root: string): string[] {
  const platform = process.platform === 'win32' ? 'windows' : process.platform;
  const dir = path.join('node_modules', '@pagefind', `${platform}-${process.arch}`);
  if (!existsSync(path.join(root, dir))) return [];
  return readdirSync(path.join(root, dir), { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => path.relative(root, path.join(entry.parentPath, entry.name)));
}
/**
 * functions/platform/app-files.ts as a bundled module has it: the app's root is `up` from the
 * module's folder, and a thread's entry point is the bundled file of that name in `threads` (an
 * expression: where the modules are).
 */
const appFilesModule = (up: string, threads: string) => `import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
export const APP_ROOT = fileURLToPath(new URL(${JSON.stringify(up)}, import.meta.url));
export const appFile = (repositoryPath) => path.join(APP_ROOT, repositoryPath);
export const entryPoint = (source) => pathToFileURL(path.join(${threads}, path.basename(source, '.ts') + '.mjs'));
`;
const appFilesPlugin = (contents: string): Plugin => ({
  name: 'bundled-app-files',
  setup(b) {
    b.onLoad({ filter: /functions[\\/]platform[\\/]app-files\.ts$/ }, () => ({ contents, loader: 'js' }));
  },
});
/** The server's: every bundled module is in `server/`, one level under the bundle's root. */
const serverAppFiles = appFilesPlugin(appFilesModule('../', `APP_ROOT, ${JSON.stringify(SERVER_DIR)}`));
/** CommonJS packages bundled into ES modules still call `require` for Node's own modules. */
const REQUIRE_BANNER = "import { createRequire as __bundleRequire } from 'node:module'; const require = __bundleRequire(import.meta.url);";

/**
 * How the app's modules are bundled (server and function entries alike): ES modules for Node 22,
 * code-split so each lazy adapter stays its own chunk, the native and data-carrying packages left
 * outside. Whitespace and syntax minified only, names kept: the sources' text is held in memory as
 * long as the server runs; stack traces name the bundled files and functions.
 */
function bundleOptions(root: string, outdir: string, entryPoints: string[], plugins: Plugin[]): BuildOptions {
  return {
    entryPoints,
    absWorkingDir: root,
    outdir,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node22',
    splitting: true,
    entryNames: '[name]',
    chunkNames: '[name]-[hash]',
    outExtension: { '.js': '.mjs' },
    external: EXTERNAL,
    banner: { js: REQUIRE_BANNER },
    minifyWhitespace: true,
    minifySyntax: true,
    plugins,
    logLevel: 'warning',
  };
}

/** The server's entry points bundled into `outdir` (NODE_OPTIONS=--enable-source-maps maps traces to the sources). */
export async function bundleServer(outdir: string, root = ROOT): Promise<void> {
  await build({
    ...bundleOptions(
      root,
      outdir,
      ENTRIES.map((entry) => path.join(root, entry)),
      [serverAppFiles],
    ),
    sourcemap: 'linked',
  });
}

/**
 * A function's database is Postgres (config.ts, functionProblems): the embedded driver's module is
 * replaced, so the function carries none of PGlite (its JavaScript, and its 30 MB of WebAssembly and
 * data that a trace would add).
 */
const withoutPglite: Plugin = {
  name: 'function-without-pglite',
  setup(b) {
    b.onLoad({ filter: /functions[\\/]platform[\\/]db[\\/]pglite\.ts$/ }, () => ({
      contents:
        "export async function openPglite() { throw new Error('The embedded database is not part of a serverless function: set DATABASE_URL.'); }",
      loader: 'js',
    }));
  },
};

/** A built function's: its modules are FUNCTIONS_DIR/<name>/, three levels under the root, its threads beside them. */
const functionAppFiles = appFilesPlugin(appFilesModule('../../../', 'path.dirname(fileURLToPath(import.meta.url))'));

/**
 * The serverless function entries (netlify/functions/*.ts) built as they ship: each into a folder of
 * its own under `outdir` (`<name>/<name>.mjs`, the layout Netlify takes a function from), with its
 * chunks and the body renderer's thread beside it, no chunk shared with another function or the
 * server: code-split, so an adapter the configuration does not pick (Stripe, OpenAI) is a chunk never
 * read, and without PGlite. Every module of a function is `FUNCTIONS_DIR/<name>/` deep, so the
 * files it reads (content, migrations, the site build) are found at their paths under the app's root.
 */
export async function bundleFunctions(outdir: string, root = ROOT): Promise<string[]> {
  const names = readdirSync(path.join(root, 'netlify/functions'))
    .filter((name) => name.endsWith('.ts'))
    .map((name) => name.replace(/\.ts$/, ''));
  rmSync(outdir, { recursive: true, force: true });
  for (const name of names) {
    const entryPoints = [path.join(root, 'netlify/functions', `${name}.ts`), path.join(root, 'functions/content/render-worker.ts')];
    await build({
      ...bundleOptions(root, path.join(outdir, name), entryPoints, [functionAppFiles, withoutPglite]),
      chunkNames: 'chunk-[hash]',
    });
  }
  return names.map((name) => path.join(outdir, name, `${name}.mjs`));
}

/**
 * Every file under node_modules that the bundled server or functions (`server`, their packages left
 * outside them) and the site's server build (`dist`) can load, statically or through a dynamic import
 * with a literal name, and the files found by a computed name (`untracedFiles`). Both folders must be inside `root`, so their imports resolve to its node_modules.
 */
export async function tracedDependencies(server: string, dist: string, root = ROOT): Promise<string[]> {
  const modules = (dir: string) =>
    readdirSync(dir, { recursive: true, withFileTypes: true })
      .filter((entry) => entry.isFile() && entry.name.endsWith('.mjs'))
      .map((entry) => path.join(entry.parentPath, entry.name));
  const { fileList } = await nodeFileTrace([...modules(server), ...modules(path.join(dist, 'server'))], { base: root, processCwd: root });
  return [...new Set([...fileList].filter((file) => file.startsWith('node_modules/')).concat(untracedFiles(root)))].sort();
}

async function main() {
  const { values } = parseArgs({ options: { out: { type: 'string' }, dist: { type: 'string' } } });
  const out = path.resolve(ROOT, values.out ?? 'bundle');
  const dist = path.resolve(ROOT, values.dist ?? process.env.DIST_DIR ?? 'dist');
  if (!values.dist && needsBuild(dist)) buildSite(dist);
  if (!existsSync(path.join(dist, 'server', 'entry.mjs'))) throw new Error(`No site build in ${dist}.`);
  // The build's imports are traced from where it is, so they must resolve to this project's node_modules.
  if (path.relative(ROOT, dist).startsWith('..')) throw new Error(`The site build must be inside ${ROOT} (it is in ${dist}).`);

  const problems = await gitBodyProblems(path.join(ROOT, 'content'));
  if (problems.length > 0) throw new Error(`Bodies in content/ that cannot be rendered:\n${problems.join('\n')}`);

  rmSync(out, { recursive: true, force: true });
  mkdirSync(out, { recursive: true });
  const copy = (from: string, to = from) => cpSync(path.join(ROOT, from), path.join(out, to), { recursive: true });
  // Bundled inside the project first, so the tracer resolves the packages left outside to its node_modules.
  const staging = path.join(ROOT, '.tmp', 'bundle-server');
  rmSync(staging, { recursive: true, force: true });
  await bundleServer(staging);
  cpSync(staging, path.join(out, SERVER_DIR), { recursive: true });
  copy('functions/platform/db/migrations');
  copy('content');
  rmSync(path.join(out, 'content', 'files', 'uploads'), { recursive: true, force: true });
  cpSync(dist, path.join(out, 'dist'), { recursive: true, filter: (src) => path.basename(src) !== '.build-stamp' });
  for (const file of await tracedDependencies(staging, dist)) copy(file);
  rmSync(staging, { recursive: true, force: true });

  const manifest = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as Record<string, unknown>;
  const bundled = {
    name: manifest.name,
    version: manifest.version,
    private: true,
    type: 'module',
    description: `${String(manifest.description)} (production bundle)`,
    engines: manifest.engines,
    scripts: { start: BUNDLE_COMMANDS.web.join(' '), worker: BUNDLE_COMMANDS.worker.join(' ') },
  };
  writeFileSync(path.join(out, 'package.json'), `${JSON.stringify(bundled, null, 2)}\n`);
  makePgliteTemplate(out);
  const index = path.join(out, path.relative(ROOT, CONTENT_INDEX));
  mkdirSync(path.dirname(index), { recursive: true });
  await writeContentIndex(path.join(out, 'content'), index);
  console.log(`Bundle ready in ${path.relative(ROOT, out) || out}: start it with "${BUNDLE_COMMANDS.web.join(' ')}" in that folder.`);
}

/**
 * A PGlite cluster as initdb leaves it with the bundle's migrations applied, made with the PGlite
 * and drizzle the bundle holds (the project's, whose files were traced or bundled): a fresh DATA_DIR
 * is a copy of it instead of initdb and every migration (functions/platform/db/client.ts, PGLITE_TEMPLATE).
 * initdb's template databases are dropped: only CREATE DATABASE reads them, which the server never
 * runs, and they were half of the cluster's 1,180 files (the copy is most of a first start's I/O).
 * The write-ahead log is switched to a new segment after a checkpoint, with old segments removed
 * rather than recycled, so the one left holds only the last checkpoint: the bundle keeps its
 * written start and its true size (PGLITE_TEMPLATE_SIZES), 16 MiB less for every first start to copy.
 */
function makePgliteTemplate(out: string): void {
  const target = path.join(out, path.relative(ROOT, PGLITE_TEMPLATE));
  const script = `import { PGlite } from '@electric-sql/pglite';
import { drizzle } from 'drizzle-orm/pglite';
import { migrate } from 'drizzle-orm/pglite/migrator';
const db = await PGlite.create(${JSON.stringify(target)}, {
  startParams: [...PGlite.defaultStartParams, '-c', 'wal_recycle=off', '-c', 'wal_init_zero=off'],
});
await migrate(drizzle({ client: db }), { migrationsFolder: ${JSON.stringify(path.join(out, 'functions/platform/db/migrations'))} });
for (const name of ['template0', 'template1']) {
  await db.exec(\`ALTER DATABASE \${name} IS_TEMPLATE false\`);
  await db.exec(\`DROP DATABASE \${name}\`);
}
await db.exec('CHECKPOINT');
await db.query('SELECT pg_switch_wal()');
await db.exec('CHECKPOINT');
await db.close();`;
  // Baseline-compiled WebAssembly, as the server runs PGlite (functions/platform/db/pglite.ts): half the CPU of its initdb.
  execFileSync(process.execPath, ['--liftoff-only', '--input-type=module', '-e', script], { cwd: ROOT, stdio: 'inherit' });
  const sizes: Record<string, number> = {};
  for (const name of readdirSync(path.join(target, 'pg_wal')).filter((n) => /^[0-9A-F]{24}$/.test(n))) {
    const file = path.join(target, 'pg_wal', name);
    const bytes = readFileSync(file);
    let end = bytes.length;
    while (end > 0 && bytes[end - 1] === 0) end -= 1;
    // Whole WAL pages (8 KiB) are kept, the rest is zeros again once copied.
    truncateSync(file, Math.ceil(end / 8192) * 8192);
    sizes[`pg_wal/${name}`] = bytes.length;
  }
  writeFileSync(path.join(out, path.relative(ROOT, PGLITE_TEMPLATE_SIZES)), JSON.stringify(sizes));
}

if (import.meta.main) await main();
