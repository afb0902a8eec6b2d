/**
 * `npm run preview:changes -- [base]`: writes the branch's content changes against `base` (default
 * origin/main, else main) to .preview/changes.json, for a deploy preview's /preview page. Run by the
 * preview workflow before the image is built (the image itself has no git history).
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { computeChanges } from '../functions/platform/site/preview-changes.ts';

const root = path.resolve(import.meta.dirname, '..');
const exists = (ref: string) => {
  try {
    execFileSync('git', ['rev-parse', '--verify', '--quiet', ref], { cwd: root, stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
};
const base = process.argv[2] ?? (exists('origin/main') ? 'origin/main' : 'main');
const result = computeChanges(root, base);
mkdirSync(path.join(root, '.preview'), { recursive: true });
writeFileSync(path.join(root, '.preview', 'changes.json'), `${JSON.stringify(result, null, 2)}\n`);
console.log(`${result.changes.length} content change(s) against ${base} written to .preview/changes.json`);
