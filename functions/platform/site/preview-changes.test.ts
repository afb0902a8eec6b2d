import { execFileSync } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { computeChanges, readChanges, titleOf } from './preview-changes.ts';

const mdx = (title: string) => `---\ntitle: "${title}"\ndescription: "About ${title}."\n---\n\nBody of ${title}.\n`;

describe('a branch’s content changes for /preview', () => {
  let repo: string;
  const git = (...args: string[]) =>
    execFileSync('git', ['-c', 'user.name=Test', '-c', 'user.email=test@example.com', ...args], { cwd: repo, encoding: 'utf8' });
  const put = async (file: string, text: string) => {
    await mkdir(path.dirname(path.join(repo, file)), { recursive: true });
    await writeFile(path.join(repo, file), text);
  };

  beforeAll(async () => {
    repo = await mkdtemp(path.join(os.tmpdir(), 'preview-changes-'));
    git('init', '-q', '-b', 'main');
    await put('content/blog/kept-article.mdx', mdx('Kept Article'));
    await put('content/blog/old-article.mdx', mdx('Old Article'));
    await put('content/courses/seo-course.mdx', mdx('SEO Course'));
    await put('content/services/seo.yaml', 'title: SEO Optimization\norder: 1\n');
    await put('README.md', 'base\n');
    git('add', '-A');
    git('commit', '-qm', 'base');
    git('checkout', '-qb', 'feature/new-article');
    await put('content/blog/new-article.mdx', mdx('A New Article'));
    await put('content/courses/seo-course.mdx', mdx('SEO Course, Revised'));
    await rm(path.join(repo, 'content/blog/old-article.mdx'));
    await put('content/files/downloads/kit.pdf', '%PDF-1.4');
    await put('README.md', 'changed\n');
    git('add', '-A');
    git('commit', '-qm', 'branch work');
    // The base moves on after the branch started: its own changes are not the branch's.
    git('checkout', '-q', 'main');
    await put('content/blog/main-only.mdx', mdx('Main Only'));
    git('add', '-A');
    git('commit', '-qm', 'main moves on');
    git('checkout', '-q', 'feature/new-article');
  });
  afterAll(() => rm(repo, { recursive: true, force: true }));

  it('lists the added, changed and removed items with their titles and pages, and nothing else', () => {
    expect(computeChanges(repo, 'main')).toEqual({
      base: 'main',
      changes: [
        {
          status: 'added',
          kind: 'blog',
          slug: 'new-article',
          title: 'A New Article',
          path: '/blog/new-article',
          file: 'content/blog/new-article.mdx',
        },
        {
          status: 'changed',
          kind: 'course',
          slug: 'seo-course',
          title: 'SEO Course, Revised',
          path: '/courses/seo-course',
          file: 'content/courses/seo-course.mdx',
        },
        {
          status: 'removed',
          kind: 'blog',
          slug: 'old-article',
          title: 'Old Article',
          path: '/blog/old-article',
          file: 'content/blog/old-article.mdx',
        },
      ],
    });
  });

  it('reads the written file back, and an absent one as no changes', async () => {
    const file = path.join(repo, '.preview', 'changes.json');
    await put('.preview/changes.json', JSON.stringify(computeChanges(repo, 'main')));
    expect((await readChanges(file)).changes).toHaveLength(3);
    expect(await readChanges(path.join(repo, 'missing.json'))).toEqual({ base: '', changes: [] });
  });

  it('reads titles from MDX frontmatter and from service YAML', () => {
    expect(titleOf(mdx('Quoted: "Title"'.replace(/"/g, "'")))).toBe("Quoted: 'Title'");
    expect(titleOf('title: SEO Optimization\norder: 1\n')).toBe('SEO Optimization');
    expect(titleOf('---\nnot: [valid\n---')).toBeUndefined();
  });
});
