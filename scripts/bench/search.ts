/**
 * Site search budget (issue 36, `npm run bench -- --only=search`): `GET /api/search` on 10,000
 * generated database articles (search-corpus.ts) against the API in its own process, on embedded
 * PGlite and on a real Postgres server, for a mix of queries (a rare word, a common word, two words,
 * a word no article has, a quoted phrase) as a premium and as a free member, one request at a time:
 * p50 and p95 per database and member must stay under 50 ms (p95).
 */
import { readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import type { SearchAnswer } from '#shared/search.ts';
import { createTestDatabase, startPostgres } from '../../tests/support/postgres.ts';
import { MISSING_WORD, RARE_WORD } from './search-corpus.ts';

type StartChild = (
  script: string,
  env: Record<string, string>,
) => Promise<{ url: string; child: { kill(signal?: NodeJS.Signals): boolean } }>;

const BUDGET_P95_MS = 50;
const REQUESTS = 100;
const QUERIES = [
  { kind: 'rare word', q: RARE_WORD },
  { kind: 'common word', q: 'business' },
  { kind: 'two words', q: 'email campaign' },
  { kind: 'no match', q: MISSING_WORD },
  { kind: 'phrase', q: '"google business profile"' },
];

const at = (sorted: number[], q: number) => sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * q))]!;
const ms = (n: number) => `${n.toFixed(1)} ms`;

async function run(label: string, tmp: string, startChild: StartChild, env: Record<string, string>) {
  const dataDir = path.join(tmp, 'search-data');
  const infoFile = path.join(tmp, 'search-bench.json');
  rmSync(dataDir, { recursive: true, force: true });
  rmSync(infoFile, { force: true });
  const server = await startChild('scripts/bench/search-server.ts', {
    PORT: '0',
    DATA_DIR: dataDir,
    LOG_LEVEL: 'warn',
    EMAIL_WORKER: 'false',
    AUTH_SEED_DEMO: 'false',
    AUTH_BCRYPT_COST: '4',
    BENCH_TOKENS_FILE: infoFile,
    ...env,
  });
  try {
    const info = JSON.parse(readFileSync(infoFile, 'utf8')) as {
      premium: string;
      free: string;
      insertMs: number;
      indexMs: number;
      total: number;
    };
    console.log(`\n### ${label}\n`);
    console.log(
      `${info.total} articles written in ${(info.insertMs / 1000).toFixed(1)} s, their search rows by the start-up fill in ${(info.indexMs / 1000).toFixed(1)} s.\n`,
    );
    console.log('| member | query | results (beyond level) | p50 | p95 |\n|---|---|---|---|---|');
    const verdicts: string[] = [];
    for (const who of ['premium', 'free'] as const) {
      const all: number[] = [];
      for (const { kind, q } of QUERIES) {
        const url = `${server.url}/api/search?q=${encodeURIComponent(q)}`;
        const headers = { authorization: `Bearer ${info[who]}` };
        let answer: SearchAnswer | undefined;
        const times: number[] = [];
        for (let i = 0; i < REQUESTS + 10; i++) {
          const started = performance.now();
          const res = await fetch(url, { headers });
          const body = (await res.json()) as SearchAnswer;
          const took = performance.now() - started;
          if (res.status !== 200) throw new Error(`${url} answered ${res.status}`);
          answer = body;
          if (i >= 10) times.push(took); // the first ten warm up
        }
        times.sort((a, b) => a - b);
        all.push(...times);
        const beyond = answer?.beyondLevel ? ` (+${answer.beyondLevel.count} ${answer.beyondLevel.level})` : '';
        console.log(
          `| ${who} | ${kind} \`${q}\` | ${answer?.results.length ?? 0}${beyond} | ${ms(at(times, 0.5))} | ${ms(at(times, 0.95))} |`,
        );
      }
      all.sort((a, b) => a - b);
      const p95 = at(all, 0.95);
      verdicts.push(
        `${label}, ${who} member, all queries (n=${all.length}): p50 ${ms(at(all, 0.5))}, p95 ${ms(p95)}: ${p95 < BUDGET_P95_MS ? 'PASS' : 'FAIL'}`,
      );
    }
    console.log(`\n${verdicts.join('\n')}`);
  } finally {
    server.child.kill('SIGTERM');
    await new Promise((r) => setTimeout(r, 500));
    rmSync(dataDir, { recursive: true, force: true });
  }
}

export async function searchBench(tmp: string, startChild: StartChild) {
  console.log(`\n## Site search: GET /api/search on 10,000 articles, one request at a time (budget p95 < ${BUDGET_P95_MS} ms)`);
  await run('Embedded PGlite (the database inside the server process)', tmp, startChild, {});
  if (process.env.BENCH_SEARCH_PGLITE_ONLY) return;
  const pg = await startPostgres();
  try {
    await run('Postgres (a server of its own)', tmp, startChild, { DATABASE_URL: await createTestDatabase(pg.adminUrl, 'bench_search') });
  } finally {
    await pg.stop();
  }
}
