/**
 * `npm run build:netlify`: Netlify's build command (netlify.toml). With the deploy's own variables in
 * this app's names (functions/platform/deploy/netlify.ts: the site's address from URL or
 * DEPLOY_PRIME_URL, a preview's branch and commit, Netlify DB's database):
 *  1. a preview's content changes against its base, from git (`npm run preview:changes`);
 *  2. the migrations, when the deploy has a database (`npm run migrate`): a function never migrates;
 *  3. the site build (`astro build`), whose page snapshots read the migrated database's content;
 *  4. the published folder made the CDN's (netlify-publish.ts): home and the content lists as files,
 *     a preview's marks on every page, `_headers` with the pages' security headers;
 *  5. the functions built as they ship (scripts/bundle.ts, bundleFunctions) with the packages they
 *     load (traced), the content index, and the deploy record a function starts from.
 *
 *   npm run build:netlify      (on Netlify; locally, set CONTEXT and URL to try it)
 */
import { spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { CONTENT_INDEX, writeContentIndex } from '../functions/content/content-index.ts';
import {
  buildEnvironment,
  DEPLOY_RECORD,
  isPreviewContext,
  previewDatabaseProblem,
  RECORDED,
} from '../functions/platform/deploy/netlify.ts';
import { bundleFunctions, FUNCTIONS_DIR, tracedDependencies } from './bundle.ts';
import { publishForCdn } from './netlify-publish.ts';
import { buildSite, ROOT } from './site-build.ts';

/** Where the functions' packages go: every module of a function and of the site's server build finds them walking up. */
const PACKAGES_DIR = 'dist/node_modules';

function step(title: string, cmd: string, args: string[], env: NodeJS.ProcessEnv): void {
  console.log(`\n── ${title} ──`);
  const result = spawnSync(cmd, args, { cwd: ROOT, stdio: 'inherit', env });
  if (result.status !== 0) {
    console.error(`\n${title} failed; see the messages above.`);
    process.exit(result.status ?? 1);
  }
}

/** The base a preview is compared with: origin/main, fetched when the build's clone lacks it. */
function previewBase(): string | undefined {
  const has = (ref: string) => spawnSync('git', ['rev-parse', '--verify', '--quiet', ref], { cwd: ROOT, stdio: 'ignore' }).status === 0;
  if (!has('origin/main'))
    spawnSync('git', ['fetch', '--quiet', 'origin', 'main:refs/remotes/origin/main'], { cwd: ROOT, stdio: 'inherit' });
  return has('origin/main') ? 'origin/main' : has('main') ? 'main' : undefined;
}

/** Copies the packages the functions and the site's server build load (traced, as `npm run bundle` traces its own) into PACKAGES_DIR. */
async function copyPackages(): Promise<number> {
  const packages = await tracedDependencies(path.join(ROOT, FUNCTIONS_DIR), path.join(ROOT, 'dist'));
  rmSync(path.join(ROOT, PACKAGES_DIR), { recursive: true, force: true });
  for (const file of packages) cpSync(path.join(ROOT, file), path.join(ROOT, 'dist', file), { dereference: true });
  return packages.length;
}

const env = buildEnvironment(process.env);
const preview = isPreviewContext(env);
// A preview never migrates, reads or seeds production's database.
const noDatabase = previewDatabaseProblem(process.env);
if (noDatabase) {
  console.error(`\n${noDatabase}\n`);
  process.exit(1);
}
console.log(
  `Netlify build: ${process.env.CONTEXT ?? 'no CONTEXT'}, site ${env.SITE_URL ?? '(no SITE_URL)'}${preview ? `, preview of ${env.PREVIEW_OF}` : ''}`,
);

if (preview) {
  const base = previewBase();
  if (base) step('Content changes of the preview', process.execPath, ['scripts/preview-changes.ts', base], env);
  else console.warn('No base branch to compare with: /preview lists no changes.');
}
if (env.DATABASE_URL) step('Migrations', process.execPath, ['scripts/migrate.ts'], env);
else console.warn('No DATABASE_URL: no migrations applied, and the functions will not start until one is set.');

const distDir = path.join(ROOT, 'dist');
rmSync(distDir, { recursive: true, force: true });
process.env = env;
buildSite(distDir);

console.log('\n── Published files, functions ──');
const published = await publishForCdn(distDir, env);
console.log(`${published.pages} pages published as files (${published.snapshots} of them the build's snapshots), _headers written`);
const functions = await bundleFunctions(path.join(ROOT, FUNCTIONS_DIR));
console.log(`${functions.length} functions built in ${FUNCTIONS_DIR}; ${await copyPackages()} package files in ${PACKAGES_DIR}`);
await writeContentIndex(path.join(ROOT, 'content'), CONTENT_INDEX);
const record = Object.fromEntries(RECORDED.flatMap((name) => (env[name] ? [[name, env[name]]] : [])));
mkdirSync(path.dirname(path.join(distDir, DEPLOY_RECORD)), { recursive: true });
writeFileSync(path.join(distDir, DEPLOY_RECORD), `${JSON.stringify(record, null, 2)}\n`);
console.log(`Deploy record: ${JSON.stringify(record)}`);
