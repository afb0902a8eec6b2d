/**
 * What a branch changes in the content reviewers look at: MDX items and service pages added,
 * changed or removed against its base branch, read from git (`git diff --name-status` since the
 * merge base, renames as a removal and an addition). `npm run preview:changes` writes it to
 * `.preview/changes.json` before a preview is built (the image has no git); the server reads that
 * file in preview mode and /preview lists it.
 */
import { execFileSync } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { parse as parseYaml } from 'yaml';
import { CONTENT_REGISTRY, CONTENT_TYPES, itemPath } from '#shared/content/registry.ts';

export type ChangeStatus = 'added' | 'changed' | 'removed';

export interface PreviewChange {
  status: ChangeStatus;
  /** The content type, or `service` for the services pages. */
  kind: string;
  slug: string;
  title: string;
  /** The page reviewers open (for a removed item: where it was). */
  path: string;
  /** The file, relative to the repository. */
  file: string;
}

export interface PreviewChanges {
  base: string;
  changes: PreviewChange[];
}

/** Content files reviewers care about: `content/<type folder>/<slug>.mdx` and `content/services/<slug>.yaml`. */
function itemOf(file: string): { kind: string; slug: string; path: string } | undefined {
  const match = /^content\/([\w-]+)\/([\w-]+)\.(mdx|ya?ml)$/.exec(file);
  if (!match) return undefined;
  const [, folder, slug, ext] = match as unknown as [string, string, string, string];
  if (folder === 'services' && ext !== 'mdx') return { kind: 'service', slug, path: `/services/${slug}` };
  const type = CONTENT_TYPES.find((t) => CONTENT_REGISTRY[t].folder === folder);
  return type && ext === 'mdx' ? { kind: type, slug, path: itemPath(type, slug) } : undefined;
}

/** The `title` of an MDX file's frontmatter or a YAML file, else undefined. */
export function titleOf(text: string): string | undefined {
  const frontmatter = /^---\r?\n([\s\S]*?)\r?\n---/.exec(text)?.[1];
  try {
    const data = parseYaml(frontmatter ?? text) as { title?: unknown } | null;
    return typeof data?.title === 'string' ? data.title : undefined;
  } catch {
    return undefined;
  }
}

const git = (repo: string, args: string[]) => execFileSync('git', args, { cwd: repo, encoding: 'utf8', maxBuffer: 16 * 1024 * 1024 });

/** The branch's content changes against `base` (a branch or commit), newest state of each file. */
export function computeChanges(repo: string, base: string): PreviewChanges {
  const mergeBase = git(repo, ['merge-base', base, 'HEAD']).trim();
  const lines = git(repo, ['diff', '--name-status', '-M', `${mergeBase}`, 'HEAD', '--', 'content/'])
    .split('\n')
    .filter(Boolean);
  const entries: { status: ChangeStatus; file: string }[] = [];
  for (const line of lines) {
    const [code, first, second] = line.split('\t') as [string, string, string | undefined];
    if (code.startsWith('R') && second) entries.push({ status: 'removed', file: first }, { status: 'added', file: second });
    else entries.push({ status: code === 'A' ? 'added' : code === 'D' ? 'removed' : 'changed', file: first });
  }
  const changes: PreviewChange[] = [];
  for (const { status, file } of entries) {
    const item = itemOf(file);
    if (!item) continue;
    const text = git(repo, ['show', `${status === 'removed' ? mergeBase : 'HEAD'}:${file}`]);
    changes.push({ status, ...item, title: titleOf(text) ?? item.slug, file });
  }
  const order: Record<ChangeStatus, number> = { added: 0, changed: 1, removed: 2 };
  changes.sort((a, b) => order[a.status] - order[b.status] || a.path.localeCompare(b.path));
  return { base, changes };
}

/** The changes a preview was built with; empty when the file is missing or unreadable. */
export async function readChanges(file: string): Promise<PreviewChanges> {
  try {
    const data = JSON.parse(await readFile(file, 'utf8')) as PreviewChanges;
    return Array.isArray(data.changes) ? data : { base: '', changes: [] };
  } catch {
    return { base: '', changes: [] };
  }
}
