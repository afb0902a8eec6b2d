/**
 * Deploy previews (PREVIEW_OF) on the real server and the test build: every page carries the banner
 * naming branch and commit and a noindex meta, every answer `X-Robots-Tag: noindex`, /preview lists
 * the branch's content changes (computed from a temporary git repository) and offers "view as", the
 * demo accounts exist to view as; and without PREVIEW_OF none of it is there.
 */
import { execFileSync } from 'node:child_process';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { loadConfig } from '../../functions/config.ts';
import { startServer, type RunningServer } from '../../functions/main.ts';
import { computeChanges } from '../../functions/platform/site/preview-changes.ts';
import { DEMO_PASSWORD } from '../../functions/users/demo.ts';
import { CONTENT_DIR } from '../support/app.ts';
import type { SessionAnswer, ViewerAnswer } from '../support/answers.ts';
import { quietLogger } from '../support/fixtures.ts';
import { tempDir } from '../support/temp.ts';
import { migratedDataDir } from '../support/databases.ts';

/** A repository whose branch adds, changes and removes one article each. */
async function branchWithChanges(): Promise<string> {
  const repo = await tempDir('preview-repo');
  const git = (...args: string[]) => execFileSync('git', ['-c', 'user.name=T', '-c', 'user.email=t@example.com', ...args], { cwd: repo });
  const put = async (file: string, title: string) => {
    await mkdir(path.dirname(path.join(repo, file)), { recursive: true });
    await writeFile(path.join(repo, file), `---\ntitle: "${title}"\n---\nBody.\n`);
  };
  git('init', '-q', '-b', 'main');
  await put('content/blog/seo-audit-checklist-2026.mdx', 'Before');
  await put('content/blog/retired-post.mdx', 'Retired Post');
  git('add', '-A');
  git('commit', '-qm', 'base');
  git('checkout', '-qb', 'feature/reviewed');
  await put('content/blog/ecommerce-launch-first-90-days.mdx', 'Your First 90 Days After an Ecommerce Launch');
  await put('content/blog/seo-audit-checklist-2026.mdx', 'After');
  execFileSync('git', ['rm', '-q', 'content/blog/retired-post.mdx'], { cwd: repo });
  git('add', '-A');
  git('commit', '-qm', 'branch');
  const file = path.join(repo, 'changes.json');
  await writeFile(file, JSON.stringify(computeChanges(repo, 'main')));
  return file;
}

describe('deploy preview mode', () => {
  let preview: RunningServer;
  let plain: RunningServer;
  const distDir = inject('testEnv').distDir;

  beforeAll(async () => {
    const common = { PORT: '0', DIST_DIR: distDir, CONTENT_DIR, LOG_LEVEL: 'silent', EMAIL_WORKER: 'false', AUTH_BCRYPT_COST: '4' };
    preview = await startServer(
      loadConfig({
        ...common,
        DATA_DIR: await migratedDataDir('preview'),
        PREVIEW_OF: 'feature/reviewed',
        PREVIEW_COMMIT: '0123456789abcdef',
        PREVIEW_CHANGES_FILE: await branchWithChanges(),
      }),
      quietLogger(),
    );
    plain = await startServer(
      loadConfig({ ...common, DATA_DIR: await migratedDataDir('not-preview'), AUTH_SEED_DEMO: 'false' }),
      quietLogger(),
    );
  });
  afterAll(async () => {
    await preview?.close();
    await plain?.close();
  });

  it('marks every page with the banner, a noindex meta and the noindex header, prebuilt or on demand', async () => {
    for (const page of ['/', '/blog/ecommerce-launch-first-90-days', '/blog/no-such-article', '/pricing']) {
      const res = await fetch(`${preview.url}${page}`, { headers: { 'accept-encoding': 'br, gzip' } });
      const html = await res.text();
      expect(res.headers.get('x-robots-tag'), page).toBe('noindex, nofollow');
      // Marked pages are compressed like any other (the marks are added before compressing).
      if (res.status === 200) expect(res.headers.get('content-encoding'), page).toBe('br');
      expect(html, page).toMatch(/<head[^>]*><meta name="robots" content="noindex, nofollow">/);
      expect(html, page).toContain('Deploy preview of <strong>feature/reviewed</strong> at <code>0123456</code>');
      expect(html.indexOf('data-preview-banner'), page).toBeGreaterThan(html.indexOf('<body'));
    }
    const api = await fetch(`${preview.url}/api/public/blogs`);
    expect(api.headers.get('x-robots-tag')).toBe('noindex, nofollow');
  });

  it('lists what the branch added, changed and removed on /preview, linked, with view-as for each level', async () => {
    const res = await fetch(`${preview.url}/preview`);
    expect(res.status).toBe(200);
    const html = await res.text();
    const items = [...html.matchAll(/<li[^>]*data-change="(\w+)"[^>]*>([\s\S]*?)<\/li>/g)].map((m) => [
      m[1],
      m[2]!.replace(/<[^>]+>/g, ' '),
    ]);
    expect(items.map(([status]) => status)).toEqual(['added', 'changed', 'removed']);
    expect(items[0]![1]).toContain('Your First 90 Days After an Ecommerce Launch');
    expect(html).toContain('href="/blog/ecommerce-launch-first-90-days"');
    expect(items[2]![1]).toContain('Retired Post');
    expect(html).not.toContain('href="/blog/retired-post"');
    for (const label of ['Free', 'Subscriber', 'Premium', 'Editor']) expect(html).toContain(`&quot;${label}&quot;`);
  });

  it('has the demo accounts to view the site as, at their levels', async () => {
    const levels: Record<string, string> = {};
    for (const who of ['free', 'subscriber', 'premium', 'editor']) {
      const signIn = await fetch(`${preview.url}/auth/v1/token?grant_type=password`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email: `${who}@demo.beacongrowth.co`, password: DEMO_PASSWORD }),
      });
      const { access_token: token } = (await signIn.json()) as SessionAnswer;
      const me = (await (
        await fetch(`${preview.url}/api/users/me`, { headers: { authorization: `Bearer ${token}` } })
      ).json()) as ViewerAnswer;
      levels[who] = `${me.viewer.role}/${me.viewer.accessLevel}`;
    }
    expect(levels).toEqual({ free: 'member/free', subscriber: 'member/subscriber', premium: 'member/premium', editor: 'editor/premium' });
  });

  it('is not there at all without PREVIEW_OF', async () => {
    const home = await fetch(`${plain.url}/`);
    expect(home.headers.get('x-robots-tag')).toBeNull();
    const html = await home.text();
    expect(html).not.toContain('data-preview-banner');
    expect(html).not.toContain('name="robots" content="noindex, nofollow"');
    expect((await fetch(`${plain.url}/preview`)).status).toBe(404);
    expect((await fetch(`${plain.url}/api/public/blogs`)).headers.get('x-robots-tag')).toBeNull();
  });
});
