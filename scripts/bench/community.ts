/**
 * The community's budgets (`npm run bench -- --only=community`), against the real server (site and
 * API) on a fresh PGlite data folder with a thread of `general` holding 500 replies
 * (community-server.ts):
 *  - the thread answers in under 150 ms p50: its page (`/community/threads/{id}`, server-rendered
 *    for a category anyone reads: the first 50 posts) and its API answer, as a visitor and as a
 *    signed-in member, each timed over 200 sequential requests (p50, p95);
 *  - it pages: the first answer holds one page of posts and a cursor, not all 501, and following
 *    the cursors reaches every post exactly once, oldest first;
 *  - the thread list JSON (`GET /api/community/threads?category=general`, a visitor's first page)
 *    against a bare node:http server sending the same bytes (`versusBare`: wrk, alternating rounds),
 *    budget >= 0.35x.
 */
import { readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import type { ThreadPage } from '../../functions/community/answers.ts';

type StartChild = (
  script: string,
  env: Record<string, string>,
) => Promise<{ url: string; child: { kill(signal?: NodeJS.Signals): boolean } }>;
type VersusBare = (opts: {
  oursUrl: string;
  path: string;
  title: string;
  label: string;
  budget: number;
  headers?: string[];
}) => Promise<void>;

const REQUESTS = 200;
const BUDGET_MS = 150;

/** Milliseconds of `n` sequential calls of `fn`, sorted. */
async function timings(n: number, fn: () => Promise<void>): Promise<number[]> {
  const out: number[] = [];
  for (let i = 0; i < n; i++) {
    const started = performance.now();
    await fn();
    out.push(performance.now() - started);
  }
  return out.sort((a, b) => a - b);
}

const at = (sorted: number[], q: number) => sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * q))]!;

/** A free demo member's access token. */
async function signInMember(serverUrl: string): Promise<string> {
  const signIn = await fetch(`${serverUrl}/auth/v1/token?grant_type=password`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: 'free@demo.beacongrowth.co', password: 'beacon-demo-2026' }),
  });
  if (signIn.status !== 200) throw new Error(`sign-in failed: ${signIn.status}`);
  const { access_token: token } = (await signIn.json()) as { access_token: string };
  return token;
}

/** The thread pages: one page of posts and a cursor first, then every post once, oldest first; its page renders the first page. */
async function checkPaging(serverUrl: string, threadId: string, replies: number): Promise<void> {
  const apiPath = `/api/community/threads/${threadId}`;
  const read = async (cursor?: string): Promise<ThreadPage> => {
    const res = await fetch(`${serverUrl}${apiPath}${cursor ? `?cursor=${cursor}` : ''}`);
    if (res.status !== 200) throw new Error(`${apiPath} answered ${res.status}`);
    return (await res.json()) as ThreadPage;
  };
  const first = await read();
  const ids: string[] = first.posts.map((p) => p.id);
  const times: string[] = first.posts.map((p) => p.createdAt);
  let pages = 1;
  for (let cursor = first.nextCursor; cursor; pages++) {
    const next = await read(cursor);
    ids.push(...next.posts.map((p) => p.id));
    times.push(...next.posts.map((p) => p.createdAt));
    cursor = next.nextCursor;
  }
  const ordered = times.every((t, i) => i === 0 || times[i - 1]! <= t);
  const paged =
    first.posts.length < replies + 1 && first.nextCursor !== null && ids.length === replies + 1 && new Set(ids).size === ids.length;
  console.log(
    `Paging: the first answer holds ${first.posts.length} of ${replies + 1} posts and a cursor (${first.nextCursor ? 'yes' : 'no'}); ` +
      `${pages} pages reach ${ids.length} posts, ${new Set(ids).size} distinct, oldest first: ${ordered ? 'yes' : 'no'}. ` +
      `${paged && ordered ? 'PASS' : 'FAIL'}`,
  );
  const page = await fetch(`${serverUrl}/community/threads/${threadId}`);
  const html = await page.text();
  const renderedPosts = (html.match(/id="post-[0-9a-f-]{36}"/g) ?? []).length;
  console.log(
    `The page: ${page.status}, ${(html.length / 1024).toFixed(0)} KB of HTML with ${renderedPosts} posts rendered ` +
      `(the first page; a link asks for the next) ${page.status === 200 && renderedPosts > 0 && renderedPosts < replies ? 'PASS' : 'FAIL'}`,
  );
}

export async function communityBench(tmp: string, distDir: string, startChild: StartChild, versusBare: VersusBare) {
  console.log('\n## Community: a thread with 500 replies, and the thread list (PGlite, the real server with its site)\n');
  const dataDir = path.join(tmp, 'community-data');
  const infoFile = path.join(tmp, 'community-bench.json');
  rmSync(dataDir, { recursive: true, force: true });
  rmSync(infoFile, { force: true });
  const server = await startChild('scripts/bench/community-server.ts', {
    PORT: '0',
    DATA_DIR: dataDir,
    DIST_DIR: distDir,
    LOG_LEVEL: 'info',
    AUTH_SEED_DEMO: 'true',
    EMAIL_WORKER: 'false',
    BENCH_TOKENS_FILE: infoFile,
  });
  try {
    const { threadId, replies } = JSON.parse(readFileSync(infoFile, 'utf8')) as { threadId: string; replies: number };
    const member = { authorization: `Bearer ${await signInMember(server.url)}` };

    const apiPath = `/api/community/threads/${threadId}`;
    await checkPaging(server.url, threadId, replies);

    // Latency, one request at a time (after a warm-up of each).
    const get =
      (p: string, headers: Record<string, string> = {}) =>
      async () => {
        const res = await fetch(`${server.url}${p}`, { headers });
        if (res.status !== 200) throw new Error(`${p} answered ${res.status}`);
        await res.arrayBuffer();
      };
    const cases = [
      { name: `GET /community/threads/{id} (the page, a visitor)`, run: get(`/community/threads/${threadId}`) },
      { name: `GET ${'/api/community/threads/{id}'} (a visitor)`, run: get(apiPath) },
      { name: `GET ${'/api/community/threads/{id}'} (a signed-in member)`, run: get(apiPath, member) },
    ];
    console.log(`\n| answer | n | p50 | p95 | budget |\n|---|---|---|---|---|`);
    for (const c of cases) {
      await timings(20, c.run);
      const sorted = await timings(REQUESTS, c.run);
      const p50 = at(sorted, 0.5);
      console.log(
        `| ${c.name} | ${REQUESTS} | ${p50.toFixed(1)} ms | ${at(sorted, 0.95).toFixed(1)} ms | p50 < ${BUDGET_MS} ms ${p50 < BUDGET_MS ? 'PASS' : 'FAIL'} |`,
      );
    }

    await versusBare({
      oursUrl: server.url,
      path: '/api/community/threads?category=general',
      title: 'GET /api/community/threads?category=general (a visitor, the first page) throughput',
      label: 'product (answer lane, logging, headers)',
      budget: 0.35,
    });
  } finally {
    server.child.kill('SIGTERM');
  }
}
