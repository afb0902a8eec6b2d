/**
 * `npm run check`: everything that needs types, split by who can read what. Oxlint's type-aware mode
 * runs TypeScript 7's native checker (tsgolint) over every .ts and .tsx file: the compiler's own
 * diagnostics (`--type-check`) and the two typed rules of .oxlintrc.json (promises left floating or
 * handed where nothing awaits them), in seconds where TypeScript 6 took minutes. Astro's checker
 * (TypeScript 6's language service through Volar, the only checker that reads .astro) then checks
 * the .astro files alone. Both read tsconfig.json; `astro sync` first writes the content
 * collections' types they import.
 */
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import path from 'node:path';
import { AstroCheck } from '@astrojs/language-server';

const root = path.resolve(import.meta.dirname, '..');
const require = createRequire(import.meta.url);
const packageFile = (name: string, file: string) => path.join(path.dirname(require.resolve(`${name}/package.json`)), file);

function step(title: string, cmd: string, args: string[]): void {
  const started = Date.now();
  const result = spawnSync(cmd, args, { cwd: root, stdio: 'inherit' });
  if (result.status !== 0) {
    console.error(`✖ ${title} failed`);
    process.exit(result.status ?? 1);
  }
  console.log(`✔ ${title} (${((Date.now() - started) / 1000).toFixed(1)}s)`);
}

step('astro sync', process.execPath, [packageFile('astro', 'bin/astro.mjs'), 'sync']);
step('Types and typed rules of .ts and .tsx (oxlint, TypeScript 7)', process.execPath, [
  packageFile('oxlint', 'bin/oxlint'),
  '--type-aware',
  '--type-check',
  '--deny-warnings',
]);

const started = Date.now();
const checker = new AstroCheck(root, require.resolve('typescript'), path.join(root, 'tsconfig.json'));
const astroFiles = checker.linter.getRootFileNames().filter((file) => file.endsWith('.astro'));
if (astroFiles.length === 0) {
  console.error('✖ Astro: no .astro file found to check (tsconfig.json includes them all)');
  process.exit(1);
}
const result = await checker.lint({ fileNames: astroFiles, logErrors: { level: 'warning' } });
const failed = result.errors + result.warnings;
console.log(
  `${failed ? '✖' : '✔'} Astro: ${result.fileChecked} .astro files, ${result.errors} errors, ${result.warnings} warnings (${((Date.now() - started) / 1000).toFixed(1)}s)`,
);
process.exit(failed ? 1 : 0);
