/**
 * The map is the tree: ARCHITECTURE.md's layout names every folder a newcomer meets, each domain has
 * a short README, and no document points outside the repository.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const root = path.resolve(import.meta.dirname, '..');
const read = (file: string) => readFileSync(path.join(root, file), 'utf8');
const lines = (text: string) => text.replace(/\n$/, '').split('\n').length;
const folders = (dir: string) =>
  readdirSync(path.join(root, dir), { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name)
    .sort();

const IGNORED_TOP = new Set(['node_modules', 'dist', 'bundle', 'test-results']);

/** Top-level folders holding a file git tracks, dot-folders and build output aside. */
function trackedTopFolders(): string[] {
  const files = execFileSync('git', ['ls-files'], { cwd: root, encoding: 'utf8' }).split('\n');
  const tops = new Set(files.filter((file) => file.includes('/')).map((file) => file.split('/')[0]!));
  return [...tops].filter((name) => !name.startsWith('.') && !IGNORED_TOP.has(name)).sort();
}

/** The text of ARCHITECTURE.md's "## Layout" section, up to the next second-level heading. */
function layoutSection(): string {
  const text = read('ARCHITECTURE.md');
  const start = text.indexOf('\n## Layout\n');
  expect(start, 'ARCHITECTURE.md has a "## Layout" section').toBeGreaterThan(-1);
  const end = text.indexOf('\n## ', start + 1);
  return text.slice(start, end === -1 ? undefined : end);
}

function docFiles(): string[] {
  const docs = existsSync(path.join(root, 'docs'))
    ? readdirSync(path.join(root, 'docs'), { recursive: true, encoding: 'utf8' }).map((file) => path.join('docs', file))
    : [];
  const readmes = readdirSync(path.join(root, 'functions'), { recursive: true, encoding: 'utf8' })
    .filter((file) => path.basename(file) === 'README.md')
    .map((file) => path.join('functions', file));
  return ['ARCHITECTURE.md', ...docs.filter((file) => file.endsWith('.md')), ...readmes];
}

/** Relative link targets of a markdown file that resolve outside the repository. */
function linksLeaving(file: string): string[] {
  const targets = [...read(file).matchAll(/\]\(([^)\s]+)\)/g)].map((match) => match[1]!.split('#')[0]!);
  return targets
    .filter((target) => target !== '' && !/^[a-z][a-z0-9+.-]*:/i.test(target))
    .filter((target) => {
      const resolved = path.resolve(path.dirname(path.join(root, file)), target);
      return path.isAbsolute(target) || !resolved.startsWith(root + path.sep);
    });
}

describe('the documentation is a map of the tree', () => {
  it('names every folder of functions/, src/components/ and the top level in the layout', () => {
    const layout = layoutSection();
    const expected = [
      ...folders('functions').map((name) => `functions/${name}/`),
      ...folders('src/components').map((name) => `src/components/${name}/`),
      ...trackedTopFolders().map((name) => `${name}/`),
    ];
    const missing = expected.filter((folder) => !layout.includes(`\`${folder}\``));
    expect(missing, "folders missing from ARCHITECTURE.md's layout (name each as `path/`)").toEqual([]);
  });

  it('keeps ARCHITECTURE.md a tour of at most 300 lines', () => {
    expect(lines(read('ARCHITECTURE.md'))).toBeLessThanOrEqual(300);
  });

  it('gives every domain and platform a README of at most 150 lines', () => {
    const tooLong = folders('functions')
      .map((name) => `functions/${name}/README.md`)
      .filter((file) => !existsSync(path.join(root, file)) || lines(read(file)) > 150);
    expect(tooLong, 'READMEs missing or over 150 lines').toEqual([]);
  });

  it('points nowhere outside the repository', () => {
    const outside = docFiles().flatMap((file) => [
      ...(read(file).includes('../shared') ? [`${file}: ../shared`] : []),
      ...linksLeaving(file).map((target) => `${file}: ${target}`),
    ]);
    expect(outside).toEqual([]);
  });
});
